tracekit instr-map --format=json tests/data/xray/bin/mtpool | sed -n 1,5p
