# a trace whose one thread has only a custom and a typed event (no call: calltree-events-only.fdr,
# made by tests/data/xray/make-events-only.py) before a trace of the same pid: Chrome JSON writes
# the first thread's events, so the pid is an earlier trace's and the second trace's thread is
# of process 10000006242; every per-thread output names it so (report's process column and JSON
# "process", the roots of folded stacks, Callgrind and dot, each --per-thread file's "pid:"),
# with -j 1 (the traces chained) and -j 2 (their partials merged) alike.
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
T="$D/calltree-events-only.fdr $D/calltree-typed.fdr"
tracekit convert --to chrome $T | grep -o '"pid":[0-9]*' | sort -u | cut -d: -f2 >$t/chrome.keys
echo "Chrome JSON's processes: $(tr '\n' ' ' <$t/chrome.keys)"
for j in 1 2; do
    echo "== -j $j"
    tracekit report --per-thread -j $j -n 2 $T 2>/dev/null
    tracekit report --per-thread -j $j --format csv -n 1 $T | cut -d, -f1-3
    tracekit report --per-thread -j $j --format json -n 1 $T | grep -o '"pid".*"process":[0-9]*'
    tracekit convert --to folded --per-thread -j $j $T | cut -d';' -f1 | sort | uniq -c
    tracekit convert --to callgrind -j $j $T | grep '^fn=.*thread'
    tracekit convert --to dot -j $j $T 2>/dev/null | grep -o 'label="process [0-9]* thread [0-9]*'
    tracekit convert --to callgrind --per-thread -j $j $T -o $t/cg 2>/dev/null
    for f in $t/cg-*; do echo "${f##*/}: $(grep -E '^(pid|thread):' $f | tr '\n' ' ')"; done
    rm -f $t/cg-*
    tracekit convert --to folded --per-thread -j $j $T |
        sed -n 's/^process \([0-9]*\) thread .*/\1/p' | sort -u >$t/folded.keys
    grep -qxFf $t/folded.keys $t/chrome.keys && echo "the folded stacks' process is one of Chrome's"
done
