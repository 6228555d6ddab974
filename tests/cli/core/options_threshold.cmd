# --threshold PCT is callgrind_annotate's in report and annotate: the rows (files, functions),
# in order, until they cover PCT % of the total; --coverage is the same option
cg=tests/data/callgrind/pass/demo-default.out
tracekit report --threshold 99 $cg | grep -c '(.*%)'
tracekit report --threshold 50 $cg
tracekit report --coverage 50 $cg | cmp - <(tracekit report --threshold 50 $cg) && echo "--coverage 50 = --threshold 50"
tracekit annotate --threshold 50 $cg | grep '^====\|^(.*shown'
tracekit annotate $cg | grep '^(.*shown'
# inclusive costs overlap: no rows cover a share of the total
tracekit report --inclusive --threshold 90 $cg
