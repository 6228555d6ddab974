tracekit dump tests/data/corpus/csi-thirdparty/v1.4.0/tests/pi/pi-O0.csi-static-BBC.expected && tracekit dump tests/data/corpus/csi-thirdparty/v1.4.0/tests/pi/pi-O1.csi-static-CC.expected
