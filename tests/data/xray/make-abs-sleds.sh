#!/bin/sh
# Builds calltree with ABSOLUTE (version 1) xray_instr_map sled entries, as compilers before
# LLVM 12 wrote them, as a PIE and as a non-PIE executable, and records an FDR trace of each.
# clang 14 only writes PC-relative (version 2) entries, so the program is compiled to assembly,
# each entry's two `.quad LABEL - .LtmpN` become `.quad LABEL` with version byte 1 (the section
# made writable, as older compilers emitted it), and the result is assembled and linked with
# the XRay runtime. In the PIE the linker turns the addresses into R_X86_64_RELATIVE dynamic
# relocations (the section holds link-time values or zeros; the loader writes the run-time
# addresses), which is the path `tracekit --instr-map` must follow for such binaries.
# Usage: ./make-abs-sleds.sh (from tests/data/xray; needs clang-14 and python3).
# Writes bin/calltree-abs-pie, bin/calltree-abs-nopie and pass/calltree-abs-{pie,nopie}.fdr.
set -eu
cd "$(dirname "$0")"
CC=${CC:-clang-14}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p bin pass
CFLAGS="-std=c2x -O1 -g -fxray-instrument -fxray-instruction-threshold=1 -fdebug-prefix-map=$(pwd)=."

absolute() { # IN.s OUT.s
    python3 - "$1" "$2" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
out, in_map, version_in, entries = [], False, 0, 0
for line in lines:
    s = line.strip()
    if s.startswith(".section"):
        in_map = re.match(r"\.section\s+xray_instr_map,", s) is not None
        if in_map:
            line = line.replace('"ao"', '"awo"')
    elif in_map:
        m = re.match(r"(\s*\.quad\s+)(\S+?)-\(?\.Ltmp\d+(\+8)?\)?$", line)
        if m:  # sled address, then function address
            line = m.group(1) + m.group(2)
            entries += 1
            if entries % 2 == 0:
                version_in = 3  # kind, always-instrument, version
        elif version_in and s.startswith(".byte"):
            version_in -= 1
            if version_in == 0:
                assert re.match(r"\.byte\s+0x02$", s), s
                line = re.sub(r"0x02$", "0x01", line)
    out.append(line)
assert entries and entries % 2 == 0 and version_in == 0
open(sys.argv[2], "w").write("\n".join(out))
print(f"{sys.argv[2]}: {entries // 2} sled entries made absolute", file=sys.stderr)
PY
}

$CC $CFLAGS -fPIE -S -o "$work/pie.s" src/calltree.c
absolute "$work/pie.s" "$work/pie-abs.s"
$CC -c -o "$work/pie-abs.o" "$work/pie-abs.s"
# lld leaves the relocated fields zero in the file (GNU ld also writes the link-time values),
# so only the relocations give the addresses
$CC -fxray-instrument -fuse-ld=lld -pie -o bin/calltree-abs-pie "$work/pie-abs.o"

$CC $CFLAGS -fno-pic -S -o "$work/nopie.s" src/calltree.c
absolute "$work/nopie.s" "$work/nopie-abs.s"
$CC -c -o "$work/nopie-abs.o" "$work/nopie-abs.s"
$CC -fxray-instrument -no-pie -o bin/calltree-abs-nopie "$work/nopie-abs.o"

for kind in pie nopie; do
    rm -rf "$work/log" && mkdir "$work/log"
    XRAY_OPTIONS="patch_premain=true xray_mode=xray-fdr verbosity=0 xray_logfile_base=$work/log/" \
    XRAY_FDR_OPTIONS=func_duration_threshold_us=0 XRAY_CTL_MODE=fdr \
        "bin/calltree-abs-$kind" 1 >/dev/null 2>&1
    set -- "$work"/log/*
    [ $# -eq 1 ] || { echo "make-abs-sleds: expected one log, got $#" >&2; exit 1; }
    mv "$1" "pass/calltree-abs-$kind.fdr"
done
ls -l bin/calltree-abs-* pass/calltree-abs-*
