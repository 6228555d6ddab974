# convert --to chrome of several XRay traces with equal pids (ranks of one job on different
# nodes, the same trace twice): each trace is a process of its own. A trace whose pid an earlier
# trace had is written with the process key K * 10^10 + pid (K its place among the FILEs, from
# 0), so its threads get tracks and metadata of their own, once per (pid, tid); the other traces
# keep their pids. -j 1 and -j 3 write the same bytes (the parts made on threads get their keys
# when joined), on standard output and in -o, the calls left open at a cut too.
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray
run() { # the command with -j 1 and -j 3: the same bytes; its metadata and the events per pid
    rm -f $t/*
    for j in 1 3; do
        tracekit "$@" -j $j -o $t/out.$j 2>$t/err.$j
        echo $? >>$t/err.$j
        tracekit "$@" -j $j 2>/dev/null >$t/pipe.$j
    done
    cmp $t/out.1 $t/out.3 && cmp $t/err.1 $t/err.3 && cmp $t/out.1 $t/pipe.1 &&
        cmp $t/out.1 $t/pipe.3 || echo "$*: -j 3 differs from -j 1"
    echo "== ${*//$D\//}"
    cat $t/err.1
    grep '"ph":"M"' $t/out.1
    grep -o '"pid":[0-9]*' $t/out.1 | sort | uniq -c
    grep '"open":true' $t/out.1 | grep -o '"pid":[0-9]*' | sort | uniq -c
}
run convert --to chrome -m $D/bin/mtpool $D/pass/mtpool.fdr $D/pass/mtpool.basic $D/pass/mtpool.fdr
run convert --to chrome -m $D/bin/mtpool $D/fail/mtpool-cut.fdr $D/pass/mtpool.fdr \
    $D/pass/header-only.basic $D/fail/mtpool-cut.fdr
run convert --to chrome --thread 6242 -m $D/bin/calltree-typed $D/pass/calltree-typed.fdr \
    $D/pass/calltree-typed-be.fdr
