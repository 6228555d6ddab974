tracekit help
