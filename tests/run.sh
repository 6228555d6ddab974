#!/usr/bin/env bash
# Runs the whole test suite against one or more build directories and ends
# with one line "N passed, N failed" (skipped cases are counted on the line before).
#   tests/run.sh build [build-asan ...]
# Parts, for each build directory:
#   unit         build/tests/test_*            (each case counts)
#   cli golden   tests/cli/**/NAME.cmd         (+ NAME.out, NAME.err, NAME.exit)
#   integration  tests/integration/*.sh        (exit 0 pass, 77 skip)
#   fuzz replay  build/fuzz/replay_fuzz_X over fuzz/corpus/X and tests/data/X/{pass,fail}
# TK_REGEN=1 rewrites the golden files of the CLI cases from the first build.
# TK_ONLY=PATTERN runs only the cases whose name contains PATTERN.
# Several build directories run side by side, up to TK_JOBS at once (default:
# the number of CPUs); each one's log is printed whole when it ends, in order.
# The integration scripts (oracles against the real tools, generated traces)
# run once, with the first build directory; TK_INTEGRATION=0 skips them. So a
# later build directory runs the unit, CLI and fuzz-replay tests: `make check`
# gives build-nofast (-DTK_NO_FAST_PATH, the general paths only) so.
# A skipped case is counted and named on the line "N skipped: ..."; with
# CI=true a skip fails the run (a CI machine has every tool the suite needs).
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# -ge 1 ] || set -- build

if [ $# -gt 1 ] && [ -z "${TK_REGEN:-}" ]; then
    jobs=${TK_JOBS:-$(nproc 2>/dev/null || echo 1)}
    logs=$(mktemp -d)
    trap 'rm -rf "$logs"' EXIT
    i=0
    for build in "$@"; do
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        integ=0
        [ $i = 0 ] && integ=${TK_INTEGRATION:-1}
        TK_INTEGRATION=$integ "$0" "$build" >"$logs/$i.out" 2>"$logs/$i.err" &
        i=$((i + 1))
    done
    wait
    pass=0 fail=0 skip=0 n=0 skipped=""
    for build in "$@"; do
        cat "$logs/$n.err" >&2
        last=$(tail -1 "$logs/$n.out")
        read -r p f <<<"$(printf '%s\n' "$last" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')"
        s=$(sed -n 's/^\([0-9]*\) skipped: .*$/\1/p' "$logs/$n.out")
        names=$(sed -n 's/^[0-9]* skipped: //p' "$logs/$n.out")
        if [ -z "${p:-}" ]; then
            echo "FAIL: $build: the run ended without a summary line" >&2
            p=0 f=1 s=0
        fi
        pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + ${s:-0}))
        [ -n "$names" ] && skipped="${skipped:+$skipped, }$names"
        n=$((n + 1))
    done
    [ $skip -gt 0 ] && echo "$skip skipped: $skipped"
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]
    exit
fi
pass=0 fail=0 skip=0
failed=() skipped=()
only=${TK_ONLY:-}

note_pass() { pass=$((pass + 1)); }
note_fail() { fail=$((fail + 1)); failed+=("$1"); echo "FAIL: $1" >&2; }
wanted() { [ -z "$only" ] || [[ "$1" == *"$only"* ]]; }

