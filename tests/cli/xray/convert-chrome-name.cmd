# speedscope reads *.chrome.json as a Chrome performance recording and refuses the trace:
# the name gets a warning (docs/viewers.md); the file is written all the same
d=$(mktemp -d)
tracekit convert --to chrome -m examples/fib-xray.bin examples/fib.xray -o "$d/fib.chrome.json" 2>&1 | sed "s#$d/##"
head -c 16 "$d/fib.chrome.json"; echo
tracekit convert --to chrome examples/fib.xray -o "$d/fib.json"
rm -rf "$d"
