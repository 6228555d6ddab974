tracekit report --format json tests/data/folded/pass/small.diff.folded
