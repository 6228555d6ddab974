# -o: the partial result is written whole (temp + rename), the warning goes to stderr, exit 0
d=$(mktemp -d)
tracekit report --format csv --top 3 -o "$d/r.csv" tests/data/xray/fail/mtpool-cut.fdr; echo "exit $?"
cat "$d/r.csv"
ls "$d"
rm -rf "$d"
