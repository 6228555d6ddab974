# one self-contained page: the report's JSON as data, the flame graph as a data: URL, the
# timeline's trace events; nothing fetched (no URL but the SVG namespace inside the data: URL)
t=$(mktemp)
tracekit report --format html --title "fib" -m examples/fib-xray.bin examples/fib.xray > "$t"
grep -o '<title>[^<]*</title>\|id="[a-z-]*"' "$t" | sort -u
grep -c "https\?://" "$t"
rm -f "$t"
