# --min-share: only the rows of at least 5 % of the total (tracekit report --threshold meant this before 2026-12: it is callgrind_annotate's coverage now)
tracekit report --min-share 5 tests/data/callgrind/pass/demo-combined.out
