tracekit info tests/data/dcfg/pass/minimal.dcfg.json
# counts with their plurals; the rows of the symbol and source tables only with -v
tracekit info -v tests/data/dcfg/pass/minimal.dcfg.json | tail -1
