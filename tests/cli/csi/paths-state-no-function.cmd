tracekit paths ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --state ../shared/corpus/csi-thirdparty/docs-examples/loop-runtime-states.txt
