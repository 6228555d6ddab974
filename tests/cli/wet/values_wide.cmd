tracekit values tests/data/wet/pass/wide_values.wet 1
