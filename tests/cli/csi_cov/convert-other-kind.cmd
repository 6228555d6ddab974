tracekit convert --to csi-bbc tests/data/corpus/csi-thirdparty/v1.4.0/tests/pi/pi-O0.csi-static-CC.expected
