tracekit convert --to csi-cc --form xml tests/data/corpus/csi-thirdparty/v1.4.0/tests/pi/pi-O0.csi-static-CC.expected
