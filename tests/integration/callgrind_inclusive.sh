#!/usr/bin/env bash
# Inclusive cost in call cycles (docs/formats/callgrind.md, "Inclusive cost in
# call cycles"), on profiles of real programs made here with valgrind:
# tests/data/callgrind/prog/recursion.c (direct and mutual recursion, an
# interpreter, a parser, a cycle of three), CPython running
# tests/data/callgrind/prog/interp.py, and sqlite3 when installed.
#  1. Truth: a run with --separate-recs=100 names every recursion level apart;
#     its level-k activations never nest, so the calls into `f'k` add up to the
#     exact cost while f is on the stack at depth >= k. tracekit's estimate on
#     the runs with --separate-recs=1 (no levels) and 2 (valgrind's default)
#     must come close: mean error over the functions in cycles below 0.3 % of
#     the total, exact for level-1 names (`_PyEval_EvalFrameDefault`).
#  2. Bounds, on these and our other valgrind profiles: no inclusive cost above
#     the program total, none below the calls into the function from outside
#     its strongly connected component, nor below its self cost plus its calls
#     out of it, nor (under callgrind's levels) below any single arc into it
#     from or to a level-1 name.
#  3. callgrind_annotate --inclusive=yes: by file-function every row outside a
#     call cycle is equal; inside one, tracekit's is at most callgrind_annotate's
#     (which adds nested calls once per level).
set -u
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 77; }
command -v callgrind_annotate >/dev/null || { echo "callgrind_annotate not installed"; exit 77; }
command -v python3 >/dev/null || { echo "python3 not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# (built outside the repository: callgrind_annotate drops the current
# directory from fl= file names but not from cfi= ones)
cp tests/data/callgrind/prog/recursion.c "$tmp/"
cc -O1 -g -fno-inline -fno-optimize-sibling-calls -o "$tmp/recursion" "$tmp/recursion.c" ||
    { echo "cannot build recursion.c"; exit 1; }
py=$(python3 -c 'import sys; print(sys.executable)')
run() { # NAME RECS PROG ARGS...
    local name=$1 recs=$2
    shift 2
    PYTHONHASHSEED=0 valgrind -q --tool=callgrind --separate-recs="$recs" \
        --callgrind-out-file="$tmp/$name.r$recs" "$@" >/dev/null 2>"$tmp/vg.err" ||
        { echo "valgrind failed on $*"; cat "$tmp/vg.err"; fail=1; }
}
sets=(recursion interp)
for r in 1 2 100; do run recursion "$r" "$tmp/recursion"; done
# (-S: without the site module, half of the startup; the cycle is the same)
for r in 2 100; do run interp "$r" "$py" -S tests/data/callgrind/prog/interp.py; done
if command -v sqlite3 >/dev/null; then
    sql="create table t(a, b); with recursive c(x) as (select 1 union all select x + 1 from c
where x < 3000) insert into t select x, hex(x * 7919) from c; create index i on t(b);
select count(*), sum(length(b)) from t where a % 7 = 3 and a in (select a from t where b > '1');"
    for r in 2 100; do run sqlite "$r" sqlite3 :memory: "$sql"; done
    sets+=(sqlite)
fi
[ $fail = 0 ] || exit 1

# prepare PROFILE [TRUTH]: tracekit's reports of PROFILE (and the model of TRUTH) into
# $tmp/p$n/, and a line of $tmp/list for the checks (one Python for all: a start of it
# costs more than what it checks of a small profile)
prepare() {
    local d=$tmp/p$n
    mkdir -p "$d"
    "$TRACEKIT" report --format=json "$1" >"$d/fn.json" &&
        "$TRACEKIT" report --by=file-function --format=json "$1" >"$d/ff.json" &&
        "$TRACEKIT" convert --to json "$1" >"$d/model.json" || { echo "tracekit failed on $1"; return 1; }
    [ -n "${2:-}" ] && { "$TRACEKIT" convert --to json "$2" >"$d/truth.json" || return 1; }
    local cga=0
    annotate_can_read "$1" && cga=1
    printf '%s\t%s\t%s\t%s\n' "$1" "$d" "${2:+truth}" "$cga" >>"$tmp/list"
}

. tests/integration/lib/callgrind_profiles.sh # annotate_can_read
n=0
: >"$tmp/list"
for s in "${sets[@]}"; do
    for r in 1 2; do
        [ -s "$tmp/$s.r$r" ] || continue
        prepare "$tmp/$s.r$r" "$tmp/$s.r100" || fail=1
        n=$((n + 1))
    done
