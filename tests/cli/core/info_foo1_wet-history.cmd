tracekit info tests/data/detect/foo1.wet-history | head -3
