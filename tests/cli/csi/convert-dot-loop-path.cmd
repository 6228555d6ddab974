tracekit convert --to dot --function main --path 4 tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
