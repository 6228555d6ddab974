tracekit paths tests/data/csi/states/variants.PT --state tests/data/csi/states/variants.state
