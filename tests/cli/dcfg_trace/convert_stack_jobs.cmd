# convert --to callgrind, dot, folded and svg -j 2 and -j 3 write the bytes of -j 1, stderr and exit status too: each trace of tests/data/dcfg_trace/pass over a DCFG, with and without --per-thread (callgrind: a file per thread)
t=$(mktemp -d); trap 'rm -rf $t' EXIT
P=tests/data/dcfg_trace/pass
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (checksums, stderr, exit status)
js=(${TK_WITH_J1-1} 2 3) r=${js[0]}
for f in gen11.level0 gen11.level9 gen11.intel tailjump ok_multi_row_hex warn_leftover_bits; do
    d=$P/gen11.dcfg.json
    [ $f = tailjump ] && d=$P/tailjump.dcfg.json
    for to in callgrind dot folded svg; do
        for p in "" --per-thread; do
            [ $to = dot ] && [ -n "$p" ] && continue
            for j in "${js[@]}"; do
                mkdir $t/$j
                tracekit convert --to $to --dcfg $d $p -j $j $P/$f.trace.json -o $t/$j/out 2> $t/e$j
                echo $? > $t/r$j
            done
            for j in "${js[@]:1}"; do
                cmp -s $t/r$r $t/r$j && cmp -s $t/e$r $t/e$j || echo "$f $to $p: -j $j differs"
                diff -r $t/$r $t/$j > /dev/null || echo "$f $to $p: -j $j output differs"
            done
            if [ "$(cat $t/r$r)" = 0 ]; then
                echo "$f $to $p: $(ls $t/$r | wc -l) files, cksum $(cat $t/$r/* | cksum)"
                sed "s|$P/||" $t/e$r
            else
                echo "$f $to $p: exit $(cat $t/r$r), $(ls $t/$r | wc -l) files: $(sed "s|$P/||" $t/e$r)"
            fi
            rm -rf $t/1 $t/2 $t/3 $t/e* $t/r*
        done
    done
done
