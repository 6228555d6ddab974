# 12 chunks decoded on one thread and on three: the same edges in the same order
cmp <(tracekit decode --jobs 1 tests/data/dcfg_trace/pass/gen11.level9.trace.json) <(tracekit decode -j 3 tests/data/dcfg_trace/pass/gen11.level9.trace.json) && echo same
