tracekit diff --format json --all tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
# whole against region: every difference is one item of the JSON (the text's count)
tracekit diff --format json tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; d = json.load(sys.stdin); p = d["processes"][0]; print(d["differences"], len(p["blocks"]) + len(p["edges"]))'
tracekit diff tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | tail -1
