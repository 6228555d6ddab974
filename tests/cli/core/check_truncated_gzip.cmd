# check of a compressed input cut short (its last bytes missing, so that the reader gets far
# and the format is detected): the gzip error is one of the check's errors, one verdict
# ("1 error"), exit 1; for every format
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for f in examples/fib.callgrind tests/data/xray/pass/calltree.fdr examples/hello.dcfg.json \
    examples/hello.trace.json examples/loop.debug_PT examples/foo1.wet; do
    gzip -nc <"$f" >"$t/full.gz"
    head -c $(($(stat -c %s "$t/full.gz") - 4)) "$t/full.gz" >"$t/cut.gz"
    echo "== $f"
    tracekit check "$t/cut.gz" 2>&1 | sed "s|$t/||; s/byte [0-9]*/byte N/"
    echo "exit ${PIPESTATUS[0]}"
done
