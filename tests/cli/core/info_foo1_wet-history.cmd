tracekit info tests/data/detect/foo1.wet-history | sed -n 1,3p
