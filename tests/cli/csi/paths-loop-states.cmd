tracekit paths tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --function main --state tests/data/corpus/csi-thirdparty/docs-examples/loop-runtime-states.txt
