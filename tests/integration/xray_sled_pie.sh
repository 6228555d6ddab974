#!/usr/bin/env bash
# Absolute (version 1) sled entries in real binaries (tests/data/xray/make-abs-sleds.sh):
# bin/calltree-abs-pie, a PIE linked by lld, whose xray_instr_map holds zeros in the file (only
# the R_X86_64_RELATIVE relocations give the addresses), and bin/calltree-abs-nopie, a non-PIE
# with link-time addresses. For each, with the FDR trace the XRay runtime wrote when it ran:
#  1. ids, function addresses and names equal `llvm-xray extract --symbolize`;
#  2. ids, names and source lines equal those of bin/calltree (same source, PC-relative sleds);
#  3. `report -m BIN` equals `report -m bin/calltree` on the same trace;
#  4. `report --format=csv --unit s` numbers equal `llvm-xray account -instr_map=BIN`.
set -u
cd "$(dirname "$0")/../.."
XRAY=$(command -v llvm-xray || command -v llvm-xray-14) || { echo "llvm-xray not installed"; exit 77; }
TRACEKIT=${TRACEKIT:-build/tracekit}
D=tests/data/xray
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

"$TRACEKIT" instr-map "$D/bin/calltree" | awk '!/^#/ { print $1, $5, $6 }' >"$tmp/ref-names"
for kind in pie nopie; do
    bin=$D/bin/calltree-abs-$kind trace=$D/pass/calltree-abs-$kind.fdr
    # the binary is what the test needs: version-1 entries; for the PIE, zeros in the file
    python3 - "$bin" "$kind" <<'PY' || { fail=1; continue; }
import struct, sys
data = open(sys.argv[1], "rb").read()
e_type, = struct.unpack_from("<H", data, 16)
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
sec = lambda i: struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
names = sec(shstrndx)[4]
for i in range(shnum):
    s = sec(i)
    if data[names + s[0]:data.index(b"\0", names + s[0])] == b"xray_instr_map":
        off, size = s[4], s[5]
        break
else:
    sys.exit("no xray_instr_map")
entries = [data[off + j:off + j + 32] for j in range(0, size, 32)]
assert all(e[18] == 1 for e in entries), "not all entries are version 1"
stored = [struct.unpack_from("<QQ", e)[0] for e in entries]
if sys.argv[2] == "pie":
    assert e_type == 3, "not a PIE (ET_DYN)"
    assert not any(stored), "the PIE's map holds addresses: the relocations would not be tested"
else:
    assert e_type == 2 and all(stored), "not an ET_EXEC with absolute addresses"
print(f"{sys.argv[1]}: {len(entries)} version-1 entries, ELF type {e_type}")
PY
    "$XRAY" extract --symbolize "$bin" 2>/dev/null |
        sed -n 's/.*id: \([0-9]*\), address: [^,]*, function: 0x\([0-9A-Fa-f]*\), kind: [a-z-]*, .*function-name: \([^,]*\), version.*/\1 \2 \3/p' |
        awk '{ print $1, tolower($2), $3 }' | sort -n -u >"$tmp/llvm-map"
    "$TRACEKIT" instr-map "$bin" | awk '!/^#/ { sub(/^0x/, "", $2); print $1, $2, $5 }' | sort -n >"$tmp/our-map"
    if [ -s "$tmp/llvm-map" ] && cmp -s "$tmp/llvm-map" "$tmp/our-map"; then
        echo "extract abs-$kind: $(wc -l <"$tmp/our-map") functions, ids/addresses/names equal llvm-xray"
    else
        echo "extract abs-$kind differs from llvm-xray:"; diff "$tmp/llvm-map" "$tmp/our-map" | head; fail=1
    fi
    "$TRACEKIT" instr-map "$bin" | awk '!/^#/ { print $1, $5, $6 }' >"$tmp/names"
    if cmp -s "$tmp/ref-names" "$tmp/names"; then
        echo "instr-map abs-$kind: ids, names and lines equal the PC-relative binary's"
    else
        echo "instr-map abs-$kind differs from bin/calltree:"; diff "$tmp/ref-names" "$tmp/names" | head; fail=1
    fi
    "$TRACEKIT" report --all -m "$bin" "$trace" >"$tmp/r-abs" 2>&1 || fail=1
    "$TRACEKIT" report --all -m "$D/bin/calltree" "$trace" >"$tmp/r-ref" 2>&1 || fail=1
    if [ "$(grep -c 'calltree.c:' "$tmp/r-abs")" -gt 50 ] && cmp -s "$tmp/r-abs" "$tmp/r-ref"; then
        echo "report abs-$kind: $(grep -c 'calltree.c:' "$tmp/r-abs") named functions, equal with either map"
    else
        echo "report abs-$kind differs:"; diff "$tmp/r-ref" "$tmp/r-abs" | head; fail=1
    fi
    "$XRAY" account -format=csv -sort=funcid -instr_map="$bin" "$trace" -o "$tmp/llvm.csv" 2>/dev/null ||
        { echo "llvm-xray account failed on abs-$kind"; fail=1; continue; }
    "$TRACEKIT" report --format=csv --sort=funcid --unit s -m "$bin" "$trace" >"$tmp/ours.csv" || { fail=1; continue; }
    python3 - "$tmp/llvm.csv" "$tmp/ours.csv" "account abs-$kind" <<'PY' || fail=1
import csv, sys
load = lambda p: {int(r["funcid"]): r for r in csv.DictReader(open(p))}
llvm, ours, label = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
if not llvm or set(llvm) != set(ours):
    sys.exit(f"{label}: function sets differ: {sorted(llvm)} vs {sorted(ours)}")
bad = 0
for fid, a in llvm.items():
    b = ours[fid]
    bad += int(a["count"]) != int(b["count"]) or b["unit"] != "s"
    for k in ("min", "median", "90%ile", "99%ile", "max", "sum"):
        x, y = float(a[k]), float(b[k])
        bad += abs(x - y) > 1e-6 * abs(x) + 1e-15
print(f"{label}: {len(llvm)} functions compared with llvm-xray account, {bad} differences")
sys.exit(1 if bad else 0)
PY
done
exit $fail
