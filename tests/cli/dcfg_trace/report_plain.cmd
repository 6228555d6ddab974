tracekit report --top 2 ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json
