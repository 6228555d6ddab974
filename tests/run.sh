#!/usr/bin/env bash
# Runs the whole test suite against one or more build directories and ends
# with one line "N passed, N failed" (skipped cases are counted on the line before).
#   tests/run.sh build [build-asan ...]
# Parts, for each build directory:
#   conventions  scripts/lint-conventions.py and scripts/format-check.sh (first build only)
#   unit         build/tests/test_*            (each case counts)
#   cli golden   tests/cli/**/NAME.cmd         (+ NAME.out, NAME.err, NAME.exit)
#   integration  tests/integration/*.sh        (exit 0 pass, 77 skip)
#   fuzz replay  build/fuzz/replay_fuzz_X over fuzz/corpus/X and tests/data/X/{pass,fail}
#                (a musl build beside an ASan one: only the harnesses without compare_paths)
#                (with an ASan build given, there and not in the plain builds)
# TK_REGEN=1 rewrites the golden files of the CLI cases from the first build.
# TK_ONLY=PATTERN runs only the cases whose name contains PATTERN.
# TK_BUILDS_MADE=FILE: the builds are still being made (make check): a build's jobs start once
# it is made (BUILD/.check-built), and a build not made when FILE appears has failed.
# Every part of every build is cut into jobs (a unit-test binary, a batch of
# CLI cases, an integration script, a fuzz replay) that run side by side, up
# to TK_JOBS at once (default: the number of CPUs + 2, which fills the viewer scripts'
# waits on Chromium and Xvfb), the longest first; the
# log of each build (with the time of each part, summed over its jobs, and
# of each integration script, and the CPU time of their processes) is printed
# when all have ended, in order.
# The integration scripts (oracles against the real tools, generated traces)
# run once, with the first build directory; TK_INTEGRATION=0 skips them. So a
# later build directory runs the unit, CLI and fuzz-replay tests (those whose
# binaries it has: `make check`'s ThreadSanitizer build has no replays). Those of
# them that run `make` run one at a time.
# A skipped case is counted and named on the line "N skipped: ..."; with
# CI=true a skip fails the run (a CI machine has every tool the suite needs).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# -ge 1 ] || set -- build
builds=("$@")
jobs=${TK_JOBS:-$(($(nproc 2>/dev/null || echo 1) + 2))}
only=${TK_ONLY:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/res" "$work/tmp"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# the viewer tests' traces of real programs, made once (job_viewers_real)
export TK_VIEWERS_REAL="$work/viewers-real"
# python3 found once: where it is a version manager's shim (pyenv's is a bash script that
# picks the version at each start: ~60 ms of CPU per start, some 300 starts in the suite),
# the scripts run the interpreter it picks, from this directory
py=$(command -v python3 2>/dev/null) && py_exe=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ -n "$py_exe" ] && [ "$(readlink -f "$py")" != "$(readlink -f "$py_exe")" ] &&
    mkdir -p "$work/bin" && ln -s "$py_exe" "$work/bin/python3" && export PATH="$work/bin:$PATH"
t_start=$(date +%s%N)

wanted() { [ -z "$only" ] || [[ "$1" == *"$only"* ]]; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

# The integration scripts known to take longest go first (CPU seconds of
# each on a 2-core VM, in that order; the viewer scripts among them start once
# the first two have ended, after job_viewers_real); the others keep their order.
slow_first=(record_wet callgrind_inclusive viewers_kcachegrind viewers_html viewers_annotate
    callgrind_truncation viewers_speedscope mpi_xray mpi_dcfg_trace record_oracle
    record_processes viewers_svg record_system mpi_dcfg_union mpi_alone record_wet_bad
    dot_render dcfg_generated callgrind_oracle csi_cov_core dcfg_trace_roundtrip mpi_callgrind
    mpi_each callgrind_tree_oracle callgrind_roundtrip callgrind_annotate_bound viewers_dot)

# ---- the jobs -------------------------------------------------------------
# A job writes $work/res/ID: "P N" (N passed), "F LABEL" (a failure, its
# details on the lines after it, indented), "S LABEL (WHY)" (a skip), and
# "T PART NAME MS" (its time).

build_env() {
    export TRACEKIT="$root/$1/tracekit" BUILD="$root/$1"
    case "$1" in *asan* | *tsan*) export TK_SANITIZED=1 ;; *) unset TK_SANITIZED ;; esac
    case "$1" in *tsan*) export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} ;; esac
    # the *jobs* cases run each command with -j 1, 2, 4 ... and without -j (their loops' 0:
    # as many threads as CPUs, the -j 2 of the list on a 2-core machine); under
    # ThreadSanitizer the -j N runs are the threads' check, and the run without -j (the
    # default's parse, which the other builds run) is left out, and so is the -j 1 run (one
    # thread: nothing for TSan to see), the cases' reference: there the next -j is, its
    # bytes checked against the golden's of -j 1 (the other builds' -j 1 = -j N)
    case "$1" in *tsan*) export TK_WITHOUT_J= TK_WITH_J1= ;; *) unset TK_WITHOUT_J TK_WITH_J1 ;; esac
}

