# convert --to bbv -j 1, 2, 3 and 8 of a trace whose 4th chunk is damaged (a character out of the alphabet, EDGE_COUNT beyond the sequence, a FIRST_EDGE_ID without transitions) or names an edge the DCFG lacks: the same error (the first failing chunk in order), exit 1, no output file; the markers of --loop-boundaries the same
t=$(mktemp -d); trap 'rm -rf $t' EXIT
P=$PWD/tests/data/dcfg_trace
cd $t
n=0
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against what the golden has of the other builds' -j 1 (stderr, exit status)
js=(${TK_WITH_J1-1} 2 3 8) r=${js[0]}
for rep in 's/"v-f-3-v-5-2"/"v-f-3-v-5-!"/' 's/\[ 2123, 708, 74, 124,/[ 2123, 708, 90, 124,/' \
    's/\[ 2123, 708, 74, 124,/[ 2123, 708, 74, 999,/' 's/\[ 2123, 708, 74, 124,/[ 2123, 708, 74, 99999,/'; do
    n=$((n + 1))
    sed "0,/v-f-3-v-5-2/{$rep}" $P/pass/gen11.level0.trace.json > damaged$n.json
    for l in "" --loop-boundaries; do
        for j in "${js[@]}"; do
            tracekit convert --to bbv --dcfg $P/pass/gen11.dcfg.json --interval 100 $l ${l:+--markers m$j} \
                -j $j damaged$n.json -o out$j 2> e$j
            echo "exit $?" > r$j
            [ -e out$j ] && echo "-j $j wrote its output"
        done
        for j in "${js[@]:1}"; do
            cmp r$r r$j && cmp e$r e$j || echo "-j $j differs"
            [ -n "$l" ] && { cmp m$r m$j || echo "-j $j markers differ"; }
        done
        echo "damaged$n $l: $(cat r$r)${l:+, $(wc -l < m$r) markers, cksum $(cksum < m$r)}: $(cat e$r)"
        rm -f m* e* r*
    done
done
