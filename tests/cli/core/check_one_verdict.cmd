# check gives one verdict per file, "PATH: N errors, M warnings" (on standard error); what the
# file holds (records, functions) only with -v, on standard output (docs/conventions.md, "The
# command line")
tracekit check tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic
tracekit check tests/data/csi/pass/valid-other-order.PT
tracekit check tests/data/corpus/csi-thirdparty/docs-examples/funcs.debug_CC.doc-format.txt
tracekit check -v tests/data/xray/pass/calltree.fdr
tracekit check -v tests/data/csi/pass/valid-other-order.PT
# files of two formats: each checked in its own, a verdict each (core/check_each_format)
tracekit check tests/data/csi/pass/valid-other-order.PT tests/data/xray/pass/calltree.fdr
