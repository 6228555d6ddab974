tracekit report --format json ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
