tracekit convert --to csi ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt | cmp - ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt && echo identical
