tracekit paths tests/data/corpus/csi-thirdparty/v1.4.0/tests/fnptr/fnptr-O0.csi-static-PT.expected --function main --decode 1
