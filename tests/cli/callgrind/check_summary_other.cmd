sed 's/^summary: .*/summary: 2000000/' tests/data/corpus/callgrind-thirdparty/gprof2dot/bzr.callgrind | tracekit check --from callgrind -
