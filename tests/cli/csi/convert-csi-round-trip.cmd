set -e; t=$(mktemp -d); trap 'rm -rf $t' EXIT
for f in tests/data/corpus/csi-thirdparty/v1.4.0/tests/*/*-PT.expected tests/data/csi/elf/multifile-pt.exe; do
  tracekit convert --to csi --force -o $t/a.txt "$f"
  tracekit dump "$f" > $t/d1; tracekit dump $t/a.txt > $t/d2
  cmp $t/d1 $t/d2
  tracekit check $t/a.txt > /dev/null 2>&1
  echo "$(basename $f): round trip ok"
done
