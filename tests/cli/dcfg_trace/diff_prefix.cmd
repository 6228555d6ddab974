tracekit diff ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_count1.trace.json ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json
