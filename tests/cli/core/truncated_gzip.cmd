# a truncated compressed input: clear error with the byte offset, exit 1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gzip -c examples/fib.callgrind | { head -c 3000; cat >/dev/null; } > "$t/cut.gz"
tracekit info "$t/cut.gz" 2>&1 | sed "s|$t/||"; exit ${PIPESTATUS[0]}
