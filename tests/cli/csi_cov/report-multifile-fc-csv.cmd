tracekit report --format csv tests/data/corpus/csi-thirdparty/v1.4.0/tests/multifile/multifile-O0.csi-static-FC.expected
