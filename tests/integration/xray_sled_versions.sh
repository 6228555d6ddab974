#!/usr/bin/env bash
# Sled entry versions: clang 14 writes PC-relative (version 2) xray_instr_map entries; older
# compilers wrote absolute addresses (versions 0 and 1). This rewrites a copy of a real binary's
# map into absolute version-1 entries (same functions, same order) and checks that
# `tracekit instr-map` and `tracekit report -m` give the same ids, addresses and names for both.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
D=tests/data/xray
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$D/bin/mtpool" "$tmp/mtpool-v1" <<'PY' || exit 1
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1  # ELF64 little-endian
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
def section(i):
    return struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
names_off = section(shstrndx)[4]
for i in range(shnum):
    name, _, _, addr, off, size, _, _, _, _ = section(i)
    end = data.index(b"\0", names_off + name)
    if data[names_off + name:end] == b"xray_instr_map":
        break
else:
    sys.exit("no xray_instr_map")
for e in range(size // 32):
    p = off + e * 32
    sled, func = struct.unpack_from("<qq", data, p)
    assert data[p + 18] == 2
    entry = addr + e * 32
    struct.pack_into("<QQ", data, p, entry + sled, entry + func + 8)
    data[p + 18] = 1
open(sys.argv[2], "wb").write(data)
PY
"$TRACEKIT" instr-map "$D/bin/mtpool" | tail -n +2 >"$tmp/v2" || exit 1
"$TRACEKIT" instr-map "$tmp/mtpool-v1" | tail -n +2 >"$tmp/v1" || exit 1
head -1 <("$TRACEKIT" instr-map "$tmp/mtpool-v1")
if ! cmp -s "$tmp/v1" "$tmp/v2"; then echo "extract differs:"; diff "$tmp/v2" "$tmp/v1" | head; exit 1; fi
"$TRACEKIT" report -m "$D/bin/mtpool" "$D/pass/mtpool.fdr" >"$tmp/r2" 2>&1
"$TRACEKIT" report -m "$tmp/mtpool-v1" "$D/pass/mtpool.fdr" >"$tmp/r1" 2>&1
if ! cmp -s "$tmp/r1" "$tmp/r2"; then echo "report differs:"; diff "$tmp/r2" "$tmp/r1" | head; exit 1; fi
echo "absolute (version 1) and PC-relative (version 2) sleds give the same map and report"
