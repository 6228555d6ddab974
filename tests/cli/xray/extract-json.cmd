tracekit instr-map --format=json tests/data/xray/bin/mtpool | head -5
