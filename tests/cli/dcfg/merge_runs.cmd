# two runs of one program (other ids, row order, load address and pid; two threads and no
# INSTR_COUNT in the second) and the first again, read on 2 threads: the first DCFG with the
# counts added thread by thread; its report
tracekit merge -j 2 tests/data/dcfg/merge/hello-run1.dcfg.json tests/data/dcfg/merge/hello-run2.dcfg.json tests/data/dcfg/merge/hello-run1.dcfg.json
tracekit merge -j 1 tests/data/dcfg/merge/hello-run1.dcfg.json tests/data/dcfg/merge/hello-run2.dcfg.json tests/data/dcfg/merge/hello-run1.dcfg.json | tracekit report --table summary -
