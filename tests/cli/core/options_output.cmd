# -o FILE and -f mean the same wherever a command writes a result (docs/cli.md): the file is what
# standard output would be, an existing FILE is replaced only with -f, a failed run leaves no file
set -e; t=$(mktemp -d); trap 'rm -rf $t' EXIT
run() { # NAME ARGS...: tracekit ARGS -o $t/NAME equals tracekit ARGS on standard output
    n=$1; shift
    tracekit "$@" -o $t/$n; tracekit "$@" > $t/$n.stdout
    cmp -s $t/$n $t/$n.stdout && echo "$n: -o FILE is standard output ($(wc -l < $t/$n) lines)"
}
run csi-report report tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
run csi-annotate annotate tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
run csi-dump dump tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
run wet-report report tests/data/wet/pass/foo1.wet
run wet-annotate annotate --source-dir tests/data/wet/pass tests/data/wet/pass/foo1.wet
run wet-dump dump tests/data/wet/pass/tiny.wet
run dcfg-report report tests/data/dcfg/pass/minimal.dcfg.json
run dcfg-dump dump tests/data/dcfg/pass/minimal.dcfg.json
tracekit diff tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_count1.trace.json tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json -o $t/trace-diff || echo "trace-diff: exit $? (the traces differ), written: $(head -1 $t/trace-diff)"
run trace-dump dump tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
run xray-dump dump tests/data/xray/pass/calltree.basic
run folded-info report tests/data/folded/pass/small.diff.folded
run chain chain tests/data/wet/pass/foo1.wet 2120:0 1870:0
run values values tests/data/wet/pass/foo1.wet 2120
run paths paths --list tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
run instr-map instr-map tests/data/xray/bin/calltree
# an existing FILE: refused without -f (exit 1, the file untouched), replaced with -f / --force
echo keep > $t/old
tracekit report -o $t/old tests/data/wet/pass/foo1.wet 2>&1 | sed "s|$t/||" || true
cat $t/old
tracekit report -f -o $t/old tests/data/wet/pass/foo1.wet && head -1 $t/old
tracekit values --force -o $t/old tests/data/wet/pass/foo1.wet 2120 && head -1 $t/old
# a run that fails writes nothing
tracekit dump -o $t/bad tests/data/wet/fail/count_values_mismatch.wet 2>/dev/null || echo "exit $?"
test -e $t/bad || echo "no $t/bad" | sed "s|$t/||"
