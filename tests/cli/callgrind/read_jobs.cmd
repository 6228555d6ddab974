# report --part N, annotate and convert (each --to) -j N of several profiles: each read into a
# profile of its own on one of N threads, appended in the order of the FILEs
# (tk_profile_append); the same bytes on each stream and the same exit status with -j 1 (read
# one after the other into one profile), -j 2, -j 4 and without -j, over profiles of other
# events (a superset first), several parts, fi/fe, jumps, instr positions, with and without
# name compression; what fails (an event type after costs without it, a damaged profile in
# the middle, a missing file) says so as -j 1 says it
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/callgrind
A="$D/pass/demo-cache.out $D/pass/spec-features.out $D/pass/demo-jumps.out
   $D/pass/threads-combined.out $D/pass/demo-nocompress.out $D/pass/demo-instr-only.out
   $D/pass/cxx-callers.out $D/pass/gzip.out $D/pass/demo-every.out.1"
n=0
# -j 1 is the reference; under ThreadSanitizer, which leaves it out (tests/run.sh), -j 2 is,
# checked against the bytes the golden has of the other builds' -j 1
js=(${TK_WITH_J1-1} 2 4 ${TK_WITHOUT_J-0}) r=${js[0]}
run() { # the command with -j 1, 2, 4 and without -j: the same bytes and status
    n=$((n + 1))
    for j in "${js[@]}"; do
        if [ $j = 0 ]; then tracekit "$@" >$t/$n.$j.out 2>$t/$n.$j.err; else
            tracekit "$@" -j $j >$t/$n.$j.out 2>$t/$n.$j.err; fi
        echo $? >>$t/$n.$j.err
    done
    for j in "${js[@]:1}"; do
        cmp -s $t/$n.$r.out $t/$n.$j.out && cmp -s $t/$n.$r.err $t/$n.$j.err ||
            echo "$*: -j $j differs from -j $r"
    done
    echo "== ${*//$D\//}: $(wc -c <$t/$n.$r.out) bytes, $(md5sum <$t/$n.$r.out | cut -c1-12)"
    sed "s|$D/||g" $t/$n.$r.err
}
run report --part 1 --top 5 $A
run report --part 4 --by line --top 5 $A
run report --part 3 --inclusive --tree both --top 4 $A
run annotate $A
run annotate --all --show Dr,Ir $A
for to in callgrind json folded dot svg; do run convert --to $to $A; done
run convert --to callgrind --no-compress --positions line $A
# an event type after costs without it: Dr after demo-default's Ir
run annotate $D/pass/demo-default.out $A
# a damaged profile in the middle; a missing file
run report --part 2 --top 3 $D/pass/threads-sep.out-01 $D/fail/truncated-line.out $D/pass/threads-sep.out-02
run annotate $D/pass/mutual.out $D/fail/cut-summary.out $D/pass/mutual-recs.out
run convert --to callgrind $D/pass/mutual.out $D/missing.out $D/pass/mutual-recs.out
# standard input among the FILEs (it cannot be read again): read in order, with -j as without
for j in 1 2; do
    tracekit annotate -j $j - $D/pass/spec-features.out <$D/pass/demo-default.out >$t/in.$j 2>&1
    echo "stdin -j $j: exit $?, $(sed "s|$D/||g" $t/in.$j | md5sum | cut -c1-12)"
done
