tracekit diff ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json
