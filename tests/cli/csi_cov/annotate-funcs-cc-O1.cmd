tracekit annotate tests/data/corpus/csi-thirdparty/v1.4.0/tests/funcs/funcs-O1.csi-static-CC.expected
