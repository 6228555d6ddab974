tracekit paths tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --state fuzz/corpus/csi/grissom-local.data
