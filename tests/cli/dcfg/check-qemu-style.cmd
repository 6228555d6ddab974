tracekit check tests/data/dcfg/pass/qemu-plugin-style.dcfg.json
