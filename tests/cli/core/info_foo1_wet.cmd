tracekit info tests/data/detect/foo1.wet | head -3
