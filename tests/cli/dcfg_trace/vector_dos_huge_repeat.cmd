tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/dos_huge_repeat.trace.json
