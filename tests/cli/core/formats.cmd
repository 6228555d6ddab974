tracekit formats
