tracekit info tests/data/detect/unknown.txt
