tracekit check tests/data/csi_cov/fail/cc-no-instrumented-site.txt
