tracekit info tests/data/detect/empty.trace.json | sed -n 1,3p
