tracekit check tests/data/wet/fail/count_ports_extra.wet
