tracekit coverage --help
