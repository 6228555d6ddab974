tracekit check ../shared/corpus/dcfg-thirdparty/trace-vectors/dos_huge_repeat.trace.json
