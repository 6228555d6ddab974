tracekit check tests/data/wet/fail/bad_line_number.wet
