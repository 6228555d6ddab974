# the listings through the DCFG (its steps, made on the decoding threads) on one thread and on
# three: the same lines in the same order
set -e
D=tests/data/dcfg_trace/pass/gen11.dcfg.json T=tests/data/dcfg_trace/pass/gen11.level9.trace.json
for w in blocks addrs calls edges count; do
    cmp <(tracekit decode --dcfg $D --what $w -j 1 $T) <(tracekit decode --dcfg $D --what $w -j 3 $T)
    echo "$w: same, $(tracekit decode --dcfg $D --what $w -j 3 $T | wc -l) lines"
done
