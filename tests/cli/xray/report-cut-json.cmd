# JSON says where the trace was cut ("truncated"); the totals are those of the records before it
tracekit report --format json --top 2 tests/data/xray/fail/mtpool-cut.fdr
# the same numbers as the file cut at the damage (byte 40040: whole records only)
d=$(mktemp -d)
head -c 40040 tests/data/xray/fail/mtpool-cut.fdr >"$d/cut.fdr"
cd "$d" && tracekit report --format json --top 2 cut.fdr
cd - >/dev/null && rm -rf "$d"
