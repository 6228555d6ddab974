tracekit check tests/data/wet/fail/history_bad_instance.history
