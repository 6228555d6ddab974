tracekit check tests/data/callgrind/fail/too-many-costs.out tests/data/callgrind/fail/undefined-id.out
