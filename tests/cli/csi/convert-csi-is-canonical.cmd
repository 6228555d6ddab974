tracekit convert --to csi tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt | cmp - tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt && echo identical
