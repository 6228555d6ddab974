tracekit convert --to csi tests/data/dcfg/pass/minimal.dcfg.json
