tracekit info no/such/file.callgrind
