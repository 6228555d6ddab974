tracekit report --format csv --sort name tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
