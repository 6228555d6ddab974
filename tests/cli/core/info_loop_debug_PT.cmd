tracekit info tests/data/detect/loop.debug_PT | head -3
