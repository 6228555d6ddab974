# a file per thread, as valgrind --separate-threads=yes writes (OUT-01, OUT-02, ...): one part
# and one "events:" line each, the thread's root "thread TID" calling its outermost calls
d=$(mktemp -d)
tracekit convert --to callgrind --per-thread tests/data/xray/pass/mtpool.fdr -m tests/data/xray/bin/mtpool -o "$d/callgrind.out.6259"
for f in "$d"/*; do echo "== ${f##*/}"; grep -E '^(thread|pid|part|totals|events)|^fn=.*thread ' "$f"; done
rm -rf "$d"
