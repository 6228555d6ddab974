#!/usr/bin/env bash
# Viewer test: KCachegrind opens tracekit's Callgrind exports and its flat profile shows the
# right inclusive percentages and call counts. How it is read: KCachegrind runs on a private
# Xvfb (2400x1400) with a fresh configuration (tips off), one file at a time; a screenshot of
# the screen's top left 720x960 (the flat profile's first 30 rows) is taken once its window is
# up, and tests/viewers/kcachegrind_flat.py reads the flat profile's first rows off it with
# tesseract (Incl., Self, Called, Function); a row that disagrees with tracekit is read again
# at other scales, and where it disagrees in all of them, its file is drawn again at 120 dpi
# (QT_FONT_DPI: other glyphs) and passes only if that rendering reads it right and the first
# reading is a known misread of tracekit's number (6/9, 8/3, 5/3, a first digit lost; one run
# in five read queue_pop's 67.05 as 97.05 at every scale). Checked:
#  - the XRay sample (fib, whose only caller is itself): every function KCachegrind lists among
#    the first rows has tracekit's inclusive percentage and call count, fib at 99.44 % with 177
#    calls (before the thread roots: 0 % inclusive, "no call graph available"), its thread's
#    root "thread 10074" at 100 %;
#  - a valgrind profile and its conversion: the same rows read off both screenshots;
#  - the callgrind exports of tracekit record --trace of a threaded program (its DCFG-Trace and
#    its DCFG, tests/integration/lib/viewers_real.sh): every row read has tracekit's inclusive
#    percentage and call count, the threads' roots and worker_main among them;
#  - the callgrind export of an XRay FDR trace of the same program: the same, worker_main,
#    queue_pop and handle_job among the rows; parse_expr, parse_term and parse_factor call each
#    other: KCachegrind's "<cycle N>" row has the inclusive percentage and calls of tracekit's
#    cycle, its members' rows their self percentage and calls.
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers.sh
. tests/integration/lib/viewers_real.sh
viewers_need_x
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
xpid=""
trap '[ -n "$xpid" ] && kill "$xpid" 2>/dev/null; [ -n "${TK_KEEP:-}" ] && cp "$tmp"/*.png "$TK_KEEP"/; rm -rf "$tmp"' EXIT
fail=0

"$TRACEKIT" convert --to callgrind -m examples/fib-xray.bin examples/fib.xray -o "$tmp/fib.callgrind" &&
    cp tests/data/callgrind/pass/demo-default.out "$tmp/demo.orig" &&
    "$TRACEKIT" convert --to callgrind "$tmp/demo.orig" -o "$tmp/demo.callgrind" || exit 1
shots=("$tmp/fib.callgrind" "$tmp/demo.orig" "$tmp/demo.callgrind")
viewers_real
if [ -n "$real_mt_trace" ]; then
    "$TRACEKIT" convert --to callgrind --dcfg "$real_mt_dcfg" "$real_mt_trace" \
        -o "$tmp/mt-trace.callgrind" &&
        "$TRACEKIT" convert --to callgrind "$real_mt_dcfg" -o "$tmp/mt-dcfg.callgrind" || exit 1
    shots+=("$tmp/mt-trace.callgrind" "$tmp/mt-dcfg.callgrind")
fi
if [ -n "$real_xray" ]; then
    "$TRACEKIT" convert --to callgrind -m "$real_mtpool" "$real_xray" -o "$tmp/mt-xray.callgrind" ||
        exit 1
    shots+=("$tmp/mt-xray.callgrind")
fi

