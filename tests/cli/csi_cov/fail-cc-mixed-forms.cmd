tracekit check tests/data/csi_cov/fail/cc-mixed-forms.txt
