# every corpus file rewritten in its own form is the file (a final newline added), twice
set -e; t=$(mktemp -d); trap 'rm -rf $t' EXIT
for f in tests/data/corpus/csi-thirdparty/v1.4.0/tests/*/*-CC.expected tests/data/corpus/csi-thirdparty/v1.4.0/tests/*/*-FC.expected tests/data/corpus/csi-thirdparty/v1.4.0/tests/*/*-BBC.expected tests/data/corpus/csi-thirdparty/v1.0.0/tests/*/*.rt.expected tests/data/corpus/csi-thirdparty/docs-examples/funcs.*; do
    fmt=$(tracekit info "$f" | sed -n 's/^format: \([a-z-]*\) .*/\1/p')
    { cat "$f"; [ -z "$(tail -c1 "$f")" ] || echo; } > $t/want
    tracekit convert --to "$fmt" "$f" > $t/one
    tracekit convert --to "$fmt" --from "$fmt" - < $t/one > $t/two
    cmp $t/one $t/want && cmp $t/two $t/want
done
echo all identical
