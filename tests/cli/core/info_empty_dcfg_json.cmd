tracekit info tests/data/detect/empty.dcfg.json | sed -n 1,3p
