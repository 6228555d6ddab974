tracekit help info
