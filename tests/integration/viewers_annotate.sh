#!/usr/bin/env bash
# Viewer test: callgrind_annotate prints the same for a valgrind profile and for
# `convert --to callgrind` of it, with its default list, with --inclusive=yes and with
# --tree=both (profiles under 120 KB and gzip.out), for every valgrind profile of the test
# data and of the third-party corpus that callgrind_annotate reads (one part, no bb column),
# and for a profile valgrind makes now (gzip of a generated file, with inlined-file costs: fi=/fe=).
# Only the line naming the data file differs. Before the writer wrote valgrind's "fe=" back to
# the function's file, callgrind_annotate booked a function's costs to the previous function's
# inlined file (gzip.out: 16 rows).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/callgrind_profiles.sh
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
if command -v valgrind >/dev/null && command -v gzip >/dev/null; then
    seq 1 20000 >"$tmp/input"
    if valgrind --tool=callgrind --callgrind-out-file="$tmp/now.out" gzip -c "$tmp/input" \
        >/dev/null 2>&1; then
        files+=("$tmp/now.out")
    else
        echo "valgrind failed"; fail=1
    fi
fi

# callgrind_annotate lists rows of equal cost in Perl's hash order, which changes from run to
# run (--tree=both of one file three times: three outputs): runs of rows with equal costs are
# sorted before comparing
annotate() { # OPTIONS... FILE -> stdout without the data file's name
    callgrind_annotate --auto=no "$@" 2>&1 | grep -v -e '^Profile data file' -e '^Data file:' |
        sed 's/, <INPUTFILE> line [0-9]*\././' |
        python3 -c '
import re, sys
lines = sys.stdin.read().split("\n")
out, run, key = [], [], None
for line in lines + [None]:
    k = None if line is None else re.match(r"\s*([\d,]+ (\( *[\d.]+%\) )?)*[<>* ]*", line).group(0)
    if run and (k != key or not k.strip()):
        out += sorted(run); run = []
    if line is not None:
        run.append(line); key = k
print("\n".join(out))'
}
for f in "${files[@]}"; do
    "$TRACEKIT" convert --to callgrind "$f" -o "$tmp/w" --force ||
        { echo "FAIL convert: $f"; fail=1; continue; }
    opts=("")
    # --inclusive=yes and --tree=both on the smaller ones and on the gzip profile of the issue
    # (callgrind_annotate takes seconds on the big ones)
    if [ "$(wc -c <"$f")" -lt 120000 ] || [ "${f##*/}" = gzip.out ]; then
        opts+=(--inclusive=yes --tree=both)
    fi
    for a in "${opts[@]}"; do
        annotate $a "$f" >"$tmp/a"
        annotate $a "$tmp/w" >"$tmp/b"
        if ! cmp -s "$tmp/a" "$tmp/b"; then
            echo "FAIL: callgrind_annotate $a differs on $f:"
            diff "$tmp/a" "$tmp/b" | head -8
            fail=1
        fi
    done
    n=$((n + 1))
done
echo "$n valgrind profiles: callgrind_annotate reads the same from tracekit's conversion"
[ $n -ge 10 ] || { echo "too few profiles"; exit 1; }
exit $fail
