tracekit paths tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt --function main --list
