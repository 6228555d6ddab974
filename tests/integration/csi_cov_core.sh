#!/usr/bin/env bash
# `tracekit coverage` on real crashes. The suite builds a program (two source
# files, tests/data/csi_cov/crash/) whose coverage arrays are laid out as
# csi-cc lays them out, with the matching .debug_FC/.debug_CC/.debug_BBC added
# to its objects by `objcopy --add-section` (gen-metadata.awk writes them), and
# crashes it on purpose (a store through NULL) to get its core three ways:
#   gdb    gdb runs it and writes the core at the SIGSEGV with `gcore`
#          (ptrace of its own child: works in containers)
#   kernel `ulimit -c unlimited`, when core_pattern names a plain file here
#          (a pattern piped to a handler, like systemd-coredump's, is skipped)
#   self   the program writes its own core in its SIGSEGV handler (selfcore.c:
#          the kernel's default layout), which works anywhere
# plus a raw memory image (gdb's `dump binary memory` of the arrays) read with
# --load-address (fixed-address build) and --bias (PIE). For each:
#  1. the report lists exactly the sites, functions, blocks and lines the
#     program ran before the crash (expected.csv, checked by hand against the
#     program: a call counts once it has returned, so the call to crash_now
#     on the crashed stack does not);
#  2. every array byte tracekit read equals what gdb prints for that symbol
#     in the same core (gdb is the oracle when present).
# With .debug_PT too (pt.c, path tracing written by hand as csi-cc's
# PathTracing.cpp does it), the crashed thread is unwound and main's
# path-tracing locals must read as the program left them (and as gdb reads
# them in that frame), and decode to the paths it ran.
# Then bad input: a truncated core, a program that is not the core's (same
# code, other build id), arrays outside the image, a program without the
# sections, a stripped program, a program given as its own core: each a
# located error, exit 1, no crash (also under the ASan build when it exists).
# Exit 77 only when no core could be made at all (no gdb, kernel cores piped
# away, and the self-writing program not supported on this machine).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
T=${TRACEKIT:-build/tracekit}
case "$T" in /*) ;; *) T="$root/$T" ;; esac
S=tests/data/csi_cov/crash
for tool in gcc objcopy awk python3 nm strip; do
    command -v $tool >/dev/null || { echo "$tool missing"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# ---- the program -----------------------------------------------------------
for s in crash helper; do
    awk -v out="$tmp/$s" -f $S/gen-metadata.awk $S/$s.c
    gcc -g -O0 -I$S -include "$tmp/$s.arrays.h" -c $S/$s.c -o "$tmp/$s.o" || exit 1
    args=()
    for k in FC CC BBC; do
        args+=(--add-section ".debug_$k=$tmp/$s.$k.txt" --set-section-flags ".debug_$k=readonly,debug")
    done
    objcopy "${args[@]}" "$tmp/$s.o" "$tmp/$s-cov.o" || exit 1
done
gcc -g -O0 -c $S/selfcore.c -o "$tmp/selfcore.o" || exit 1
objs=("$tmp/crash-cov.o" "$tmp/helper-cov.o")
gcc -o "$tmp/prog" "${objs[@]}" && gcc -no-pie -o "$tmp/prog-nopie" "${objs[@]}" &&
    gcc -o "$tmp/prog-self" "${objs[@]}" "$tmp/selfcore.o" &&
    gcc -o "$tmp/prog-other" -Wl,--build-id=0x0123456789abcdef "${objs[@]}" &&
    gcc -o "$tmp/prog-plain" "$tmp/crash.o" "$tmp/helper.o" || exit 1
objcopy --strip-symbol=__CC_arr_crash_c_main "$tmp/prog" "$tmp/prog-nosym" || exit 1
"$T" check --from csi-bbc "$tmp/prog" >/dev/null 2>&1 &&
    "$T" check --from csi-cc "$tmp/prog" >/dev/null 2>&1 &&
    "$T" check --from csi-fc "$tmp/prog" >/dev/null 2>&1 && ok "the generated sections check" ||
    bad "the generated sections do not check"

# ---- cores -----------------------------------------------------------------
cores=()
have_gdb=0
if command -v gdb >/dev/null; then
    (cd "$tmp" && gdb -q -batch -ex run -ex 'gcore gdb.core' ./prog >gdb.log 2>&1)
    if [ -s "$tmp/gdb.core" ]; then cores+=(prog:gdb.core); have_gdb=1
    else echo "note: gdb could not make a core here:"; tail -3 "$tmp/gdb.log"; fi
else
    echo "note: no gdb: no gcore core, no raw image, no gdb oracle"
fi
pattern=$(cat /proc/sys/kernel/core_pattern 2>/dev/null || echo '|')
case "$pattern" in
    '|'* | */*) echo "note: core_pattern '$pattern' does not leave the core here: no kernel core" ;;
    *)
        mkdir "$tmp/k"
        { (cd "$tmp/k" && ulimit -c unlimited 2>/dev/null && exec ../prog); } >/dev/null 2>&1
        kcore=$(ls "$tmp/k" 2>/dev/null | head -1)
        if [ -n "$kcore" ]; then mv "$tmp/k/$kcore" "$tmp/kernel.core"; cores+=(prog:kernel.core)
        else echo "note: the kernel wrote no core (ulimit -c, suid, or pattern '$pattern')"; fi ;;
