tracekit convert --to folded --per-thread tests/data/callgrind/pass/threads-combined.out --min-share 1
