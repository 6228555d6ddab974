tracekit info tests/data/detect/empty.trace.json | head -3
