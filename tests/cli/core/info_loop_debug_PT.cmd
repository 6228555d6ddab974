tracekit info tests/data/detect/loop.debug_PT | sed -n 1,3p
