tracekit extract --format=json tests/data/xray/bin/mtpool | head -5
