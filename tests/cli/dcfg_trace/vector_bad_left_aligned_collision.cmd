tracekit check tests/data/corpus/dcfg-thirdparty/trace-vectors/bad_left_aligned_collision.trace.json