first=1
for build in "$@"; do
    [ -x "$build/tracekit" ] || { note_fail "$build: tracekit was not built"; continue; }
    label=$build
    echo "== tests with $build" >&2
    tmp=$(mktemp -d)
    export TRACEKIT="$root/$build/tracekit" BUILD="$root/$build"
    # the viewer tests' traces of real programs, made once (tests/integration/lib/viewers_real.sh)
    export TK_VIEWERS_REAL="$tmp/viewers-real"
    case "$build" in *asan* | *tsan*) export TK_SANITIZED=1 ;; *) unset TK_SANITIZED ;; esac
    # a ThreadSanitizer build runs the tests of the threaded code only: the
    # thread pool, parallel bzip2, parallel DCFG-Trace decoding
    threaded_only=0 unit_cli_only=0
    case "$build" in *tsan*) threaded_only=1; export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1} ;; esac
    # the musl build (portable fallbacks) runs the unit and CLI tests
    case "$build" in *musl*) unit_cli_only=1 ;; esac
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

    t0=$SECONDS
    # unit tests
    for src in tests/unit/test_*.c; do
        [ -f "$src" ] || continue
        name=$(basename "$src" .c)
        t="$build/tests/$name"
        wanted "$name" || continue
        [ $threaded_only = 0 ] || case "$name" in test_threadpool | test_bz2_parallel | test_dcfg_trace | test_dcfg_trace_steps) ;; *) continue ;; esac
        [ -x "$t" ] || { note_fail "$label unit $name (not built)"; continue; }
        out=$("$t" 2>"$tmp/err")
        rc=$?
        res=$(printf '%s\n' "$out" | sed -n 's/^RESULT pass=\([0-9]*\) fail=\([0-9]*\)$/\1 \2/p' | tail -1)
        if [ -z "$res" ]; then
            note_fail "$label unit $name (crashed, exit $rc)"; sed 's/^/    /' "$tmp/err" | head -40 >&2; continue
        fi
        set -- $res "$@"; p=$1 f=$2; shift 2
        pass=$((pass + p))
        if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
            fail=$((fail + f)); [ "$f" -eq 0 ] && fail=$((fail + 1))
            failed+=("$label unit $name ($f failed)"); echo "FAIL: $label unit $name" >&2
            sed 's/^/    /' "$tmp/err" | head -40 >&2
        fi
    done

    echo "   unit tests: $((SECONDS - t0)) s" >&2; t0=$SECONDS
    # CLI golden cases (run from the repository root, tracekit first on PATH)
    while IFS= read -r cmdfile; do
        case_=${cmdfile%.cmd}
        name=${case_#tests/cli/}
        wanted "$name" || continue
        [ $threaded_only = 0 ] || case "$name" in *jobs*) ;; *) continue ;; esac
        ( cd "$root" && PATH="$root/$build:$PATH" bash -o pipefail "$cmdfile" >"$tmp/out" 2>"$tmp/err" </dev/null; echo $? >"$tmp/rc" )
        rc=$(cat "$tmp/rc")
        if [ -n "${TK_REGEN:-}" ] && [ $first = 1 ]; then
            cp "$tmp/out" "$case_.out"; cp "$tmp/err" "$case_.err"; echo "$rc" >"$case_.exit"
            note_pass; continue
        fi
        want_rc=0; [ -f "$case_.exit" ] && want_rc=$(cat "$case_.exit")
        ok=1 why=""
        [ "$rc" = "$want_rc" ] || { ok=0; why="exit $rc, expected $want_rc"; }
        if [ -f "$case_.out" ] && ! cmp -s "$tmp/out" "$case_.out"; then ok=0; why="$why stdout differs"; fi
        if [ -f "$case_.err" ] && ! cmp -s "$tmp/err" "$case_.err"; then ok=0; why="$why stderr differs"; fi
        if [ $ok = 1 ]; then note_pass; else
            note_fail "$label cli $name ($why)"
            [ -f "$case_.out" ] && diff "$case_.out" "$tmp/out" | head -20 | sed 's/^/    /' >&2
            [ -f "$case_.err" ] && diff "$case_.err" "$tmp/err" | head -20 | sed 's/^/    /' >&2
        fi
    done < <(find tests/cli -name '*.cmd' | sort)

    echo "   cli cases: $((SECONDS - t0)) s" >&2; t0=$SECONDS
    # integration scripts (once: see above)
    for s in tests/integration/*.sh; do
        [ "${TK_INTEGRATION:-1}" != 0 ] && [ $threaded_only = 0 ] && [ $unit_cli_only = 0 ] || break
        [ -f "$s" ] || continue
        name=$(basename "$s" .sh)
        wanted "$name" || continue
        ts=$SECONDS
        bash "$s" >"$tmp/out" 2>&1
        rc=$?
        echo "   integration $name: $((SECONDS - ts)) s" >&2
        if [ $rc = 0 ]; then note_pass
        elif [ $rc = 77 ]; then
            why=$(tail -1 "$tmp/out")
            if [ "${CI:-}" = true ]; then
                note_fail "$label integration $name (skipped on CI: $why)"
            else
                skip=$((skip + 1)); skipped+=("$label integration $name ($why)")
                echo "skip: $label integration $name: $why" >&2
            fi
        else note_fail "$label integration $name (exit $rc)"; tail -30 "$tmp/out" | sed 's/^/    /' >&2; fi
    done

    echo "   integration: $((SECONDS - t0)) s" >&2; t0=$SECONDS
    # fuzz corpora replayed through the harnesses
    for src in fuzz/fuzz_*.c; do
        [ $threaded_only = 0 ] && [ $unit_cli_only = 0 ] || break
        [ -f "$src" ] || continue
        x=$(basename "$src" .c); x=${x#fuzz_}
        r="$build/fuzz/replay_fuzz_$x"
        [ -x "$r" ] || { note_fail "$label fuzz $x (replay driver not built)"; continue; }
        wanted "fuzz_$x" || continue
        dirs=()
        # the format's seeds, its test files, and the third-party corpus of its family
        for d in "fuzz/corpus/$x" "tests/data/$x/pass" "tests/data/$x/fail" \
            "tests/data/corpus/${x%%_*}-thirdparty" "tests/data/corpus/${x%%_*}-thirdparty"/*/; do
            [ -d "$d" ] && dirs+=("$d")
        done
        [ ${#dirs[@]} -gt 0 ] || { note_fail "$label fuzz $x (no corpus)"; continue; }
        if "$r" "${dirs[@]}" >"$tmp/out" 2>&1; then note_pass
        else note_fail "$label fuzz replay $x"; tail -30 "$tmp/out" | sed 's/^/    /' >&2; fi
    done
    echo "   fuzz replay: $((SECONDS - t0)) s" >&2
    rm -rf "$tmp"
    first=0
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
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
