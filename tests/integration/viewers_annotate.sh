#!/usr/bin/env bash
# Viewer test: callgrind_annotate prints the same for a valgrind profile and for
# `convert --to callgrind` of it, with its default list, with --inclusive=yes and with
# --tree=both (profiles under 120 KB and gzip.out), for every valgrind profile of the test
# data and of the third-party corpus that callgrind_annotate reads (one part, no bb column),
# and for the profiles valgrind makes now (gzip of a generated file, with inlined-file costs:
# fi=/fe=; a threaded program: tests/integration/lib/viewers_real.sh).
# Only the line naming the data file differs. Before the writer wrote valgrind's "fe=" back to
# the function's file, callgrind_annotate booked a function's costs to the previous function's
# inlined file (gzip.out: 16 rows).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/callgrind_profiles.sh
. tests/integration/lib/viewers_real.sh
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0

files=()
for f in "${profiles[@]}"; do
    [ -s "$f" ] || continue
    case "$f" in
        *-mangled.out) continue ;;   # callgrind_annotate does not expand them
        # names object (8) without defining it: tracekit keeps "(8)" as the name
        # (docs/formats/callgrind.md), callgrind_annotate shows no object
        */selinux.callgrind) continue ;;
    esac
    "$TRACEKIT" check "$f" >/dev/null 2>&1 || continue   # refused inputs are tested elsewhere
    head -c 4000 "$f" | grep -q '^creator: callgrind' || continue
    annotate_can_read "$f" || continue
    files+=("$f")
done
# the profiles valgrind makes now, of gzip and of a threaded program (viewers_real.sh)
viewers_real
if command -v valgrind >/dev/null; then
    [ -n "$real_callgrind" ] && [ -n "$real_callgrind_mt" ] ||
        { echo "valgrind made no profile: $(head -c 300 "$real/log")"; fail=1; }
    files+=($real_callgrind $real_callgrind_mt)
fi

annotate() { # OPTIONS... FILE -> stdout without the data file's name
    callgrind_annotate --auto=no "$@" 2>&1 | grep -v -e '^Profile data file' -e '^Data file:' |
        sed 's/, <INPUTFILE> line [0-9]*\././'
}
# every run's output kept (K.a: the valgrind profile's, K.b: the conversion's, K.what: the
# options and file) and compared at the end by one python (a python per run took most of the
# script's time: ~0.2 s to start, callgrind_annotate 0.02-0.1 s on most files)
k=0
for f in "${files[@]}"; do
    "$TRACEKIT" convert --to callgrind "$f" -o "$tmp/w.$n" ||
        { echo "FAIL convert: $f"; fail=1; continue; }
    opts=("")
    # --inclusive=yes and --tree=both on the smaller ones and on the gzip profile of the issue
    # (callgrind_annotate takes seconds on the big ones)
    if [ "$(wc -c <"$f")" -lt 120000 ] || [ "${f##*/}" = gzip.out ]; then
        opts+=(--inclusive=yes --tree=both)
    fi
    for a in "${opts[@]}"; do
        k=$((k + 1))
        annotate $a "$f" >"$tmp/$k.a"
        annotate $a "$tmp/w.$n" >"$tmp/$k.b"
        printf '%s on %s\n' "${a:-the default}" "$f" >"$tmp/$k.what"
    done
    n=$((n + 1))
done
# callgrind_annotate lists rows of equal cost in Perl's hash order, which changes from run to
# run (--tree=both of one file three times: three outputs): runs of rows with equal costs are
# sorted before comparing
python3 - "$tmp" "$k" <<'PY' || fail=1
import difflib, re, sys
tmp, runs = sys.argv[1], int(sys.argv[2])

def normal(path):
    lines = open(path, errors="replace").read().split("\n")
    out, run, key = [], [], None
    for line in lines + [None]:
        k = None if line is None else re.match(r"\s*([\d,]+ (\( *[\d.]+%\) )?)*[<>* ]*",
                                               line).group(0)
        if run and (k != key or not k.strip()):
            out += sorted(run)
            run = []
        if line is not None:
            run.append(line)
            key = k
    return out

bad = 0
for i in range(1, runs + 1):
    a, b = normal(f"{tmp}/{i}.a"), normal(f"{tmp}/{i}.b")
    if a != b:
        print(f"FAIL: callgrind_annotate differs with {open(f'{tmp}/{i}.what').read().strip()}:")
        print("\n".join(list(difflib.unified_diff(a, b, "valgrind's", "tracekit's",
                                                  lineterm="", n=0))[:10]))
        bad = 1
sys.exit(bad)
PY
echo "$n valgrind profiles: callgrind_annotate reads the same from tracekit's conversion"
[ $n -ge 10 ] || { echo "too few profiles"; exit 1; }
exit $fail
