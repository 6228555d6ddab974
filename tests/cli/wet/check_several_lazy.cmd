tracekit check tests/data/wet/pass/tiny.wet tests/data/wet/fail/dangling_id.wet tests/data/wet/pass/foo1.wet.gz tests/data/wet/pass/wide_values.wet
