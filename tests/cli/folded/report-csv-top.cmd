tracekit report --format csv --sort self --top 5 tests/data/folded/pass/mtpool-per-thread.folded
