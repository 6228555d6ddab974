# a DCFG of more blocks than Graphviz lays out (1734: dot fails on the whole, also on Intel's
# dcfg-to-dot output of it) draws its hottest routines, and says so; --all draws every block
tracekit convert --to dot tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | grep -c '\[label="BB'
tracekit convert --to dot --all tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | grep -c '\[label="BB'
