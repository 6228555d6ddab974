tracekit paths tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --state tests/data/corpus/csi-thirdparty/docs-examples/loop-runtime-states.txt
