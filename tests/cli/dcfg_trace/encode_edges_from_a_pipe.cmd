# EDGES is read twice: a pipe is refused (it wrote an empty trace, exit 0)
tracekit encode <(tracekit decode tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_basic.trace.json)
