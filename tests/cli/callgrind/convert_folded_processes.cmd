# Callgrind -> folded --per-thread of parts of several processes: tracekit's --per-thread files
# of an XRay trace given twice say "pid: 6259" and "pid: 10000006259" (the second trace's process
# key), each "thread: TID" of the same tids; each part's stacks start at "process PID thread
# TID", the roots of XRay's own folded stacks of those traces, so that the two traces' threads
# are not added up again. The files of one process keep "thread TID".
t=$(mktemp -d); trap 'rm -rf $t' EXIT
X=tests/data/xray/pass/mtpool.fdr
tracekit convert --to callgrind --per-thread -m tests/data/xray/bin/mtpool $X $X -o $t/two
tracekit convert --to folded --per-thread $t/two-* | cut -d';' -f1 | sort | uniq -c
tracekit convert --to folded --per-thread $t/two-* | cut -d';' -f1 | sort -u >$t/cg.roots
tracekit convert --to folded --per-thread $X $X | cut -d';' -f1 | sort -u >$t/xray.roots
cmp $t/cg.roots $t/xray.roots && echo "the roots are those of XRay's folded stacks"
tracekit convert --to svg --per-thread $t/two-* -o $t/two.svg
grep -o '<title>process [0-9]* thread [0-9]*' $t/two.svg | sort -u | wc -l
echo "== one trace"
tracekit convert --to callgrind --per-thread $X -o $t/one
tracekit convert --to folded --per-thread $t/one-* | cut -d';' -f1 | sort | uniq -c
