tracekit report --format csv --sort name ../shared/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt
