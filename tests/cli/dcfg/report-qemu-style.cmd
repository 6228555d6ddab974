tracekit report --top 3 tests/data/dcfg/pass/qemu-plugin-style.dcfg.json
