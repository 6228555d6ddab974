tracekit report --format json tests/data/wet/pass/wide_values.wet
