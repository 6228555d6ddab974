tracekit convert --to dot --function main --path 4 ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