job_unit() { # build name
    local b=$1 name=$2 t="$1/tests/$2" tmp=$3
    [ -x "$t" ] || { echo "F $b unit $name (not built)"; return; }
    local out rc res
    out=$("$t" 2>"$tmp/err")
    rc=$?
    res=$(printf '%s\n' "$out" | sed -n 's/^RESULT pass=\([0-9]*\) fail=\([0-9]*\)$/\1 \2/p' | tail -1)
    if [ -z "$res" ]; then
        echo "F $b unit $name (crashed, exit $rc)"; head -40 "$tmp/err" | sed 's/^/    /'; return
    fi
    set -- $res
    echo "P $1"
    if [ "$2" -gt 0 ] || [ $rc -ne 0 ]; then
        echo "F $b unit $name ($2 failed)"; head -40 "$tmp/err" | sed 's/^/    /'
        local k
        for ((k = 1; k < $2; k++)); do echo "X"; done # each failed case counts
    fi
}

job_cli() { # build listfile first
    local b=$1 list=$2 first=$3 tmp=$4 cmdfile case_ name rc want_rc ok why
    while IFS= read -r cmdfile; do
        case_=${cmdfile%.cmd}
        name=${case_#tests/cli/}
        # pipefail: tracekit's status counts in a pipe, so a case reads all of its output
        # (sed -n 1,Np, not head -N, which would kill a writer still writing: status 141)
        (PATH="$root/$b:$PATH" bash -o pipefail "$cmdfile" >"$tmp/out" 2>"$tmp/err" </dev/null)
        rc=$?
        if [ -n "${TK_REGEN:-}" ] && [ "$first" = 1 ]; then
            cp "$tmp/out" "$case_.out"; cp "$tmp/err" "$case_.err"; echo "$rc" >"$case_.exit"
            echo "P 1"; continue
        fi
        want_rc=0; [ -f "$case_.exit" ] && want_rc=$(cat "$case_.exit")
        ok=1 why=""
        [ "$rc" = "$want_rc" ] || { ok=0; why="exit $rc, expected $want_rc"; }
        if [ -f "$case_.out" ] && ! cmp -s "$tmp/out" "$case_.out"; then ok=0; why="$why stdout differs"; fi
        if [ -f "$case_.err" ] && ! cmp -s "$tmp/err" "$case_.err"; then ok=0; why="$why stderr differs"; fi
        if [ $ok = 1 ]; then echo "P 1"; else
            echo "F $b cli $name ($why)"
            [ -f "$case_.out" ] && diff "$case_.out" "$tmp/out" | head -20 | sed 's/^/    /'
            [ -f "$case_.err" ] && diff "$case_.err" "$tmp/err" | head -20 | sed 's/^/    /'
        fi
    done <"$list"
}

job_integration() { # build name
    local b=$1 name=$2 tmp=$3 s="tests/integration/$2.sh" rc why
    if grep -q '^[^#]*\bmake -s \(un\)\?install\b' "$s"; then
        flock "$work/make.lock" bash "$s" >"$tmp/out" 2>&1
    elif [[ $name == viewers_* ]]; then # once the traces they share are made
        flock -s "$work/viewers.lock" bash "$s" >"$tmp/out" 2>&1
    else
        bash "$s" >"$tmp/out" 2>&1
    fi
    rc=$?
    if [ $rc = 0 ]; then echo "P 1"
    elif [ $rc = 77 ]; then
        why=$(tail -1 "$tmp/out")
        if [ "${CI:-}" = true ]; then echo "F $b integration $name (skipped on CI: $why)"
        else echo "S $b integration $name ($why)"; fi
    else echo "F $b integration $name (exit $rc)"; tail -30 "$tmp/out" | sed 's/^/    /'; fi
}

job_fuzz() { # build name
    local b=$1 x=$2 tmp=$3 r="$1/fuzz/replay_fuzz_$2" d dirs=()
    [ -x "$r" ] || { echo "F $b fuzz $x (replay driver not built)"; return; }
    # the format's seeds, its test files, and the third-party corpus of its family
    for d in "fuzz/corpus/$x" "tests/data/$x/pass" "tests/data/$x/fail" \
        "tests/data/corpus/${x%%_*}-thirdparty" "tests/data/corpus/${x%%_*}-thirdparty"/*/; do
        [ -d "$d" ] && dirs+=("$d")
    done
    [ ${#dirs[@]} -gt 0 ] || { echo "F $b fuzz $x (no corpus)"; return; }
    if "$r" "${dirs[@]}" >"$tmp/out" 2>&1; then echo "P 1"
    else echo "F $b fuzz replay $x"; tail -30 "$tmp/out" | sed 's/^/    /'; fi
}

# The viewer tests' traces of real programs, made once for all of them
# (tests/integration/lib/viewers_real.sh) while run.sh holds viewers.lock, which
# the viewer scripts wait for.
job_viewers_real() {
    (tmp=$1; . tests/integration/lib/viewers_real.sh && viewers_real) >/dev/null 2>&1
    flock -u 9
}

job_conventions() { # build
    local b=$1 tmp=$2
    if python3 scripts/lint-conventions.py "$b" >"$tmp/out" 2>&1; then echo "P 1"
    else echo "F $b conventions (scripts/lint-conventions.py)"; grep -v ': ok (' "$tmp/out" |
        head -40 | sed 's/^/    /'; fi
    if scripts/format-check.sh >"$tmp/out" 2>&1; then echo "P 1"
    else echo "F $b style (scripts/format-check.sh)"; head -40 "$tmp/out" | sed 's/^/    /'; fi
}

# The CPU time (user + system, ms) of the children in the output of `times`.
cpu_ms() {
    local line total=0 f m sec
    line=$(printf '%s\n' "$1" | sed -n 2p)
    for f in $line; do # "1m2.345s"
        m=${f%%m*}; sec=${f#*m}; sec=${sec%s}
        total=$((total + m * 60000 + 10#${sec%.*} * 1000 + 10#${sec#*.}))
    done
    echo $total
}

# run_job ID PART BUILD ARG: one job, its results into $work/res/ID
run_job() {
    local id=$1 part=$2 b=$3 arg=$4 tmp="$work/tmp/$1" t0
    mkdir -p "$tmp"
    t0=$(now_ms)
    (
        build_env "$b"
        case $part in
        unit) job_unit "$b" "$arg" "$tmp" ;;
        cli) job_cli "$b" "$arg" "$5" "$tmp" ;;
        integration) job_integration "$b" "$arg" "$tmp" ;;
        fuzz) job_fuzz "$b" "$arg" "$tmp" ;;
        viewers_real) job_viewers_real "$tmp" ;;
        conventions) job_conventions "$b" "$tmp" ;;
        esac
        times >"$tmp/times"
        cpu_ms "$(cat "$tmp/times")" >"$tmp/cpu"
    ) >"$work/res/$id.part" 2>&1
    echo "T $part $arg $(($(now_ms) - t0)) $(cat "$tmp/cpu" 2>/dev/null || echo 0)" \
        >>"$work/res/$id.part"
    mv "$work/res/$id.part" "$work/res/$id"
    rm -rf "$tmp"
}

# ---- the queue ------------------------------------------------------------
# One line per job: "BUILD_INDEX PART BUILD ARG FIRST", the longest first, in four
# classes, each started before the next: integration scripts (q_integ), a ThreadSanitizer
# build's CLI batches (q_tsan), unit tests and fuzz replays (q_unit), the CLI batches
# (q_cli). With TK_BUILDS_MADE=FILE the builds are still being made (make check): a build's
# jobs are queued once BUILD/.check-built is there (the Makefile's mark of a build made), and
# a build without it once FILE is (the make has ended) has failed; meanwhile the jobs of the
# builds made run (the plain build's integration scripts beside the sanitizer builds' compiles).
q_integ=() q_tsan=() q_unit=() q_cli=()
made=${TK_BUILDS_MADE:-}
declare -A build_ok
for i in "${!builds[@]}"; do
    b=${builds[$i]}
    if [ -n "$made" ]; then build_ok[$b]=pending
    elif [ -x "$b/tracekit" ]; then build_ok[$b]=1; else build_ok[$b]=0; fi
done
first_build=${builds[0]}
asan_build=""
for b in "${builds[@]}"; do
    # while the builds are made, an ASan build among them is taken to have its replays (make
    # check's does; if it fails, the run fails)
    case "$b" in *asan*) [ "${build_ok[$b]}" != 0 ] && { [ -n "$made" ] || [ -d "$b/fuzz" ]; } &&
        asan_build=$b ;; esac
done
find tests/cli -name '*.cmd' | sort >"$work/cases"
# The unit tests and fuzz replays known to take longest under the sanitizers and musl
# (CPU seconds on the 2-core VM, in that order) go first among theirs; the others keep
# their order.
slow_units=(fuzz_callgrind test_profile_append test_profile_partial test_callgrind test_xray_cut
    test_json_paths test_dcfg_trace_profile test_dcfg_trace)
# CLI cases in batches of 20 per build (a case is a few processes), the slowest (*jobs* cases
# of seconds each under the sanitizers: tests/cli/callgrind/read_jobs 15 s of CPU under TSan
# on the 2-core VM) first in batches of 2; a ThreadSanitizer build's (its *jobs* cases) all in
# batches of 2, queued after the integration scripts (at the end of the queue they were its
# last minute, one batch on one CPU)
cli_slow=(callgrind/read_jobs xray/convert_json_jobs dcfg_trace/convert_stack_jobs
    dcfg_trace/convert_bbv_jobs csi/convert_jobs xray/convert_chrome_jobs csi/convert_dot_jobs
    xray/convert_chrome_jobs_fail)

queue_integration() {
    local names=() n s
    for n in "${slow_first[@]}"; do [ -f "tests/integration/$n.sh" ] && names+=("$n"); done
    for s in tests/integration/*.sh; do
        n=$(basename "$s" .sh)
        [[ " ${names[*]} " == *" $n "* ]] || names+=("$n")
    done
    for n in "${names[@]}"; do wanted "$n" && q_integ+=("0 integration $first_build $n 1"); done
    [[ " ${q_integ[*]} " == *" integration $first_build viewers_"* ]] &&
        q_integ=("0 viewers_real $first_build - 1" "${q_integ[@]}")
}

queue_build() { # index: the jobs of a build that is made
    local i=$1 b=${builds[$1]} threaded_only=0 replays=1 src x name units=() slow=() u n f per c l
    if [ $i = 0 ] && [ "${TK_INTEGRATION:-1}" != 0 ]; then
        case "$b" in *tsan* | *musl*) ;; *) queue_integration ;; esac
    fi
    # a ThreadSanitizer build runs the tests of the threaded code only: the
    # thread pool, parallel bzip2, parallel DCFG-Trace decoding
    case "$b" in *tsan*) threaded_only=1 ;; esac
    [ $i = 0 ] && [ -z "${TK_REGEN:-}" ] && wanted conventions && q_unit+=("$i conventions $b - 1")
    # the fuzz replays of a plain build are those of an ASan build run beside it (the same
    # inputs through the same harnesses, with the sanitizers' checks besides): they run there
    case "$b" in *asan* | *tsan* | *musl*) ;; *) [ -n "$asan_build" ] && replays=0 ;; esac
    if [ $threaded_only = 0 ] && [ $replays = 1 ] && [ -d "$b/fuzz" ]; then
        for src in fuzz/fuzz_*.c; do
            x=$(basename "$src" .c); x=${x#fuzz_}
            # the harnesses that compare the fast and the general paths on every input
            # (compare_paths) run both in the ASan build: not again in the musl build,
            # which builds the replays of the others only (Makefile: MUSL_REPLAY_BIN)
            case "$b" in *musl*) [ -n "$asan_build" ] && grep -qw compare_paths "$src" && continue ;; esac
            wanted "fuzz_$x" && units+=("fuzz_$x|$i fuzz $b $x 0")
        done
    fi
    for src in tests/unit/test_*.c; do
        name=$(basename "$src" .c)
        wanted "$name" || continue
        [ $threaded_only = 0 ] || case "$name" in test_threadpool | test_bz2_parallel | test_dcfg_trace | test_dcfg_trace_steps) ;; *) continue ;; esac
        units+=("$name|$i unit $b $name 0")
    done
    for n in "${slow_units[@]}"; do
        for u in "${units[@]}"; do [ "${u%%|*}" = "$n" ] && slow+=("${u#*|}"); done
    done
    for u in "${units[@]}"; do
        [[ " ${slow_units[*]} " == *" ${u%%|*} "* ]] || slow+=("${u#*|}")
    done
    q_unit+=("${slow[@]}")
    f=0; [ $i = 0 ] && f=1
    [ -n "${TK_REGEN:-}" ] && [ $f = 0 ] && return
    # the slowest cases first, in batches of 2 (the batches of 20 after them)
    : >"$work/slow.$i"
    for n in "${cli_slow[@]}"; do
        [ -f "tests/cli/$n.cmd" ] && wanted "$n" && echo "tests/cli/$n.cmd" >>"$work/slow.$i"
    done
    : >"$work/cases.$i"
    per=20
    case "$b" in *tsan*) per=2 ;; esac
    while IFS= read -r c; do
        name=${c%.cmd}; name=${name#tests/cli/}
        wanted "$name" || continue
        case "$b" in *tsan*) case "$name" in *jobs*) ;; *) continue ;; esac ;; esac
        [[ " ${cli_slow[*]} " == *" $name "* ]] && continue
        echo "$c" >>"$work/cases.$i"
    done <"$work/cases"
    split -l 2 -d -a 3 "$work/slow.$i" "$work/batch.$i.s"
    split -l $per -d -a 3 "$work/cases.$i" "$work/batch.$i.t"
    local first=() rest=()
    for l in "$work/batch.$i.s"*; do [ -s "$l" ] && first+=("$i cli $b $l $f"); done
    for l in "$work/batch.$i.t"*; do [ -s "$l" ] && rest+=("$i cli $b $l $f"); done
    # the ThreadSanitizer batches after the integration scripts, before the unit tests; the
    # slowest of a build before the CLI batches queued so far
    case "$b" in
    *tsan*) q_tsan+=("${first[@]}" "${rest[@]}") ;;
    *) q_cli=("${first[@]}" "${q_cli[@]}" "${rest[@]}") ;;
    esac
}

# ---- run them -------------------------------------------------------------
queued=() # per build: its jobs are queued (1), or it failed (0)
poll_builds() { # queue the jobs of the builds made since; 1 while some are still being made
    local i b busy=0
    for i in "${!builds[@]}"; do
        [ -n "${queued[$i]:-}" ] && continue
        b=${builds[$i]}
        if [ -n "$made" ]; then
            if [ -e "$b/.check-built" ] && [ -x "$b/tracekit" ]; then build_ok[$b]=1
            elif [ -e "$made" ]; then build_ok[$b]=0
            else busy=1; continue; fi
        fi
        queued[$i]=${build_ok[$b]}
        [ "${build_ok[$b]}" = 1 ] && queue_build "$i"
    done
    return $busy
}
exec 9>"$work/viewers.lock"
locked=0
n=0
while :; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    poll_builds; busy=$?
    if [ $locked = 0 ] && [[ " ${q_integ[*]} " == *" viewers_real "* ]]; then
        flock 9; locked=1 # until job_viewers_real is done
    fi
    if [ ${#q_integ[@]} -gt 0 ]; then q=${q_integ[0]}; q_integ=("${q_integ[@]:1}")
    elif [ ${#q_tsan[@]} -gt 0 ]; then q=${q_tsan[0]}; q_tsan=("${q_tsan[@]:1}")
    elif [ ${#q_unit[@]} -gt 0 ]; then q=${q_unit[0]}; q_unit=("${q_unit[@]:1}")
    elif [ ${#q_cli[@]} -gt 0 ]; then q=${q_cli[0]}; q_cli=("${q_cli[@]:1}")
    elif [ $busy = 1 ]; then sleep 0.5; continue # until a build is made
    else break; fi
    read -r bi part b arg f <<<"$q"
    echo "$bi $part" >"$work/res/$n.job"
    run_job "$n" "$part" "$b" "$arg" "$f" &
    n=$((n + 1))
done
wait

# ---- the logs -------------------------------------------------------------
pass=0 fail=0 skip=0
failed=() skipped=()
for i in "${!builds[@]}"; do
    b=${builds[$i]}
    echo "== tests with $b" >&2
    if [ "${build_ok[$b]}" != 1 ]; then
        fail=$((fail + 1)); failed+=("$b: tracekit was not built"); echo "FAIL: $b: tracekit was not built" >&2
        continue
    fi
    declare -A ms=() cpu=()
    integ_lines=()
    for ((k = 0; k < n; k++)); do
        read -r bi part <"$work/res/$k.job"
        [ "$bi" = "$i" ] || continue
        [ -f "$work/res/$k" ] || { fail=$((fail + 1)); failed+=("$b $part: a job did not finish"); continue; }
        while IFS= read -r line; do
            case "$line" in
            "P "*) pass=$((pass + ${line#P })) ;;
            X) fail=$((fail + 1)) ;;
            "    "*) echo "$line" >&2 ;;
            "F "*) fail=$((fail + 1)); failed+=("${line#F }"); echo "FAIL: ${line#F }" >&2 ;;
            "S "*) skip=$((skip + 1)); skipped+=("${line#S }"); echo "skip: ${line#S }" >&2 ;;
            "T "*)
                read -r _ p a t c <<<"$line"
                ms[$p]=$((${ms[$p]:-0} + t)) cpu[$p]=$((${cpu[$p]:-0} + ${c:-0}))
                [ "$p" = integration ] &&
                    integ_lines+=("   integration $a: $(((t + 500) / 1000)) s ($(((c + 500) / 1000)) s CPU)")
                ;;
            *) echo "$line" >&2 ;;
            esac
        done <"$work/res/$k"
    done
    for p in conventions viewers_real unit cli integration fuzz; do
        [ -n "${ms[$p]:-}" ] || continue
        case $p in
        unit) label="unit tests" ;; cli) label="cli cases" ;; fuzz) label="fuzz replay" ;;
        viewers_real) label="the viewer tests' traces of real programs" ;;
        *) label=$p ;;
        esac
        [ $p = integration ] && printf '%s\n' "${integ_lines[@]}" >&2
        echo "   $label: $(((${ms[$p]} + 500) / 1000)) s ($(((${cpu[$p]} + 500) / 1000)) s CPU)" >&2
    done
    unset ms cpu
done

if [ ${#failed[@]} -gt 0 ]; then
    echo >&2
    echo "failed:" >&2
    printf '  %s\n' "${failed[@]}" >&2
fi
if [ $skip -gt 0 ]; then
    list=$(printf '%s, ' "${skipped[@]}")
    echo "$skip skipped: ${list%, }"
fi
# the whole run: wall time, and the CPU time (user + system) of every process it waited for
times >"$work/times"
cpu_all=$(cpu_ms "$(cat "$work/times")")
echo "total: $((($(date +%s%N) - t_start + 500000000) / 1000000000)) s ($(((cpu_all + 500) / 1000)) s CPU)" >&2
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
