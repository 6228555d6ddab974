tracekit report --format json tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
