# the threads of several XRay traces with equal pids (the same trace twice, ranks on different
# nodes that reuse pids) are told apart in every per-thread output, as in Chrome JSON: with
# several traces each thread is named with its process, the recorded pid, or K * 10^10 + pid
# (K the trace's place among the FILEs, from 0) when an earlier trace had that pid: report's
# "process" column (text, CSV), the roots "process KEY thread TID" of folded stacks, svg and
# Callgrind (and "pid: KEY" of each --per-thread file). The keys are Chrome's pids; -j 1 and
# -j 2 write the same bytes.
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
run() { # the command with -j 1 and -j 2 in a directory each: the same files
    rm -rf $t/1 $t/2
    for j in 1 2; do
        mkdir $t/$j
        (cd $t/$j && tracekit "$@" -j $j >out 2>err; echo $? >>err)
    done
    diff -r $t/1 $t/2 >/dev/null || echo "$*: -j 2 differs from -j 1"
    echo "== ${*//$PWD\/$D\//}"
}
T="$PWD/$D/pass/mtpool.fdr $PWD/$D/pass/mtpool.basic $PWD/$D/pass/mtpool.fdr"
run report --per-thread -m $PWD/$D/bin/mtpool -s count -n 8 $T
cat $t/1/out $t/1/err
run report --per-thread --format csv -s count -n 4 $T
head -5 $t/1/out
run convert --to folded --per-thread $T
cut -d';' -f1 $t/1/out | sort | uniq -c
cut -d';' -f1 $t/1/out | sed -n 's/^process \([0-9]*\) thread .*/\1/p' | sort -u >$t/folded.keys
run convert --to folded --per-thread --weight calls $T
awk '{ w = $NF; sub(/[;  ].*/, "", $4); n[$1 " " $2 " " $3 " " $4] += w }
     END { for (k in n) print k ": " n[k] " calls" }' $t/1/out | sort
run convert --to svg --per-thread $T -o threads.svg
grep -o '<title>process [0-9]* thread [0-9]*' $t/1/threads.svg | sort -u | wc -l
run convert --to callgrind --per-thread -m $PWD/$D/bin/mtpool $T -o cg
for f in $t/1/cg-*; do
    echo "${f##*/}: $(grep -E '^(pid|thread):' $f | tr '\n' ' ')$(grep '^fn=.*thread' $f)"
done
run convert --to callgrind $T
grep -c '^fn=.*process [0-9]* thread' $t/1/out
# the processes are those of Chrome JSON
tracekit convert --to chrome $T | grep -o '"pid":[0-9]*' | sort -u | cut -d: -f2 >$t/chrome.keys
cmp $t/folded.keys $t/chrome.keys && echo "folded stacks and Chrome JSON name the same processes"
# one trace, and traces of distinct pids: each process its pid
run convert --to folded --per-thread $PWD/$D/pass/mtpool.fdr
cut -d';' -f1 $t/1/out | sort -u
run convert --to folded --per-thread $PWD/$D/pass/calltree.fdr $PWD/$D/pass/mtpool.fdr
cut -d';' -f1 $t/1/out | sort -u
# a thread of two traces (one of each byte order)
run report --per-thread --thread 6242 $PWD/$D/pass/calltree-typed.fdr $PWD/$D/pass/calltree-typed-be.fdr -n 2
cat $t/1/out
