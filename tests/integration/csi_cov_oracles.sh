#!/usr/bin/env bash
# CSI coverage metadata against an independent reader (Python, below) that
# follows csi-cc's own test comparison (scons-tools/expectcmp.py): call-site
# and statement coverage compared as sorted entry lists per function (CC:
# (instrumented?, line, callee); BBC: (instrumented?, lines with consecutive
# repeats collapsed)), function coverage as sorted lines. For every corpus
# file (27 csi-cc 1.4.0 test outputs, 5 of csi-cc 1.0, 3 documented examples):
#  1. tracekit's canonical output in both forms (convert --form labels|plain)
#     compares equal to the file;
#  2. report --format csv gives, per function, the entries, instrumented and
#     not instrumented counts and distinct lines the reader counts;
#  3. the csi-cc 1.0 call coverage of each test equals the 1.4.0 -O0 one
#     (array names aside; __isoc99_scanf read as scanf, as upstream does).
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
C=tests/data/corpus/csi-thirdparty
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
[ -d "$C" ] || { echo "corpus copy missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/oracle.py" <<'PY'
import csv, itertools, subprocess, sys

T = sys.argv[1]

def read(path, kind):
    """{(function, array): sorted entries} the way expectcmp.py compares them."""
    funcs, cur = {}, None
    for line in open(path, encoding="latin-1").read().split("\n"):
        if not line.strip():
            continue
        if line[0] == "#":
            name, array = line[1:].strip().rsplit("|", 1)
            cur = (name, array.replace("__CC_arr_tests_", "__CC_arr_"))
            funcs.setdefault(cur, [])
            continue
        parts = [p.strip() for p in line.split("|")]
        inst = parts[0][0] != "-"
        if kind == "FC":
            raise SystemExit("FC entry line in " + path)
        if kind == "CC":
            if len(parts) == 4:
                parts = parts[:1] + parts[2:]
            callee = parts[2].replace("__isoc99_scanf", "scanf")
            funcs[cur].append((inst, int(parts[1]), callee))
        else:
            if not parts[1] or not (parts[1][0].isdigit() or parts[1] == "NULL"):
                parts = parts[:1] + parts[2:]
            lines = [] if parts[1:] == ["NULL"] else [int(x) for x in parts[1:]]
            funcs[cur].append((inst, [k for k, _ in itertools.groupby(lines)]))
    return {k: sorted(v) for k, v in funcs.items()}

def counts(path, kind):
    """Per function: entries, instrumented, not instrumented, distinct lines."""
    out = []
    for (name, _), entries in read_ordered(path, kind):
        lines = set()
        for e in entries:
            lines.update([e[1]] if kind == "CC" else e[1])
        inst = sum(1 for e in entries if e[0])
        out.append([name, len(entries), inst, len(entries) - inst, len(lines)])
    return out

def read_ordered(path, kind):
    seen, order = read(path, kind), []
    for line in open(path, encoding="latin-1"):
        if line.startswith("#"):
            name, array = line[1:].strip().rsplit("|", 1)
            key = (name, array.replace("__CC_arr_tests_", "__CC_arr_"))
            order.append((key, seen[key]))
    return order

def run(*args):
    return subprocess.run([T] + list(args), check=True, capture_output=True, text=True).stdout

fail = 0
for path in sys.argv[2:]:
    kind = "CC" if ("-CC." in path or ".rt." in path or "debug_CC" in path) else \
           "FC" if ("-FC." in path or "debug_FC" in path) else "BBC"
    fmt = "csi-" + kind.lower()
    want = read(path, kind)
    for form in (["labels", "plain"] if kind != "FC" else ["labels"]):
        with open(sys.argv[0] + ".out", "w") as f:
            f.write(run("convert", "--to", fmt, "--form", form, path))
        if read(sys.argv[0] + ".out", kind) != want:
            print("FAIL: %s: convert --form %s differs from the file" % (path, form)); fail = 1
    if kind == "FC":
        got = sorted(l for l in open(sys.argv[0] + ".out").read().split("\n") if l)
        exp = sorted(l.strip() for l in open(path, encoding="latin-1") if l.strip())
        if got != exp:
            print("FAIL: %s: FC lines differ" % path); fail = 1
    rows = list(csv.reader(run("report", "--format", "csv", path).splitlines()))[1:]
    got = [[r[0], int(r[2]), int(r[3]), int(r[4]), int(r[5])] for r in rows]
    if got != counts(path, kind):
        print("FAIL: %s: report %s, reader %s" % (path, got, counts(path, kind))); fail = 1
    else:
        print("ok: %s (%d functions, %d entries)" % (path, len(got), sum(r[1] for r in got)))
sys.exit(fail)
PY

files=$(ls $C/v1.4.0/tests/*/*-CC.expected $C/v1.4.0/tests/*/*-FC.expected \
          $C/v1.4.0/tests/*/*-BBC.expected $C/v1.0.0/tests/*/*.rt.expected $C/docs-examples/funcs.debug_*)
n=$(echo "$files" | wc -l)
[ "$n" = 35 ] || { echo "FAIL: expected 35 corpus coverage files, found $n"; exit 1; }
python3 "$tmp/oracle.py" "$T" $files || exit 1

# 3. csi-cc 1.0's call coverage = 1.4.0's -O0 one, per function as sorted entries
fail=0
for rt in $C/v1.0.0/tests/*/*.rt.expected; do
    t=$(basename "$(dirname "$rt")")
    new=$C/v1.4.0/tests/$t/$t-O0.csi-static-CC.expected
    "$T" convert --to csi-cc --form plain "$new" | sed 's/__CC_arr_tests_[a-z]*_[a-z]*_c_/__CC_arr_/' |
        sed 's/|scanf$/|__isoc99_scanf/' > "$tmp/new"
    if python3 - "$tmp/new" "$rt" <<'PY'
import sys
def entries(p):
    out, cur = {}, None
    for l in open(p):
        l = l.strip()
        if l.startswith("#"): cur = l; out[cur] = []
        elif l: out[cur].append(tuple(l.split("|")[1:]))
    return {k: sorted(v) for k, v in out.items()}
sys.exit(entries(sys.argv[1]) != entries(sys.argv[2]))
PY
    then echo "ok: $t: csi-cc 1.0 call coverage = 1.4.0 -O0"
    else echo "FAIL: $t: 1.0 and 1.4.0 call coverage differ"; fail=1; fi
done
exit $fail
