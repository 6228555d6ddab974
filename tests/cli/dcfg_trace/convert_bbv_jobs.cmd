# convert --to bbv -j 3 (and -j 2) writes the bytes of -j 1, markers and exit status too: each trace of tests/data/dcfg_trace/pass over a DCFG, intervals below a block (1), below a chunk (50), about a chunk (1000), over a thread (100000); with and without --loop-boundaries
t=$(mktemp -d); trap 'rm -rf $t' EXIT
P=tests/data/dcfg_trace/pass
for f in gen11.level0 gen11.level9 gen11.intel tailjump ok_multi_row_hex; do
    d=$P/gen11.dcfg.json
    [ $f = tailjump ] && d=$P/tailjump.dcfg.json
    for i in 1 50 1000 100000; do
        for l in "" --loop-boundaries; do
            for j in 1 2 3; do
                tracekit convert --to bbv --dcfg $d --interval $i $l ${l:+--markers $t/m$j} -j $j \
                    $P/$f.trace.json -o $t/o$j 2> $t/e$j
                echo $? > $t/r$j
            done
            for j in 2 3; do
                cmp -s $t/r1 $t/r$j && cmp -s $t/e1 $t/e$j || echo "$f $i $l: -j $j differs"
                [ -e $t/o1 ] && { cmp $t/o1 $t/o$j || echo "$f $i $l: -j $j output differs"; }
                [ -n "$l" ] && { cmp $t/m1 $t/m$j || echo "$f $i $l: -j $j markers differ"; }
            done
            if [ -e $t/o1 ]; then
                echo "$f --interval $i $l: $(wc -l < $t/o1) slices${l:+, $(wc -l < $t/m1) markers}, cksum $(cksum < $t/o1)"
            else
                echo "$f --interval $i $l: exit $(cat $t/r1): $(sed "s|$P/||" $t/e1)"
            fi
            rm -f $t/o* $t/m*
        done
    done
done
