tracekit dump tests/data/corpus/csi-thirdparty/v1.4.0/tests/funcs/funcs-O0.csi-static-FC.expected