# a free display number
for d in $(seq 91 140); do [ -e /tmp/.X$d-lock ] || break; done
# -noreset: without it Xvfb resets when its last client leaves, and a KCachegrind started in
# that moment cannot connect (3 starts in 32 aborted so: "could not connect to display")
Xvfb ":$d" -screen 0 2400x1400x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xpid=$!
mkdir -p "$tmp/home/.config" "$tmp/run"
chmod 700 "$tmp/run"
# KTipDialog reads RunOnStart from the group TipOfDay ([Tip] left the "Did you know" dialog on,
# over the flat profile now and then)
printf '[TipOfDay]\nRunOnStart=false\n' >"$tmp/home/.config/kcachegrindrc"
cat >"$tmp/shots.sh" <<'EOF'
# inside dbus-run-session: each file in KCachegrind, a screenshot once its window shows
shoot() { # FILE: KCachegrind on it, screenshots until its flat profile is drawn (0) or not (1)
    local f=$1 k ok=1 png=$1.${KC_PNG:-png}
    kcachegrind -qwindowgeometry 2400x1400+0+0 "$f" >"$f.log" 2>&1 &
    k=$!
    for _ in $(seq 1 100); do
        xdotool search --onlyvisible --name "$(basename "$f")" >/dev/null 2>&1 && break
        kill -0 "$k" 2>/dev/null || break    # it died: no window to wait for
        sleep 0.2
    done
    # the lists fill after the window shows
    for _ in $(seq 1 80); do
        kill -0 "$k" 2>/dev/null || break
        sleep 0.5
        import -window root -crop 720x960+0+0 "$png"
        python3 "$KC_FLAT" --ready "$png" && { ok=0; break; }
    done
    kill -0 "$k" 2>/dev/null && sleep 1    # the rest of the rows
    import -window root -crop 720x960+0+0 "$png"
    kill "$k" 2>/dev/null
    wait "$k" 2>/dev/null
    return $ok
}
for f in "$@"; do
    # a second start when the first never drew (seen under a full make check, when Xvfb
    # was resetting before -noreset)
    shoot "$f" || shoot "$f" || {
        echo "KCachegrind never drew $f; its log: $(head -c 400 "$f.log")" >&2
        [ -n "${TK_KEEP:-}" ] && cp "$f.${KC_PNG:-png}" "$TK_KEEP/"
    }
done
EOF
for _ in $(seq 1 50); do [ -e "/tmp/.X11-unix/X$d" ] && break; sleep 0.1; done
shots() { # FILE...: their screenshots FILE.png (with KC_PNG=dpi120.png and QT_FONT_DPI=120: the
    # second rendering, FILE.dpi120.png)
    KC_FLAT=$PWD/tests/viewers/kcachegrind_flat.py HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config \
        XDG_RUNTIME_DIR=$tmp/run DISPLAY=":$d" QT_QPA_PLATFORM=xcb TK_KEEP=${TK_KEEP:-} \
        dbus-run-session -- bash "$tmp/shots.sh" "$@" 2>"$tmp/shots.err"
    grep -v '^dbus-daemon\|SpiRegistry' "$tmp/shots.err"
}
shots "${shots[@]}"
for f in "${shots[@]}"; do
    [ -s "$f.png" ] || { echo "FAIL: no screenshot of $f"; fail=1; }
