tracekit report --sort lines --top 2 tests/data/corpus/csi-thirdparty/v1.4.0/tests/lotsofifs/lotsofifs-O0.csi-static-BBC.expected
