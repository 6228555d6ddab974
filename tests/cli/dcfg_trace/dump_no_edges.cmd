tracekit dump --no-edges ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json
