tracekit diff --format json --equal tests/data/dcfg/pass/minimal.dcfg.json tests/data/dcfg/pass/minimal.dcfg.json
# whole against region: every difference is one block or edge of the JSON (the text's count),
# and "rows" counts those the cut leaves out
tracekit diff --format json --top 0 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; d = json.load(sys.stdin); p = d["processes"][0]; print(d["differences"], len(p["blocks"]) + len(p["edges"]), p["rows"])'
tracekit diff --format json -n 2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; p = json.load(sys.stdin)["processes"][0]; print([len(p[t]) for t in ("images", "routines", "blocks", "edges")], p["rows"])'
tracekit diff tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 tests/data/corpus/dcfg-thirdparty/passlab-DCFG/region.log_0.dcfg.json.bz2 | tail -1
