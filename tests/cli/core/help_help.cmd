tracekit help help
