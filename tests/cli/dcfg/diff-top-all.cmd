# --top 0 and --all: every row; --equal: the equal ones too (minimal against itself: "none
# differ" without); JSON has every row without -n
tracekit diff --top 0 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | wc -l
tracekit diff tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
tracekit diff --top 1 --equal tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
tracekit diff --all tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | wc -l
tracekit diff --format json tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; p = json.load(sys.stdin)["processes"][0]; print([len(p[t]) for t in ("images", "routines", "blocks", "edges")])'
# --all with -n: refused
tracekit diff --all -n 3 tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
