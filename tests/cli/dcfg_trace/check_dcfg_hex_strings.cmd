# the same against the real SDE DCFG: PID, ids and counts read from strings match it
tracekit check --dcfg tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/dcfg_trace/pass/ok_multi_row_hex.trace.json
