# the report of a profile of events "ns calls" (XRay's convert --to callgrind): the calls into
# each function are headed "called" beside the event column "calls" (was "calls calls"),
# "calls" again once --show leaves that event out; self, --inclusive, --tree, csv
t=$(mktemp -d); trap 'rm -rf $t' EXIT
tracekit convert --to callgrind -o $t/x.cg tests/data/xray/pass/calltree.fdr
tracekit report -n 3 $t/x.cg
tracekit report -n 2 --inclusive $t/x.cg | sed -n 5,7p
tracekit report -n 2 --show ns $t/x.cg | sed -n 5,6p
tracekit report -n 1 --tree both $t/x.cg | sed -n 5,9p
tracekit report -n 1 --by file-function $t/x.cg | sed -n 5,6p
tracekit report -n 1 --format csv $t/x.cg
