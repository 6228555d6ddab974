# convert --to bbv -j 3 (and -j 2) writes the bytes of -j 1, markers and exit status too: each trace of tests/data/dcfg_trace/pass over a DCFG, intervals below a block (1), below a chunk (50), about a chunk (1000), over a thread (100000); with and without --loop-boundaries
t=$(mktemp -d); trap 'rm -rf $t' EXIT
P=tests/data/dcfg_trace/pass
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (checksums, stderr, exit status)
js=(${TK_WITH_J1-1} 2 3) r=${js[0]}
marks() { if [ -e $1 ]; then echo "$(wc -l <$1) markers, cksum $(cksum <$1)"; else echo "no markers"; fi; }
for f in gen11.level0 gen11.level9 gen11.intel tailjump ok_multi_row_hex; do
    d=$P/gen11.dcfg.json
    [ $f = tailjump ] && d=$P/tailjump.dcfg.json
    for i in 1 50 1000 100000; do
        for l in "" --loop-boundaries; do
            for j in "${js[@]}"; do
                tracekit convert --to bbv --dcfg $d --interval $i $l ${l:+--markers $t/m$j} -j $j \
                    $P/$f.trace.json -o $t/o$j 2> $t/e$j
                echo $? > $t/r$j
            done
            for j in "${js[@]:1}"; do
                cmp -s $t/r$r $t/r$j && cmp -s $t/e$r $t/e$j || echo "$f $i $l: -j $j differs"
                [ -e $t/o$r ] && { cmp $t/o$r $t/o$j || echo "$f $i $l: -j $j output differs"; }
                [ -n "$l" ] && { cmp $t/m$r $t/m$j || echo "$f $i $l: -j $j markers differ"; }
            done
            if [ -e $t/o$r ]; then
                echo "$f --interval $i $l: $(wc -l < $t/o$r) slices${l:+, $(marks $t/m$r)}, cksum $(cksum < $t/o$r)"
                sed "s|$P/||" $t/e$r
            else
                echo "$f --interval $i $l: exit $(cat $t/r$r)${l:+, $(marks $t/m$r)}: $(sed "s|$P/||" $t/e$r)"
            fi
            rm -f $t/o* $t/m*
        done
    done
done
