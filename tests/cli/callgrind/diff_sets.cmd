# diff A... --vs B...: each set merged as tracekit merge merges it (-j threads), then the diff
# of the two: the bytes (and exit status) of merge -o a A..., merge -o b B..., diff a b, with
# every format and the options that match, sort and cut, on -j 1 and -j 4; one file a side is
# the diff of two files; the text of the sets; the files of a run's threads; a missing file
# of B: its error, no -o written
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/callgrind/pass
A="$D/demo-every.out $D/demo-every.out.1"
B="$D/demo-every.out.1 $D/demo-every.out.1 $D/demo-every.out"
tracekit merge -o $t/a.out $A
tracekit merge -o $t/b.out $B
same() {
    tracekit diff "$@" $t/a.out $t/b.out >$t/want 2>&1
    echo $? >>$t/want
    for j in 1 4; do
        tracekit diff -j $j "$@" $A --vs $B >$t/got 2>&1
        echo $? >>$t/got
        cmp -s $t/want $t/got || echo "$*: -j $j differs from merge then diff"
    done
    echo "== diff $*: $(wc -c <$t/want) bytes, as merge then diff"
}
same
same --format json
same --format csv
same --format folded
same --format svg --title sets
same --sort Ir -n 2
same --match name -n 4
same --mod-filename 's/demo/x/' --mod-funcname 's/^fib.*/fib/'
tracekit diff $D/demo-every.out --vs $D/demo-every.out.1 >$t/one
tracekit diff $D/demo-every.out $D/demo-every.out.1 | cmp - $t/one && echo "one a side: the diff of two files"
tracekit diff -n 5 $A --vs $B | sed "s|$PWD/||g"
# valgrind --separate-threads=yes's files, the empty base file with them, as merge reads them
tracekit merge -o $t/threads.out $D/threads-sep.out*
tracekit diff $t/threads.out $D/demo-every.out >$t/want
tracekit diff $D/threads-sep.out* --vs $D/demo-every.out | cmp - $t/want && echo "threads' files a side: as merge then diff"
tracekit diff -o $t/x.txt $A --vs $D/demo-every.out $D/missing.out
echo "exit $?, -o written: $(ls $t | grep -c x.txt)"
