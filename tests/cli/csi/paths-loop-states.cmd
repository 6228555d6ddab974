tracekit paths ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --function main --state ../shared/corpus/csi-thirdparty/docs-examples/loop-runtime-states.txt
