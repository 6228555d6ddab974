# a basic-mode log cut inside a record
tracekit report --top 3 --unit ns tests/data/xray/fail/calltree-cut.basic
