tracekit annotate --function main ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
