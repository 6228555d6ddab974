# ok_multi_row with every integer field as a C-style string (hex, upper-case, decimal): same edges
tracekit decode tests/data/dcfg_trace/pass/ok_multi_row_hex.trace.json
