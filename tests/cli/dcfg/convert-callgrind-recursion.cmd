# a mutual recursion (is_expr, is_term) is one component of the call graph: its cost reaches
# main and the thread's root (16 instructions; main kept its own 2 when the recursion's
# routines waited for each other)
tracekit convert --to callgrind tests/data/dcfg/pass/recursion.dcfg.json
