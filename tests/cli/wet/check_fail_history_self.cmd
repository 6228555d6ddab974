tracekit check tests/data/wet/fail/history_self.history
