#!/usr/bin/env python3
"""Writes pass/calltree-events-only.fdr: pass/calltree-typed.fdr with its function records (and
their call arguments) left out, each buffer's extents cut to match: a thread that has only a
custom and a typed event, no call. Given with a trace of the same pid (calltree-typed.fdr), its
thread makes that pid an earlier trace's: Chrome JSON writes it, so every per-thread output must
key the later trace's threads by it (tests/cli/xray/several_traces_events_only)."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "pass", "calltree-typed.fdr"), "rb").read()
version, ftype = struct.unpack_from("<HH", src, 0)
assert ftype == 1 and version == 5
out = bytearray(src[:32])
pos = 32
while pos < len(src):
    assert src[pos] == 0x0F  # BufferExtents(n), then n bytes of records
    n = struct.unpack_from("<Q", src, pos + 1)[0]
    extents_rest = src[pos + 9 : pos + 16]
    end = pos + 16 + n
    pos += 16
    kept = bytearray()
    while pos < end:
        b0 = src[pos]
        if not b0 & 1:  # a function record: 8 bytes
            pos += 8
            continue
        kind = b0 >> 1
        size = 16
        if kind in (5, 8):  # custom and typed events: their payload follows
            size += struct.unpack_from("<i", src, pos + 1)[0]
        if kind != 6:  # a CallArgument belongs to the enter left out
            kept += src[pos : pos + size]
        pos += size
    assert pos == end
    out += bytes([0x0F]) + struct.pack("<Q", len(kept)) + extents_rest
    out += kept
with open(os.path.join(here, "pass", "calltree-events-only.fdr"), "wb") as f:
    f.write(out)
