tracekit info tests/data/detect/empty.dcfg.json | head -3