done
# bounds and callgrind_annotate on our valgrind profiles (the callgrind fuzz
# harness checks the bounds on every file of the corpus too: tests/run.sh)
for f in tests/data/callgrind/pass/* examples/fib.callgrind; do
    [ -s "$f" ] || continue
    case "$f" in *-mangled.out) continue ;; esac # callgrind_annotate does not expand such names
    "$TRACEKIT" report --from callgrind --format=json "$f" >/dev/null 2>&1 || continue
    prepare "$f" || fail=1
    n=$((n + 1))
done
# each line of the list: PROFILE, its folder, "truth" or nothing, whether callgrind_annotate
# can read it. A profile with a truth prints its estimate's error; the others print only
# what is wrong.
python3 - "$tmp/list" <<'PY' || fail=1
import collections, json, re, subprocess, sys


def check(name, tmp, with_truth, can_read):
    """The checks of one profile: its messages, and whether it passed."""
    msgs = []
    print = lambda *a: msgs.append(" ".join(map(str, a)))  # collected: shown by the caller
    if can_read:
        ev = json.load(open(tmp + "/fn.json"))["events"][0]
        # (callgrind_annotate dies on some third-party files: no comparison then)
        r = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--auto=no",
                            f"--show={ev}", f"--sort={ev}", name],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        cga = r.stdout if r.returncode == 0 else b""
    else:
        cga = b""
    open(tmp + "/cga", "wb").write(cga)
    third_party = "/corpus/" in name
    LEVEL = re.compile(r"^([^']+)'(\d+)(?='|$)")

    def split(n):
        m = LEVEL.match(n)
        return (n[:m.end(1)] + n[m.end(2):], int(m.group(2))) if m and int(m.group(2)) >= 2 else (n, 1)

    def load(path):
        d = json.load(open(path))
        nev = len(d["events"])
        fns = [(f["object"], f["file"], f["name"]) for f in d["functions"]]
        self_ = [[0] * nev for _ in fns]
        arcs = collections.defaultdict(lambda: [0] * nev)
        for p in d["parts"]:
            for r in p["self"]:
                for j in range(nev):
                    self_[r["fn"]][j] += r["cost"][j]
            for c in p["calls"]:
                a = arcs[(c["fn"], c["callee"])]
                for j in range(nev):
                    a[j] += c["inclusive"][j]
        return fns, self_, dict(arcs), nev

    def sccs(n, arcs):
        succ = collections.defaultdict(list)
        for a, b in arcs:
            succ[a].append(b)
        index, low, on, stack, comp, cnt = {}, {}, set(), [], [0] * n, [0]
        for root in range(n):
            if root in index:
                continue
            work = [(root, iter(succ[root]))]
            index[root] = low[root] = cnt[0]; cnt[0] += 1; stack.append(root); on.add(root)
            while work:
                v, it = work[-1]
                for w in it:
                    if w not in index:
                        index[w] = low[w] = cnt[0]; cnt[0] += 1; stack.append(w); on.add(w)
                        work.append((w, iter(succ[w])))
                        break
                    if w in on:
                        low[v] = min(low[v], index[w])
                else:
                    work.pop()
                    if work:
                        low[work[-1][0]] = min(low[work[-1][0]], low[v])
                    if low[v] == index[v]:
                        while True:
                            w = stack.pop(); on.discard(w); comp[w] = v
                            if w == v:
                                break
        return comp

    fns, self_, arcs, nev = load(tmp + "/model.json")
    rep = json.load(open(tmp + "/fn.json"))
    totals = rep["totals"]
    comp = sccs(len(fns), arcs)
    leveled = any(split(f[2])[1] > 1 for f in fns) and not any(
        a == b and split(fns[a][2])[1] == 1 for a, b in arcs)
    lo = [list(s) for s in self_]
    in_ext = [[0] * nev for _ in fns]
    for (a, b), v in arcs.items():
        if comp[a] != comp[b]:
            for j in range(nev):
                lo[a][j] += v[j]
                in_ext[b][j] += v[j]
    for i in range(len(fns)):
        lo[i] = [max(x, y) for x, y in zip(lo[i], in_ext[i])]
    for (a, b), v in arcs.items():
        if a != b and comp[a] == comp[b] and leveled and (split(fns[a][2])[1] == 1 or split(fns[b][2])[1] == 1):
            lo[b] = [max(x, y) for x, y in zip(lo[b], v)]
    index = {f: i for i, f in enumerate(fns)}
    errors = []
    for e in rep["functions"]:
        i = index[(e["object"], e["file"], e["name"])]
        for j in range(nev):
            bound = min(lo[i][j], totals[j])
            if not bound <= e["inclusive"][j] <= totals[j]:
                errors.append(f"{e['name']}: inclusive {e['inclusive'][j]} outside [{bound}, {totals[j]}] (event {j})")

    if with_truth:
        tf, tself, tarcs, _ = load(tmp + "/truth.json")
        into, out, called = collections.defaultdict(int), collections.defaultdict(int), set()
        for (a, b), v in tarcs.items():
            into[b] += v[0]; out[a] += v[0]; called.add(b)
        truth = {}
        for i, (o, f, n) in enumerate(tf):
            base, k = split(n)
            truth[(o, f, base, k)] = into[i] if i in called else tself[i][0] + out[i]
        errs, worst = [], (0, "")
        for e in rep["functions"]:
            if not e.get("cycle"):
                continue
            base, k = split(e["name"])
            t = truth.get((e["object"], e["file"], base, k))
            if t is None:
                errors.append(f"{e['name']}: no such function in the --separate-recs=100 run")
                continue
            err = abs(e["inclusive"][0] - t) / totals[0] * 100
            errs.append(err)
            worst = max(worst, (err, e["name"]))
            if leveled and k == 1 and e["inclusive"][0] != t:
                errors.append(f"{e['name']} (level 1): inclusive {e['inclusive'][0]}, exact {t}")
            if e["name"] == "_PyEval_EvalFrameDefault" and e["inclusive"][0] != t:
                errors.append(f"the interpreter loop: inclusive {e['inclusive'][0]}, exact {t}")
        mean = sum(errs) / len(errs) if errs else 0
        print(f"  {name}: {len(errs)} functions in call cycles, mean error {mean:.3f} % of the total, "
              f"largest {worst[0]:.2f} % ({worst[1][:50]})")
        if mean > 0.3:
            errors.append(f"mean error {mean:.3f} % of the total, above 0.3 %")

    # callgrind_annotate --inclusive=yes, keyed file:function. Outside cycles the
    # same number, but where tracekit caps it at the program total (valgrind's call
    # costs add up to its summary:, a few events above the cost lines) and where
    # the calls into a function add up to less than its own cost plus its calls (a
    # function also entered by a jump, as through the dynamic linker's lazy
    # binding): tracekit shows the latter, which the function provably spent.
    # callgrind_annotate books a calls=0 line (a call active at the dump) as the
    # caller's self cost: such profiles are compared inside cycles only.
    def fkey(f, n):
        return f + ":" + n
    model = json.load(open(tmp + "/model.json"))
    mf = model["functions"]
    own = collections.defaultdict(int)
    calls0 = False
    for p in model["parts"]:
        for r in p["self"]:
            own[fkey(r["file"], mf[r["fn"]]["name"])] += r["cost"][0]
        for c in p["calls"]:
            calls0 = calls0 or c["count"] == 0
            a = fkey(c["file"], mf[c["fn"]]["name"])
            if a != fkey(mf[c["callee"]]["file"], mf[c["callee"]]["name"]):
                own[a] += c["inclusive"][0]
    ff = {fkey(e["file"], e["name"]): e for e in json.load(open(tmp + "/ff.json"))["functions"]}
    started, rows = False, 0
    for line in open(tmp + "/cga", encoding="utf-8", errors="replace"):
        if line.rstrip().endswith("file:function"):
            started = True
            continue
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[[^\]]*\])?$", line.rstrip("\n"))
        if not started or not m:
            continue
        key, theirs = m.group(2), int(m.group(1).replace(",", ""))
        e = ff.get(key)
        if e is None:
            # a third-party file that relies on fn= keeping the inlined file of an
            # fi= line (callgrind_annotate's reading; tracekit's fn= starts at fl=)
            if not third_party:
                errors.append(f"callgrind_annotate row {key!r} not in tracekit's report")
            continue
        rows += 1
        ours, total = e["inclusive"][0], totals[0]
        if e.get("cycle"):
            if ours > theirs:
                errors.append(f"{key} (in a cycle): inclusive {ours} above callgrind_annotate's {theirs}")
        elif not calls0 and ours != min(theirs, total) and not (theirs < ours == min(own[key], total)):
            errors.append(f"{key}: inclusive {ours}, callgrind_annotate {theirs}")
    for x in errors[:20]:
        print(f"{name}: {x}")
    return msgs, not errors


ok = True
for line in open(sys.argv[1]).read().split("\n")[:-1]:
    name, tmp, truth, can_read = line.split("\t")
    out, passed = check(name, tmp, truth == "truth", can_read == "1")
    if truth == "truth" or not passed:
        for x in out:
            sys.stdout.write(x + "\n")
    ok = ok and passed
sys.exit(0 if ok else 1)
PY
[ $fail = 0 ] && echo "ok: inclusive costs of $n profiles within their bounds; estimates close to the exact costs; equal to callgrind_annotate outside call cycles"
exit $fail
