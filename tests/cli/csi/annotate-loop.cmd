tracekit annotate --function main tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
