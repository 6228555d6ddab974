tracekit annotate --function main tests/data/corpus/csi-thirdparty/v1.4.0/tests/loop/loop-O0.csi-static-BBC.expected
