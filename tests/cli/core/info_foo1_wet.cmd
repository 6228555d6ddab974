tracekit info tests/data/detect/foo1.wet | sed -n 1,3p
