# --top 0: every row; --all: the equal ones too (minimal against itself: "none differ" without)
tracekit diff --top 0 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | wc -l
tracekit diff tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
tracekit diff --top 1 --all tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
