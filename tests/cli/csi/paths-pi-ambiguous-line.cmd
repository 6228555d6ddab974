tracekit paths tests/data/corpus/csi-thirdparty/v1.4.0/tests/pi/pi-O0.csi-static-PT.expected --state tests/data/csi/states/pi-line21.state
