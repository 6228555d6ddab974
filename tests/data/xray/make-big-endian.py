#!/usr/bin/env python3
"""Writes pass/calltree-typed-be.fdr: pass/calltree-typed.fdr with every multi-byte field in
big-endian order (no big-endian XRay writer is at hand). Records are still told apart by bit 0 of
their first byte, as llvm-xray does, so this works for function ids below 2^20 (the first byte of
a big-endian function record is then 0). `tracekit dump` of both files must agree record by record."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "pass", "calltree-typed.fdr"), "rb").read()
out = bytearray()


def swap(fmt_le, data, off):
    """Re-encode the fields at data[off:] from little-endian fmt to big-endian."""
    vals = struct.unpack_from("<" + fmt_le, data, off)
    return struct.pack(">" + fmt_le, *vals)


version, ftype = struct.unpack_from("<HH", src, 0)
assert ftype == 1 and version == 5
out += swap("HHIQQ", src, 0) + src[24:32]  # the reserved 8 bytes stay as they are
pos = 32
# FDR v5: BufferExtents then n bytes of records
META_FIELDS = {  # kind -> (struct of the payload at offset 1, payload length)
    0: "i", 1: "", 2: "HQ", 3: "Q", 4: "QI", 5: "ii", 6: "Q", 7: "Q", 8: "iiH", 9: "i",
}
while pos < len(src):
    assert src[pos] == 0x0F
    n = struct.unpack_from("<Q", src, pos + 1)[0]
    out += bytes([0x0F]) + struct.pack(">Q", n) + src[pos + 9 : pos + 16]
    end = pos + 16 + n
    pos += 16
    while pos < end:
        b0 = src[pos]
        if b0 & 1:
            kind = b0 >> 1
            fmt = META_FIELDS[kind]
            size = struct.calcsize("<" + fmt)
            out += bytes([b0]) + swap(fmt, src, pos + 1) + src[pos + 1 + size : pos + 16]
            payload = 0
            if kind in (5, 8):
                payload = struct.unpack_from("<i", src, pos + 1)[0]
                out += src[pos + 16 : pos + 16 + payload]
            pos += 16 + payload
        else:
            w, delta = struct.unpack_from("<II", src, pos)
            assert (w >> 4) < (1 << 20)
            out += struct.pack(">II", w, delta)
            pos += 8
with open(os.path.join(here, "pass", "calltree-typed-be.fdr"), "wb") as f:
    f.write(out)