done
[ $fail = 0 ] || exit 1
python3 tests/viewers/kcachegrind_flat.py "$tmp"/*.png >"$tmp/rows" || exit 1
for f in fib mt-trace mt-dcfg mt-xray; do
    [ -s "$tmp/$f.callgrind" ] || continue
    "$TRACEKIT" report --inclusive --format=json "$tmp/$f.callgrind" >"$tmp/$f.json" || exit 1
done
cat >"$tmp/check.py" <<'PY'
import json, os, re, subprocess, sys
from difflib import SequenceMatcher
tmp = sys.argv[1]
shots = {}
for line in open(f"{tmp}/rows"):
    d = json.loads(line)
    shots[d["file"].rsplit("/", 1)[1][:-4]] = d["rows"]
bad = []

def key(s):
    return re.sub(r"[^a-z0-9]", "", s.lower())

def expected(name):
    rep = json.load(open(f"{tmp}/{name}.json"))
    total = rep["totals"][0]
    return [(f["name"], "%.2f" % (100.0 * f["inclusive"][0] / total), str(f["calls"]),
             "%.2f" % (100.0 * f["self"][0] / total)) for f in rep["functions"]]

def near(shown, want):
    # KCachegrind and tracekit round the percentage each their own way (16.27 and 16.26 %)
    # KCachegrind prints two decimals always: a point tesseract lost ("7777" for 77.77, seen
    # at both scales in one run) goes back before the last two digits; the digits must agree
    if re.fullmatch(r"[0-9]{3,5}", shown):
        shown = shown[:-2] + "." + shown[-2:]
    try:
        return abs(float(shown) - float(want)) <= 0.0101
    except ValueError:
        return shown == want

def cycles(name):
    rep = json.load(open(f"{tmp}/{name}.json"))
    total = rep["totals"][0]
    return [("%.2f" % (100.0 * c["inclusive"][0] / total), str(c["calls"]))
            for c in rep.get("cycles", []) if c["members"] > 1]

def check(shot, want, must, cyc=None):
    # tesseract misreads a digit or a point now and then (56.34 as 36.34, 69.45 as 9.45, in
    # about one full run of two): a shot that disagrees is read again at other scales, and a
    # row disagrees only if it disagrees in every reading (a misread that lands exactly on
    # tracekit's number is not a risk worth a flaky suite; a wrong number disagrees in all)
    found = first = check_once(shot, want, must, cyc)
    for scale in ("4", "3", "5"):
        if not found:
            break
        shots[shot] = read_shot(f"{tmp}/{shot}.png", TK_OCR_SCALE=scale)
        again = check_once(shot, want, must, cyc)
        found = {k: again[k] for k in found if k in again}
    if not found:
        return
    # The same pixels read at other scales share their misreads (queue_pop's Incl. 67.05 read
    # 97.05 at all four, one run in five): the file is drawn again at 120 dpi (other glyphs,
    # 20 px rows) and a row that disagrees at every scale passes only if that rendering reads
    # it right (every number of the row, or the row itself where the first did not read it)
    # and the first's numbers are a known misread of tracekit's (confusable): a number that is
    # wrong disagrees in both, a misread of another kind fails as before
    second = f"{tmp}/{shot}.dpi120.png"
    if not os.path.exists(second):
        again_shots.append(shot)
        return
    rows = shots[shot]
    shots[shot] = read_shot(second, TK_OCR_ROW="20", TK_OCR_TOP="5", TK_OCR_INCL_X="28",
                            TK_OCR_NAME_W="125")
    at120 = check_once(shot, want, must, cyc)
    shots[shot] = rows
    for k, (msg, pairs) in found.items():
        if k in at120 or k not in seen_ok[shot]:
            bad.append(f"{msg}; at 120 dpi: {at120[k][0] if k in at120 else 'not read'}")
        elif not all(confusable(a, b) for a, b in first[k][1]):
            bad.append(f"{first[k][0]} (read right at 120 dpi, but not a known misread)")
        else:
            print(f"{shot}: {msg}: read right at 120 dpi (a known misread at 96)")

# the digits tesseract takes for one another in KCachegrind's font at 96 dpi (6 for 9 and 9
# for 6, 8 and 3, 5 and 3, seen in the suite's runs), and a first digit lost
CONFUSED = {"69", "96", "83", "38", "53", "35"}

def confusable(shown, want):
    shown, want = shown.replace(",", ""), want.replace(",", "")
    wants = {want}
    if re.fullmatch(r"[0-9]+\.[0-9]{2}", want):    # rounded each its own way, as near() allows
        wants |= {"%.2f" % (float(want) + d) for d in (-0.01, 0.01)}
    return any(shown == w[1:] or (len(shown) == len(w) and shown != w and
                                  all(a == b or a + b in CONFUSED for a, b in zip(shown, w)))
               for w in wants)

def read_shot(png, **env):
    out = subprocess.run([sys.executable, "tests/viewers/kcachegrind_flat.py", png],
                         env=dict(os.environ, **env), capture_output=True, check=True,
                         text=True).stdout
    return json.loads(out.splitlines()[0])["rows"]

def check_once(shot, want, must, cyc):
    # found: what disagrees, each (message, [(number read, tracekit's)]); seen_ok[shot]: the
    # functions, cycles and rows that the reading read and found right
    rows = shots[shot]
    seen = set()
    found = {}
    ok = seen_ok[shot] = set()
    for r in rows:
        called = r["called"].replace(" ", "").replace(",", "").strip("()") or "0"
        # KCachegrind's cycle detection (on by default): a cycle of functions calling each
        # other is a row "<cycle N>" with the cycle's inclusive cost (tracekit's cycles), and its
        # members' rows "NAME <cycle N>" show their self cost as inclusive
        if r["name"].replace(" ", "").startswith("<cy") and cyc is not None:
            k = ("cycle", r["name"].replace(" ", ""))
            if not any(near(r["incl"], c[0]) and called == c[1] for c in cyc):
                found[k] = (f"{shot}: KCachegrind shows {r['name']!r} at {r['incl']} % called "
                            f"{called}, tracekit's cycles {cyc}",
                            [(r["incl"], c[0]) for c in cyc if called == c[1]] or [("?", "-")])
            else:
                ok.add(k)
            continue
        if r["name"].find("<") > 0:    # a cycle's member (C names: no templates)
            r = dict(r, name=r["name"][:r["name"].find("<")].strip(), incl="-")
        # the function of this row: the best name match (names are cut at the dock's edge)
        best = max(want, key=lambda w: SequenceMatcher(None, key(w[0])[:len(key(r["name"]))],
                                                         key(r["name"])).ratio())
        if SequenceMatcher(None, key(best[0])[:len(key(r["name"]))], key(r["name"])).ratio() < 0.75:
            continue
        # a name cut before what tells it from others (the XRay runtime's __sanitizer::...
        # functions): not compared
        if sum(1 for w in want if key(w[0]).startswith(key(r["name"])[:12])) > 1 and \
                not any(key(w[0]) == key(r["name"]) for w in want):
            continue
        seen.add(best[0])
        # the Incl. column may be too narrow for its number ("-"): Self is compared then
        pairs = [(a, b) for a, b, right in ((r["incl"], best[1], r["incl"] == "-" or
                                                near(r["incl"], best[1])),
                                               (r["self"], best[3], near(r["self"], best[3])),
                                               (called, best[2], called == best[2])) if not right]
        if pairs:
            found[best[0]] = (f"{shot}: KCachegrind shows {r['name']!r} at {r['incl']} % ({r['self']} % "
                       f"self) called {r['called'] or '-'}, tracekit {best[0]!r} {best[1]} % "
                       f"({best[3]} % self) called {best[2]}", pairs)
        else:
            ok.add(best[0])
    for m in must:
        if m not in seen:
            found[("must", m)] = (f"{shot}: {m!r} not read off the flat profile ({rows[:6]})", [])
        else:
            ok.add(("must", m))
    print(f"{shot}: {len(rows)} rows read, {len(seen)} functions compared")
    return found

seen_ok = {}
again_shots = []
fib = expected("fib")
check("fib.callgrind", fib, ["fib", "sum_squares"])
# the thread's root first, at 100 %, called by nobody (its digits read badly)
top = shots["fib.callgrind"][0]
if top["incl"] != "100.00" or top["called"] != "(0)" or not top["name"].startswith("thread"):
    bad.append(f"fib.callgrind: the first row is {top}, not the thread's root")
if ("fib", "99.44", "177", "99.44") not in fib:
    bad.append(f"fib.callgrind: tracekit's own numbers moved: {fib}")
for shot in ("mt-trace", "mt-dcfg"):
    if shot + ".callgrind" in shots:
        check(shot + ".callgrind", expected(shot), ["thread 0", "start_thread", "worker_main"],
              cycles(shot))
if "mt-xray.callgrind" in shots:
    check("mt-xray.callgrind", expected("mt-xray"), ["worker_main", "queue_pop", "handle_job"],
          cycles("mt-xray"))
if shots["demo.orig"] != shots["demo.callgrind"]:
    bad.append("demo: the flat profile of the conversion differs from the original's")
    for a, b in zip(shots["demo.orig"], shots["demo.callgrind"]):
        if a != b:
            bad.append(f"    {a} | {b}")
for b in bad:
    print("FAIL: " + b)
if again_shots:    # the files to draw again at 120 dpi, then read again (exit 3)
    open(f"{tmp}/again", "w").write("".join(f"{tmp}/{s}\n" for s in again_shots))
    sys.exit(3)
sys.exit(1 if bad else 0)
PY
python3 "$tmp/check.py" "$tmp"
rc=$?
if [ $rc = 3 ]; then
    mapfile -t again <"$tmp/again"
    echo "drawn again at 120 dpi: ${again[*]##*/}"
    KC_PNG=dpi120.png QT_FONT_DPI=120 shots "${again[@]}"
    python3 "$tmp/check.py" "$tmp" || fail=1
elif [ $rc != 0 ]; then
    fail=1
fi
exit $fail
