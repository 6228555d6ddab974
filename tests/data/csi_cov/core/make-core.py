#!/usr/bin/env python3
"""Writes a small ELF core file for a program, as the kernel would lay it out:
NT_AUXV (AT_PHDR, AT_PAGESZ, AT_ENTRY) and NT_FILE notes, the program's first
page (ELF header, build id) and the page of its coverage arrays with the
given bytes set. Options make the damaged variants the tests need.
  make-core.py BIN OUT --bias N --set SYMBOL[+K]=V... [--no-auxv] [--no-head]
               [--no-data] [--other-id] [--truncate N] [--raw ADDRFILE]
               [--crash-pc ADDR --caller SYMBOL+K]
--crash-pc adds the thread (NT_PRSTATUS with NT_PRPSINFO, x86-64) stopped at
ADDR (a link-time address) in a frame called from SYMBOL+K, and its stack.
Reads BIN with the standard library only (ELF64, little-endian)."""
import argparse, struct

def elf(path):
    d = open(path, "rb").read()
    (etype, machine, _, entry, phoff, shoff, _, _, phent, phnum, shent, shnum,
     shstr) = struct.unpack_from("<HHIQQQIHHHHHH", d, 16)
    loads = []
    for i in range(phnum):
        t, _, off, va, _, fs, ms, _ = struct.unpack_from("<IIQQQQQQ", d, phoff + i * phent)
        if t == 1:
            loads.append((off, va, fs, ms))
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shent) for i in range(shnum)]
    strtab = secs[shstr][4]
    def name(o, base):
        return d[base + o:d.index(b"\0", base + o)].decode()
    syms, note = {}, None
    for s in secs:
        if s[1] == 2:  # SHT_SYMTAB
            link = secs[s[6]][4]
            for k in range(s[5] // 24):
                n, _, _, _, v, size = struct.unpack_from("<IBBHQQ", d, s[4] + k * 24)
                syms[name(n, link)] = (v, size)
        if name(s[0], strtab) == ".note.gnu.build-id":
            note = s
    return d, etype, machine, entry, phoff, phnum, loads, syms, note

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin"); ap.add_argument("out")
    ap.add_argument("--bias", type=lambda x: int(x, 0), default=0)
    ap.add_argument("--set", action="append", default=[])
    for f in ("no-auxv", "no-head", "no-data", "other-id"):
        ap.add_argument("--" + f, action="store_true")
    ap.add_argument("--truncate", type=int)
    ap.add_argument("--raw")
    ap.add_argument("--crash-pc", type=lambda x: int(x, 0))
    ap.add_argument("--caller")
    a = ap.parse_args()
    d, etype, machine, entry, phoff, phnum, loads, syms, note = elf(a.bin)
    first = min(l[1] for l in loads)
    arrays = [v for k, v in syms.items() if "_arr_" in k]
    lo = min(v for v, s in arrays) & ~0xfff
    hi = (max(v + s for v, s in arrays) + 0xfff) & ~0xfff
    data = bytearray(hi - lo)
    for s in a.set:
        sym, val = s.split("=")
        sym, k = (sym.split("+") + ["0"])[:2]
        data[syms[sym][0] + int(k) - lo] = int(val, 0)
    if a.raw:
        open(a.out, "wb").write(data)
        open(a.raw, "w").write("0x%x\n" % (lo + a.bias))
        return
    head = bytearray(d[:4096].ljust(4096, b"\0"))
    if a.other_id and note:
        head[note[4] + 16] ^= 0xff
    B = a.bias
    segs = [(first + B, head, not a.no_head), (lo + B, data, not a.no_data)]
    notes = b""
    if a.crash_pc is not None:
        # a stack page: the crashed frame's rbp chain, then the caller's
        stack = 0x7ffe00000000
        sym, k = a.caller.split("+")
        ret = syms[sym][0] + int(k, 0) + B
        rbp, rbp_caller = stack + 0x800, stack + 0x840
        page = bytearray(4096)
        struct.pack_into("<QQ", page, 0x800, rbp_caller, ret)
        struct.pack_into("<QQ", page, 0x840, 0, 0)
        struct.pack_into("<i", page, 0x800 - 4, 2)
        segs.append((stack, page, True))
        regs = [0] * 27  # user_regs_struct: r15..rdi, orig_rax, rip, cs, eflags, rsp, ss...
        regs[4], regs[16], regs[17], regs[19], regs[20] = rbp, a.crash_pc + B, 0x33, rbp - 8, 0x2b
        prstatus = bytearray(336)
        struct.pack_into("<i", prstatus, 0, 11)
        struct.pack_into("<h", prstatus, 12, 11)
        struct.pack_into("<i", prstatus, 32, 4242)
        struct.pack_into("<27Q", prstatus, 112, *regs)
        prpsinfo = bytearray(136)
        struct.pack_into("<i", prpsinfo, 24, 4242)
        prpsinfo[40:44] = b"tiny"
        notes += struct.pack("<III", 5, len(prstatus), 1) + b"CORE\0\0\0\0" + prstatus
        notes += struct.pack("<III", 5, len(prpsinfo), 3) + b"CORE\0\0\0\0" + prpsinfo
    if not a.no_auxv:
        auxv = struct.pack("<8Q", 3, first + B + phoff, 6, 4096, 9, entry + B, 0, 0)
        notes += struct.pack("<III", 5, len(auxv), 6) + b"CORE\0\0\0\0" + auxv
    fname = b"/fixture/" + a.bin.split("/")[-1].encode() + b"\0"
    files = struct.pack("<5Q", 1, 4096, first + B, first + B + 4096, 0) + fname
    files += b"\0" * (-len(files) % 4)
    notes += struct.pack("<III", 5, len(files), 0x46494c45) + b"CORE\0\0\0\0" + files
    nph = 1 + len(segs)
    off = 64 + nph * 56
    out = bytearray(struct.pack("<4sBBBB8xHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 4, machine,
                                1, 0, 64, 0, 0, 64, 56, nph, 0, 0, 0))
    out += struct.pack("<IIQQQQQQ", 4, 0, off, 0, 0, len(notes), 0, 4)
    body = bytearray(notes)
    at = off + len(notes)
    for va, content, dumped in segs:
        size = len(content) if dumped else 0
        out += struct.pack("<IIQQQQQQ", 1, 6, at, va, 0, size, len(content), 4096)
        if dumped:
            body += content
            at += size
    out += body
    if a.truncate:
        out = out[:a.truncate]
    open(a.out, "wb").write(out)

main()
