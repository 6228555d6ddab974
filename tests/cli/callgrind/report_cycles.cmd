# call cycles as units: mutual recursion (is_even'2 <-> is_odd'2) and direct recursion (depth'2)
tracekit report --cycles tests/data/callgrind/pass/mutual.out
tracekit report --cycles --format json tests/data/callgrind/pass/mutual.out
tracekit report --cycles --format csv tests/data/callgrind/pass/mutual.out