esac
{ (cd "$tmp" && SELFCORE="$tmp/self.core" exec ./prog-self); } >/dev/null 2>&1
if [ -s "$tmp/self.core" ]; then cores+=(prog-self:self.core)
else echo "note: the program could not write its own core (not x86-64 or AArch64?)"; fi
[ ${#cores[@]} -gt 0 ] || { echo "no core could be made here (no gdb, no kernel core, no self core)"; exit 77; }

# the arrays' bytes as gdb prints them, against tracekit's reading
cat > "$tmp/oracle.py" <<'PY'
import json, re, subprocess, sys
binary, core, report = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
syms = [l.split()[2] for l in subprocess.run(["nm", binary], capture_output=True, text=True).stdout.splitlines()
        if re.search(r" __(CC|FC|BBC)_arr_", l)]
args = ["gdb", "-q", "-batch", "-nx"]
for s in syms:
    args += ["-ex", "p/x " + s]
out = subprocess.run(args + [binary, core], capture_output=True, text=True).stdout
vals = re.findall(r"^\$\d+ = (.*)$", out, re.M)
if len(vals) != len(syms):
    sys.exit("gdb printed %d values for %d arrays" % (len(vals), len(syms)))
gdb = {s: [int(x, 16) for x in re.findall(r"0x[0-9a-f]+", v)] for s, v in zip(syms, vals)}
checked = 0
for f in report["functions"]:
    key = f["key"]
    if "entered" in f and ("__FC_arr_" + key) in gdb:
        if (gdb["__FC_arr_" + key][0] != 0) != (f["entered"] == "yes"):
            sys.exit("%s: FC differs from gdb" % f["function"])
        checked += 1
    for kind, arr in (("sites", "__CC_arr_"), ("blocks", "__BBC_arr_")):
        for e in f.get(kind, []):
            if e["index"] < 0:
                continue
            if (gdb[arr + key][e["index"]] != 0) != (e["covered"] == "yes"):
                sys.exit("%s %s %d differs from gdb" % (f["function"], kind, e["index"]))
            checked += 1
print("%d array bytes equal to gdb's" % checked)
PY

normalize() { sed 's|^\([^,]*\),[^,]*/\([^/,]*\),|\1,\2,|'; }
for bc in "${cores[@]}"; do
    bin=${bc%%:*} core=${bc#*:}
    "$T" coverage --format csv "$tmp/$bin" "$tmp/$core" > "$tmp/got.csv" 2>"$tmp/err" ||
        { bad "$core: exit $?: $(cat "$tmp/err")"; continue; }
    if normalize < "$tmp/got.csv" | diff $S/expected.csv - >"$tmp/diff"; then
        ok "$core: exactly the sites, functions, blocks and lines the program ran"
    else bad "$core: the report differs from expected.csv"; head -20 "$tmp/diff"; fi
    if [ $have_gdb = 1 ]; then
        "$T" coverage --format json "$tmp/$bin" "$tmp/$core" > "$tmp/got.json" &&
            msg=$(python3 "$tmp/oracle.py" "$tmp/$bin" "$tmp/$core" "$tmp/got.json") &&
            ok "$core: $msg" || bad "$core: gdb oracle: $msg"
    fi
done
# the same program built with -O2: the static functions twice are inlined
# (no code of their own in the DWARF: their file comes from their arrays'
# names), calls move, the arrays do not: the same report
o2objs=()
for s in crash helper; do
    gcc -g -O2 -I$S -include "$tmp/$s.arrays.h" -c $S/$s.c -o "$tmp/$s-O2.o" &&
        objcopy --add-section .debug_FC="$tmp/$s.FC.txt" --add-section .debug_CC="$tmp/$s.CC.txt" \
            --add-section .debug_BBC="$tmp/$s.BBC.txt" "$tmp/$s-O2.o" "$tmp/$s-O2-cov.o" || exit 1
    o2objs+=("$tmp/$s-O2-cov.o")
done
gcc -o "$tmp/prog-O2" "${o2objs[@]}" "$tmp/selfcore.o" || exit 1
{ (cd "$tmp" && SELFCORE="$tmp/self-O2.core" exec ./prog-O2); } >/dev/null 2>&1
if [ -s "$tmp/self-O2.core" ]; then
    if "$T" coverage --format csv "$tmp/prog-O2" "$tmp/self-O2.core" | normalize |
        diff $S/expected.csv - >"$tmp/diff"; then
        ok "-O2 build (twice inlined): the same report"
    else bad "-O2 build: the report differs from expected.csv"; head -20 "$tmp/diff"; fi
fi
"$T" coverage --format annotate "$tmp/prog" "$tmp/${cores[0]#*:}" > "$tmp/annotated" &&
    grep -q '^+     53 |     BB(main, 4); CALL(main, 3, crash_now' "$tmp/annotated" &&
    grep -q '^-     50 |' "$tmp/annotated" && grep -q '^?     52 |' "$tmp/annotated" &&
    grep -q '^      41 | {' "$tmp/annotated" && ok "annotate marks the sources" ||
    bad "annotate: marks missing"

# ---- raw memory images (gdb dumps the arrays' range) ------------------------
if [ $have_gdb = 1 ]; then
    for bin in prog-nopie prog; do
        range=$(nm -S "$tmp/$bin" | python3 -c '
import sys
r = [(int(l.split()[0], 16), int(l.split()[1], 16)) for l in sys.stdin if "_arr_" in l]
print(min(a for a, s in r), max(a + s for a, s in r))')
        set -- $range
        lo=$1 hi=$2
        (cd "$tmp" && gdb -q -batch -ex run -ex "set \$b = (unsigned long)&__FC_arr_crash_c_main - $(nm "$tmp/$bin" | awk '/ __FC_arr_crash_c_main$/ { print "0x" $1 }')" \
            -ex "printf \"bias %lu\\n\", \$b" -ex "dump binary memory raw-$bin.img $lo+\$b $hi+\$b" "./$bin" > "raw-$bin.log" 2>&1)
        bias=$(sed -n 's/^bias \([0-9]*\)$/\1/p' "$tmp/raw-$bin.log")
        [ -s "$tmp/raw-$bin.img" ] && [ -n "$bias" ] || { bad "$bin: gdb dumped no raw image"; continue; }
        opt=(--load-address $((lo + bias)))
        [ "$bias" = 0 ] || opt+=(--bias "$bias")
        if "$T" coverage --format csv "${opt[@]}" "$tmp/$bin" "$tmp/raw-$bin.img" | normalize | diff -q $S/expected.csv - >/dev/null; then
            ok "raw image of $bin (${opt[*]}): the same report"
        else bad "raw image of $bin (${opt[*]}): the report differs"; fi
    done
fi

# ---- path tracing in the same core -----------------------------------------
# pt.c: main traces its paths (the CFG of the CSI guide's loop example) and
# crashes below main in the fourth iteration: its locals hold the completed
# paths 0, 4, 3 and the sum 4 of the path 4 5 8 in progress, at the line of
# the call (the line marked "PT 8").
awk -f $S/gen-pt.awk $S/pt.c $S/pt.PT.in > "$tmp/pt.PT.txt"
awk -v out="$tmp/pt" -f $S/gen-metadata.awk $S/pt.c
gcc -g -O0 -I$S -include "$tmp/pt.arrays.h" -c $S/pt.c -o "$tmp/pt.o" &&
    objcopy --add-section .debug_PT="$tmp/pt.PT.txt" --add-section .debug_FC="$tmp/pt.FC.txt" \
        --add-section .debug_BBC="$tmp/pt.BBC.txt" "$tmp/pt.o" "$tmp/pt-cov.o" &&
    gcc -o "$tmp/ptprog" "$tmp/pt-cov.o" && gcc -o "$tmp/ptprog-self" "$tmp/pt-cov.o" "$tmp/selfcore.o" ||
    exit 1
"$T" check "$tmp/pt.PT.txt" >/dev/null 2>&1 || bad "the generated .debug_PT does not check"
ptline=$(grep -n 'PT 8 \*/' $S/pt.c | cut -d: -f1)
ptcores=()
if [ $have_gdb = 1 ]; then
    (cd "$tmp" && gdb -q -batch -ex run -ex 'gcore pt-gdb.core' ./ptprog >/dev/null 2>&1)
    [ -s "$tmp/pt-gdb.core" ] && ptcores+=(ptprog:pt-gdb.core)
fi
if [ -d "$tmp/k" ]; then
    rm -f "$tmp"/k/*
    { (cd "$tmp/k" && ulimit -c unlimited 2>/dev/null && exec ../ptprog); } >/dev/null 2>&1
    kcore=$(ls "$tmp/k" 2>/dev/null | head -1)
    [ -n "$kcore" ] && mv "$tmp/k/$kcore" "$tmp/pt-kernel.core" && ptcores+=(ptprog:pt-kernel.core)
fi
{ (cd "$tmp" && SELFCORE="$tmp/pt-self.core" exec ./ptprog-self); } >/dev/null 2>&1
[ -s "$tmp/pt-self.core" ] && [ "$(uname -m)" = x86_64 ] && ptcores+=(ptprog-self:pt-self.core)
[ ${#ptcores[@]} -gt 0 ] || bad "no core of the path-tracing program"
cat > "$tmp/pt-oracle.py" <<'PY'
import json, re, subprocess, sys
binary, core, line, report = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.load(open(sys.argv[4]))
frames = [f for f in report["frames"] if f["traced"]]
if len(frames) != 1 or frames[0]["function"] != "main" or "problem" in frames[0]:
    sys.exit("traced frames: %s" % frames)
f = frames[0]
if f["paths"][:3] != [0, 4, 3] or f["paths"][-1] != -1 or f["idx"] != 3 or f["cur"] != 4 or f["line"] != line:
    sys.exit("main's locals read as %s" % f)
if len(sys.argv) > 5:  # gdb reads the same locals in the same frame
    out = subprocess.run(["gdb", "-q", "-batch", "-nx", "-ex", "frame %d" % f["depth"],
                          "-ex", "p/d __PT_counter_arr", "-ex", "p __PT_counter_idx",
                          "-ex", "p __PT_current_path", binary, core],
                         capture_output=True, text=True).stdout
    vals = re.findall(r"^\$\d+ = (.*)$", out, re.M)
    arr = [int(x) for x in re.findall(r"-?\d+", vals[0])] if vals else None
    if len(vals) != 3 or arr != f["paths"] or int(vals[1]) != f["idx"] or int(vals[2]) != f["cur"]:
        sys.exit("gdb reads %s, tracekit %s" % (vals, f))
print("frame %d: paths %s, idx %d, cur %d at line %d%s" % (f["depth"], f["paths"][:3], f["idx"],
      f["cur"], f["line"], " (= gdb)" if len(sys.argv) > 5 else ""))
PY
for bc in "${ptcores[@]}"; do
    bin=${bc%%:*} core=${bc#*:}
    "$T" coverage --format json "$tmp/$bin" "$tmp/$core" > "$tmp/pt.json" 2>"$tmp/err" ||
        { bad "$core: exit $?: $(cat "$tmp/err")"; continue; }
    msg=$(python3 "$tmp/pt-oracle.py" "$tmp/$bin" "$tmp/$core" "$ptline" "$tmp/pt.json" \
          $([ $have_gdb = 1 ] && echo gdb)) && ok "$core: main's path-tracing locals: $msg" ||
        bad "$core: $msg"
    "$T" coverage "$tmp/$bin" "$tmp/$core" > "$tmp/pt.txt" 2>/dev/null
    # the decoding is `paths --state`'s on the same values
    printf '[state 1]\nfunction=main\narr=0,4,3,0,0,0,0,0,0,-1\nidx=3\ncur=4\nline=%s\n' "$ptline" > "$tmp/pt.state"
    "$T" paths "$tmp/pt.PT.txt" --state "$tmp/pt.state" | sed -n '/completed/,$p' > "$tmp/want.txt"
    sed -n '/^frame [0-9]*: function main/,$p' "$tmp/pt.txt" | sed -n '/completed/,$p' > "$tmp/got.txt"
    if grep -q '^  blocks: 2 4 5 7 9 4 5 8 9 4 5 7 9 4 5 8$' "$tmp/got.txt" &&
        grep -q 'reading 1: 4 5 8  \[after back edge 9~>4' "$tmp/got.txt" &&
        diff -q "$tmp/want.txt" "$tmp/got.txt" >/dev/null; then
        ok "$core: the decoded paths (2 4 5 7 9 | 4 5 8 9 | 4 5 7 9 | 4 5 8 in progress) = paths --state"
    else bad "$core: decoded paths"; diff "$tmp/want.txt" "$tmp/got.txt" | head; fi
done

# ---- bad input -------------------------------------------------------------
core=$tmp/${cores[0]#*:} cbin=$tmp/${cores[0]%%:*}
size=$(wc -c < "$core")
head -c $((size / 2)) "$core" > "$tmp/truncated.core"
head -c 40 "$core" > "$tmp/header-cut.core"
check_error() { # NAME WANT_TEXT TRACEKIT-ARGS...
    local name=$1 want=$2; shift 2
    for t in "$T" ${EXTRA_TK:-}; do
        "$t" coverage "$@" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        if [ $rc = 1 ] && grep -q "$want" "$tmp/err" && ! grep -qi "sanitizer\|runtime error" "$tmp/err"; then
            ok "$name ($(basename "$t")): $(head -1 "$tmp/err" | sed "s|$tmp/||g")"
        else bad "$name ($t): exit $rc, $(head -3 "$tmp/err")"; fi
    done
}
[ -x build-asan/tracekit ] && EXTRA_TK=$root/build-asan/tracekit
check_error "truncated core" "truncated core file" "$cbin" "$tmp/truncated.core"
check_error "core cut in its header" "truncated core file" "$cbin" "$tmp/header-cut.core"
check_error "another build of the program" "does not match the core" "$tmp/prog-other" "$core"
check_error "a fixed-address build against a PIE's core" "does not match the core" "$tmp/prog-nopie" "$core"
check_error "arrays outside the image" "in no memory segment" --load-address 0x1000 "$tmp/prog-nopie" "$tmp/prog-nopie"
check_error "no coverage sections" "no coverage metadata" "$tmp/prog-plain" "$core"
check_error "an array without its symbol" "has no symbol" "$tmp/prog-nosym" "$core"
check_error "a program given as its core" "not a core file" "$cbin" "$cbin"
check_error "a text file given as the core" "not an ELF core file" "$cbin" $S/expected.csv
exit $fail
