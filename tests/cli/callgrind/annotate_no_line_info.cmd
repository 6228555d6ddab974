# a stripped program (gzip): its code without line information is one row of the table of
# sources not found, not a section of per-line costs
tracekit annotate tests/data/callgrind/pass/gzip.out | tail -n +7
