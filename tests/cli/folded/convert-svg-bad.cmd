tracekit convert --to svg tests/data/folded/fail/negative.folded -o /dev/null
