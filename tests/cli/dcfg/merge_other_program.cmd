# DCFGs of one program merge (runs on other inputs, an MPI job's ranks); a run of another
# program (its first image, the executable, has another name) is refused, both files named:
# its counts are of other code, and their union a process that never ran
t=$(mktemp -d); trap 'rm -rf $t' EXIT
sed 's|\\/usr\\/joe\\/hello|\\/usr\\/joe\\/bye|' tests/data/dcfg/merge/hello-run2.dcfg.json >$t/bye.dcfg.json
tracekit merge tests/data/dcfg/merge/hello-run1.dcfg.json $t/bye.dcfg.json 2>&1 | sed "s|$t/||"; echo "exit $?"
tracekit merge -j 1 tests/data/dcfg/merge/hello-run1.dcfg.json tests/data/dcfg/merge/hello-run2.dcfg.json $t/bye.dcfg.json 2>&1 | sed "s|$t/||"; echo "exit $?"
