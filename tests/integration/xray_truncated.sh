#!/usr/bin/env bash
# Traces cut short (a crashed copy, `head -c N`), on real traces:
#  1. A multi-threaded program (tests/data/xray/src/mtpool.c) is built with clang -fxray-instrument
#     and traced in FDR mode here; its trace is cut at every buffer boundary (and a few bytes
#     around it) and at offsets spread over the file. For every cut: `report` exits 0; unless
#     the cut falls between whole buffers it warns "FILE: byte D: warning: the trace is cut
#     short" with D <= N and its JSON says "truncated" at D; the numbers equal those of the file
#     cut at D; a longer cut never has fewer calls; `check` exits 1 with a located error; `-o`
#     writes the whole partial result.
#  2. llvm-xray account on the committed single-threaded traces (FDR and basic) cut between
#     records accounts the same numbers as tracekit; cut inside a record, llvm-xray 14 refuses
#     the file (tracekit gives the numbers of the records before the cut).
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
D=tests/data/xray
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 ran=0

CC=$(command -v clang-14 || command -v clang) || CC=
if [ -n "$CC" ] &&
    $CC -std=c2x -O1 -g -fxray-instrument -fxray-instruction-threshold=1 -pthread \
        -o "$tmp/mtpool" "$D/src/mtpool.c" 2>"$tmp/cc.err"; then
    mkdir "$tmp/log"
    XRAY_OPTIONS="patch_premain=true xray_mode=xray-fdr verbosity=0 xray_logfile_base=$tmp/log/" \
    XRAY_FDR_OPTIONS=func_duration_threshold_us=0:buffer_size=8192:buffer_max=400 \
    XRAY_CTL_MODE=fdr "$tmp/mtpool" 60 4 >/dev/null 2>&1
    set -- "$tmp"/log/*
    if [ $# -eq 1 ] && [ -s "$1" ]; then
        mv "$1" "$tmp/trace.fdr"
        ran=1
        python3 - "$TRACEKIT" "$tmp" <<'PY' || fail=1
import json, os, random, re, struct, subprocess, sys
tracekit, tmp = sys.argv[1:]
data = open(os.path.join(tmp, "trace.fdr"), "rb").read()
def run(*args):
    return subprocess.run([tracekit, *args], capture_output=True, text=True, errors="replace")
def cut(n, name="cut.fdr"):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data[:n])
    return path
# buffer boundaries: a jump from extents to extents (version 5, little-endian)
assert struct.unpack_from("<HH", data, 0) == (5, 1), "expected an FDR version 5 trace"
bounds, pos = [], 32
while pos + 16 <= len(data):
    pos += 16 + struct.unpack_from("<Q", data, pos + 1)[0]
    bounds.append(pos)
threads = len(re.findall(r"^  tid ", run("info", cut(len(data))).stdout, re.M))
offsets = set()
for b in [32] + bounds:
    offsets.update(x for x in (b - 5, b - 1, b, b + 3, b + 16, b + 21) if 32 <= x <= len(data))
random.seed(7)
offsets.update(random.randrange(33, len(data)) for _ in range(40))
bad, warned, last = 0, 0, None
for n in sorted(offsets):
    path = cut(n)
    r = run("report", "--format", "json", path)
    if r.returncode != 0:
        print(f"cut {n}: exit {r.returncode}: {r.stderr.strip()}"); bad += 1; continue
    rep = json.loads(r.stdout)
    m = re.search(r"^tracekit: (\S+): byte (\d+): warning: the trace is cut short: ",
                  r.stderr, re.M)
    boundary = n == 32 or n in bounds
    if boundary:
        if m or rep["truncated"] is not None:
            print(f"cut {n} (between buffers): unexpected warning"); bad += 1
    else:
        if not m or m.group(1) != path or rep["truncated"] is None:
            print(f"cut {n}: no warning: {r.stderr.strip()}"); bad += 1; continue
        warned += 1
        d = int(m.group(2))
        if d > n or rep["truncated"]["byte"] != d:
            print(f"cut {n}: damage at {d}, JSON {rep['truncated']}"); bad += 1
        same = json.loads(run("report", "--format", "json", cut(d, "at-damage.fdr")).stdout)
        if same["functions"] != rep["functions"] or same["totals"] != rep["totals"]:
            print(f"cut {n}: the numbers differ from the file cut at the damage ({d})"); bad += 1
        c = run("check", path)
        if c.returncode != 1 or not re.search(r": byte \d+: error: ", c.stderr):
            print(f"cut {n}: check exit {c.returncode}: {c.stderr.strip()}"); bad += 1
    enters = rep["totals"]["enters"]
    if last is not None and enters < last:
        print(f"cut {n}: {enters} enters, fewer than a shorter cut ({last})"); bad += 1
    last = enters
# -o on a cut: the partial result, whole
n = (bounds[len(bounds) // 2] if bounds else len(data)) - 3
out = os.path.join(tmp, "out.json")
r = run("report", "--format", "json", "-o", out, cut(n))
if r.returncode != 0 or json.load(open(out))["truncated"] is None:
    print(f"-o on a cut: exit {r.returncode}"); bad += 1
print(f"generated trace ({len(data)} bytes, {len(bounds)} buffers, {threads} threads): "
      f"{len(offsets)} cuts, {warned} located, {bad} problems")
sys.exit(1 if bad or warned < 20 or threads < 2 else 0)
PY
    else
        echo "note: the XRay runtime wrote no trace ($#): part 1 skipped"
    fi
else
    echo "note: clang with XRay not usable: part 1 skipped"
fi

XRAY=$(command -v llvm-xray || command -v llvm-xray-14) || XRAY=
if [ -n "$XRAY" ]; then
    ran=1
    for t in calltree.fdr calltree.basic; do
    python3 - "$TRACEKIT" "$XRAY" "$D/pass/$t" "$tmp" <<'PY' || fail=1
import csv, io, os, re, subprocess, sys
tracekit, xray, trace, tmp = sys.argv[1:]
data = open(trace, "rb").read()
dump = subprocess.run([tracekit, "dump", trace], capture_output=True, text=True).stdout
# function records in the second half of the trace (FDR: inside a buffer), away from the end
starts = [int(m.group(1)) for m in re.finditer(r"^@(\d+) (?:enter|exit) ", dump, re.M)]
inside = [o for o in starts if len(data) // 2 < o < len(data) - 200]
picks = [inside[i * (len(inside) - 1) // 7] for i in range(8)]
def csv_rows(text):
    return {int(r["funcid"]): r for r in csv.DictReader(io.StringIO(text))}
def run(*args):
    return subprocess.run(list(args), capture_output=True, text=True, errors="replace")
bad = refused = 0
for at in picks:
    between = os.path.join(tmp, "between")
    open(between, "wb").write(data[:at])
    llvm = run(xray, "account", "-format=csv", "-sort=funcid", between)
    ours = run(tracekit, "report", "--format=csv", "--sort=funcid", "--unit", "s", between)
    a, b = csv_rows(llvm.stdout), csv_rows(ours.stdout)
    diff = not a or set(a) != set(b) or llvm.returncode != 0
    for fid in a:
        if fid not in b or int(a[fid]["count"]) != int(b[fid]["count"]):
            diff = True
            continue
        for k in ("min", "median", "90%ile", "99%ile", "max", "sum"):
            x, y = float(a[fid][k]), float(b[fid][k])
            diff |= abs(x - y) > 1e-6 * abs(x) + 1e-15
    if diff:
        print(f"cut at {at} (between records): llvm-xray and tracekit differ"); bad += 1
    # cut 3 bytes into the record: llvm-xray refuses, tracekit gives the same as above
    inrec = os.path.join(tmp, "inrec")
    open(inrec, "wb").write(data[:at + 3])
    llvm2 = run(xray, "account", "-format=csv", "-sort=funcid", inrec)
    ours2 = run(tracekit, "report", "--format=csv", "--sort=funcid", "--unit", "s", inrec)
    if (ours2.returncode != 0 or ours2.stdout != ours.stdout
            or f"byte {at}: warning:" not in ours2.stderr):
        print(f"cut at {at + 3} (inside a record): tracekit differs from the cut at {at}"); bad += 1
    refused += llvm2.returncode != 0 or "Failed loading" in llvm2.stderr
name = os.path.basename(trace)
print(f"llvm-xray account on {len(picks)} cuts between records of {name}: {len(picks) - bad} "
      f"equal; cut 3 bytes into a record: llvm-xray refuses {refused} of {len(picks)}, tracekit "
      f"gives the numbers of the records before the cut")
sys.exit(1 if bad else 0)
PY
    done
else
    echo "note: llvm-xray not installed: part 2 skipped"
fi
[ $ran = 1 ] || exit 77
exit $fail
