# every input format through every compression: detection sees the content
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for f in examples/fib.callgrind examples/fib.xray tests/data/detect/empty.dcfg.json tests/data/detect/empty.trace.json tests/data/detect/loop.debug_PT tests/data/detect/foo1.wet; do
  b=$(basename "$f")
  gzip -c "$f" > "$t/$b.gz"; bzip2 -c "$f" > "$t/$b.bz2"; xz -c "$f" > "$t/$b.xz"; zstd -q -c "$f" > "$t/$b.zst"
  for c in gz bz2 xz zst; do
    tracekit info "$t/$b.$c" | sed -n '2,3p' | tr '\n' ' '; echo "<- $b.$c"
  done
done
