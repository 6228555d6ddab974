gzip -c ../shared/corpus/dcfg-thirdparty/trace-vectors/ok_dict.trace.json | tracekit decode -
