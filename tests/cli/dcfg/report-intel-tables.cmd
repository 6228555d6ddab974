# dcfg-reader's tables in CSV and JSON (as text they are the tool's bytes: dcfg_oracle.sh)
tracekit report --table statistics --format csv tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --table source-loops --format csv tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit report --table statistics --format json tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; print(json.load(sys.stdin)["processes"][0]["statistics"][7])'
tracekit report --table source-loops --format json tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; print(json.load(sys.stdin)["processes"][0]["source_loops"])'
tracekit report --table inner-source-loops --format json tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2 | python3 -c 'import json, sys; print(json.load(sys.stdin)["processes"][0]["inner_source_loops"])'
# no inner-most loop with a source line: no row, no header (the tool's file is empty)
tracekit report --table inner-source-loops tests/data/dcfg/pass/qemu-plugin-style.dcfg.json | wc -c
# a small one: its loop, and the empty line after each nest
tracekit report --table inner-source-loops tests/data/dcfg/pass/minimal.dcfg.json
