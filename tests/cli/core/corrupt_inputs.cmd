# corrupted data inside each compression format: located error (byte offset
# in the compressed file), exit 1
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
for c in gzip bzip2 xz zstd; do
  $c -c examples/fib.callgrind > "$t/f.$c"
  # overwrite bytes early in the compressed stream
  printf '\xff\x00\xff\x00\xff\x00\xff\x00\xff\x00\xff\x00' | dd of="$t/f.$c" bs=1 seek=100 conv=notrunc status=none
  tracekit info "$t/f.$c" 2>&1 >/dev/null | sed "s|$t/||"
  echo "$c: exit ${PIPESTATUS[0]}"
done
