#!/usr/bin/env python3
"""Derives the bad-input cases in fail/ from the real traces in pass/ (run from any directory).
Each case breaks one rule; `tracekit check` must report it with a byte offset and exit 1."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(here, "pass", "calltree.fdr"), "rb").read()
basic = open(os.path.join(here, "pass", "calltree.basic"), "rb").read()
out = os.path.join(here, "fail")
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def meta(kind, payload=b""):
    return bytes([(kind << 1) | 1]) + payload.ljust(15, b"\0")


first_extents = struct.unpack_from("<Q", src, 33)[0]
body = 48  # first record after the first BufferExtents
# the offset of the first function record of the first buffer (after NewBuffer, Walltime, Pid, NewCPUId)
func0 = body + 4 * 16

write("truncated-record.fdr", src[: func0 + 3])
write("truncated-header.fdr", src[:20])
write("version-9.fdr", struct.pack("<H", 9) + src[2:])
write("unknown-metadata-kind.fdr", src[:func0] + meta(12) + src[func0 + 16 :])
bad_func = bytearray(src)
w = struct.unpack_from("<I", bad_func, func0)[0]
struct.pack_into("<I", bad_func, func0, (w & ~0xE) | (5 << 1))
write("unknown-function-kind.fdr", bytes(bad_func))
ext = bytearray(src)
struct.pack_into("<Q", ext, 33, first_extents + 1000000)
write("extents-past-end.fdr", bytes(ext))
eob = bytearray(src)
eob[func0 : func0 + 16] = meta(1)
write("end-of-buffer-in-v5.fdr", bytes(eob))
# CallArgument straight after NewCPUId
ca = bytearray(src)
ca[func0 : func0 + 16] = meta(6, struct.pack("<Q", 7))
write("call-arg-without-enter.fdr", bytes(ca))
# missing NewBuffer: the first record of the buffer is a Walltime
nb = bytearray(src)
nb[body : body + 16] = meta(4, struct.pack("<QI", 1, 2))
write("missing-new-buffer.fdr", bytes(nb))
# a TSC wrap storm: 64 TSCWrap records, each going backwards, in place of function records
storm = bytearray(src)
tsc = struct.unpack_from("<Q", src, body + 3 * 16 + 3)[0]
for i in range(64):
    storm[func0 + 16 * i : func0 + 16 * (i + 1)] = meta(3, struct.pack("<Q", tsc - 1000 * (i + 1)))
write("tsc-wrap-storm.fdr", bytes(storm))
# custom event whose payload runs past the buffer
ce = bytearray(src)
ce[func0 : func0 + 16] = meta(5, struct.pack("<ii", 1 << 20, 0))
write("custom-event-past-buffer.fdr", bytes(ce))
write("bad-file-type.fdr", src[:2] + struct.pack("<H", 7) + src[4:])
write("truncated.basic", basic[: 32 + 32 * 3 + 10])
open(os.path.join(here, "pass", "header-only.basic"), "wb").write(basic[:32])  # valid, empty
bad_basic = bytearray(basic)
struct.pack_into("<H", bad_basic, 32, 9)
write("unknown-record-type.basic", bytes(bad_basic))
# traces cut short (a crashed copy, `head -c N`): report, convert, diff, info and dump read up
# to the cut and warn where it is (exit 0); check fails on them
mtpool = open(os.path.join(here, "pass", "mtpool.fdr"), "rb").read()
write("mtpool-cut.fdr", mtpool[:40045])  # 5 bytes into the enter record at byte 40040
write("calltree-cut.basic", basic[:12820])  # 20 bytes into the record at byte 12800
