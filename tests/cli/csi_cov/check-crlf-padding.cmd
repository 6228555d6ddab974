tracekit check -v --from csi-cc tests/data/csi_cov/pass/cc-crlf-padding-no-final-newline.txt && tracekit dump --from csi-cc tests/data/csi_cov/pass/cc-crlf-padding-no-final-newline.txt
