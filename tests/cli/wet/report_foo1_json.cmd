tracekit report --format json --top 3 tests/data/wet/pass/foo1.wet
