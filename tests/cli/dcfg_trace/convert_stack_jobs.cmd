# convert --to callgrind, dot, folded and svg -j 2 and -j 3 write the bytes of -j 1, stderr and exit status too: each trace of tests/data/dcfg_trace/pass over a DCFG, with and without --per-thread (callgrind: a file per thread)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
P=tests/data/dcfg_trace/pass
for f in gen11.level0 gen11.level9 gen11.intel tailjump ok_multi_row_hex warn_leftover_bits; do
    d=$P/gen11.dcfg.json
    [ $f = tailjump ] && d=$P/tailjump.dcfg.json
    for to in callgrind dot folded svg; do
        for p in "" --per-thread; do
            [ $to = dot ] && [ -n "$p" ] && continue
            for j in 1 2 3; do
                mkdir $t/$j
                tracekit convert --to $to --dcfg $d $p -j $j $P/$f.trace.json -o $t/$j/out 2> $t/e$j
                echo $? > $t/r$j
            done
            for j in 2 3; do
                cmp -s $t/r1 $t/r$j && cmp -s $t/e1 $t/e$j || echo "$f $to $p: -j $j differs"
                diff -r $t/1 $t/$j > /dev/null || echo "$f $to $p: -j $j output differs"
            done
            if [ "$(cat $t/r1)" = 0 ]; then
                echo "$f $to $p: $(ls $t/1 | wc -l) files, cksum $(cat $t/1/* | cksum)"
            else
                echo "$f $to $p: exit $(cat $t/r1), $(ls $t/1 | wc -l) files: $(sed "s|$P/||" $t/e1)"
            fi
            rm -rf $t/1 $t/2 $t/3 $t/e* $t/r*
        done
    done
done
