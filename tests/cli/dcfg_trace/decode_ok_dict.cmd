tracekit decode ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json
