#!/usr/bin/env python3
"""Oracle checks of `tracekit record` against Valgrind's callgrind on the same
program (tests/integration/record_*.sh).

  record_check.py funcs CALLGRIND_OUT RECORDED_AS_CALLGRIND SOURCE_FILE [FUNCTIONS]
      the self Ir of every function of SOURCE_FILE (the path callgrind_annotate
      prints; FUNCTIONS: of those only, comma-separated) are equal in both
      files; CALLGRIND_OUT may be several files separated by commas (the
      processes of a run with --trace-children=yes), their costs added
  record_check.py total CALLGRIND_OUT DCFG TOLERANCE
      the DCFG's instructions are callgrind's totals within TOLERANCE (N, or
      N+P%: P percent of callgrind's total more)
  record_check.py jcnd CALLGRIND_JUMPS_OUT DCFG OBJECT FUNCTIONS
      every conditional jump callgrind counted (jcnd=TAKEN/TOTAL) in the
      functions (comma-separated names) of OBJECT has a block ending at it
      whose DIRECT_CONDITIONAL_BRANCH count is TAKEN and whose count is
      TOTAL, and the other way round
  record_check.py blocks CALLGRIND_OUT DCFG MAX_DIFFERING [IMAGE]
      per instruction, through callgrind's --dump-instr=yes costs (CALLGRIND_OUT:
      files separated by commas, their costs added): every block of the DCFG's
      first process (the first of each image's blocks as callgrind numbers
      them: its Ir) has its instructions' Ir summing to NUM_INSTRS x COUNT and
      its first instruction's Ir equal to COUNT, and callgrind counts no
      instruction outside the blocks; at most MAX_DIFFERING blocks (N, or N%
      of the blocks) differ (the last superblock of a thread, which callgrind
      does not count, and a run's noise): symbols are not needed, so stripped
      programs are compared block by block. IMAGE: only the image whose file
      name ends with it
  record_check.py walk DCFG EDGES
      EDGES (`tracekit decode --what edges`) is, for each thread, a walk from
      START to END along the DCFG's edges whose per-edge counts are the
      DCFG's COUNT_PER_THREAD
  record_check.py connected DCFG EDGES
      the same walks, their counts not compared (threads beyond the limit
      count in the DCFG, not in the trace)
  record_check.py counts DCFG
      every block's COUNT is the sum of its in-edges' and of its out-edges'
      counts, per thread too
  record_check.py layout DCFG SDE_DCFG
      the recorded file has the structure of Intel SDE's: key order, table
      headers, edge types and special nodes, hex strings where SDE writes them
  record_check.py types DCFG TYPE,TYPE...
      the first process has edges of each TYPE with a count (a *BYPASS type:
      an edge at all)
  record_check.py expect DCFG EXPR...
      each python EXPR is true of the DCFG: `procs` are the processes'
      TRACEKIT_RECORD objects in order, `nthreads` the lengths of their
      INSTR_COUNT_PER_THREAD, `by_type` the first process's edge counts by type,
      `images` the file names of its images in order, `loops` (symbol, count of
      the head block) of every loop of its first image

  record_check.py wetcounts DCFG WET
      every instruction of the WET trace (comprehensive form; each instance
      defines a value, so VALUES n is its count) ran as many times as the DCFG
      block holding it, and their sum is the DCFG's instruction count
  record_check.py ports WET PROGRAM EXPECT...
      instructions of PROGRAM (not PIE) at its symbols (nm): EXPECT is
      LABEL=N:DEF,DEF,...[:VALUE] the instruction at LABEL has N use ports, the
      instruction at each DEF (in any order; "-" none, "..." any others) defined
      what its data ports (1..N-1) used in its first instance, which defined
      VALUE (hex)
  record_check.py slices TRACEKIT WET SOURCE
      `tracekit slice --lines` of WET, its lines of SOURCE: backward from the
      line tagged C (a comment /* ... C ... */; C#N: from its instance N, else
      its last) exactly the lines tagged B, forward from the line tagged S
      (S#N) exactly the lines tagged F
  record_check.py foo1 WET HISTORY
      the WET spec's example (foo1.c, run as `foo1 2 7`): the instruction of
      line 8 that loads x is control dependent on the branch of line 4, data
      dependent on the store of line 6, its first instance defines 2; HISTORY
      holds the two lines `0xA#0 --> 0xB#0` of those dependences

Several checks run in one process when separated by "--" (each file read once):
each line of a check's output is then prefixed with its name ("walk: ..."), and
the exit status is 1 when any fails.
"""
import bz2
import collections
import contextlib
import functools
import io
import json
import re
import subprocess
import sys
import traceback


@functools.lru_cache(maxsize=None)
def load_json(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rt") as f:
        return json.load(f)  # dicts keep the file's key order (layout compares it)


def annotate(path, merge_pieces=False):
    out = subprocess.run(["callgrind_annotate", "--auto=no", "--inclusive=no", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    fns = collections.Counter()
    for line in out.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(.*?)$", line)
        if not m or "PROGRAM TOTALS" in line:
            continue
        mm = re.match(r"^(.*?):(.*?)( \[.*\])?$", m.group(2))
        if mm:
            # callgrind's recursion levels (fib'2) are one function; a recorded
            # routine of a function's piece reached only from elsewhere (a C++
            # landing pad) is named NAME+0xOFFSET (docs/record.md)
            name = re.sub(r"'\d+$", "", mm.group(2))
            if merge_pieces:
                name = re.sub(r"\+0x[0-9a-f]+$", "", name)
            fns[(mm.group(1), name)] += int(m.group(1).replace(",", ""))
    return fns


def funcs(cg, recorded, source, only=None):
    a = collections.Counter()
    for path in cg.split(","):
        a.update(annotate(path))
    b = annotate(recorded, True)
    keys = sorted(k for k in set(a) | set(b)
                  if k[0] == source and (only is None or k[1] in only.split(",")))
    bad = [k for k in keys if a[k] != b[k]]
    for k in keys:
        print("%s %s:%s callgrind %d recorded %d" % ("!" if k in bad else " ", k[0], k[1], a[k], b[k]))
    if not keys:
        print("no function of %s in either profile" % source)
        return 1
    return 1 if bad else 0


def callgrind_totals(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("%s: no totals line" % path)


def dcfg_instructions(d):
    return sum(p[1]["INSTR_COUNT"] for p in d["PROCESSES"][1:])


def total(cg, dcfg, tol):
    """tol: N instructions, or N+P% (P percent of callgrind's total more)."""
    a, b = callgrind_totals(cg), dcfg_instructions(load_json(dcfg))
    m = re.match(r"^(\d+)(?:\+([\d.]+)%)?$", tol)
    limit = int(m.group(1)) + (float(m.group(2)) * a / 100 if m.group(2) else 0)
    print("instructions: callgrind %d, recorded %d (%+d, tolerance %d)" % (a, b, b - a, limit))
    return 0 if abs(b - a) <= limit else 1


def parse_positions(spec, last):
    """'+3 *', '0x11f1 +9': instruction subposition of a callgrind position."""
    first = spec.split()[0] if spec.split() else "*"
    if first == "*":
        return last
    if first[0] in "+-":
        return last + int(first)
    return int(first, 0)


def callgrind_jcnd(path, obj):
    """{instr offset: (taken, total)} of the conditional jumps of object obj."""
    names, cur_ob, last, pending, out = {}, None, 0, None, collections.defaultdict(lambda: [0, 0])
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            m = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line)
            if m:  # names are defined at their first use, in ob= or cob=
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if not m.group(1):
                    cur_ob = names.get(m.group(2))
                continue
            if re.match(r"^[a-z]+=", line) and not line.startswith(("jcnd=", "jump=", "calls=")):
                continue
            if line.startswith("jcnd="):
                m = re.match(r"^jcnd=(\d+)/(\d+) ", line)
                pending = (int(m.group(1)), int(m.group(2)))
                continue
            if line.startswith(("jump=", "calls=")):
                continue
            if not line or not re.match(r"^(0x[0-9a-f]+|[+-]\d+|\*|\d)", line):
                continue
            last = parse_positions(line, last)
            if pending and cur_ob and cur_ob.endswith(obj):
                out[last][0] += pending[0]
                out[last][1] += pending[1]
            pending = None
    return out


def blocks_by_offset(d, obj, names):
    """{last instr offset: (block id, count)} of obj's blocks in the functions
    names, the taken counts of conditional branches by source, and the ranges
    of those functions."""
    files = {r[0]: r[1] for r in d["FILE_NAMES"][1:]}
    types = {r[0]: r[1] for r in d["EDGE_TYPES"][1:]}
    out, ranges = {}, []
    taken = collections.Counter()
    for proc in d["PROCESSES"][1:]:
        data = proc[1]
        for im in data["IMAGES"][1:]:
            if not files.get(im[3].get("FILE_NAME_ID"), "").endswith(obj):
                continue
            for s in im[3].get("SYMBOLS", [[]])[1:]:
                if s[0] in names:
                    ranges.append((int(s[1], 0), int(s[1], 0) + s[2]))
            for b in im[3].get("BASIC_BLOCKS", [[]])[1:]:
                off = int(b[1], 0) + b[4]
                if any(lo <= off < hi for lo, hi in ranges):
                    out[off] = (b[0], b[5])
        for e in data["EDGES"][1:]:
            # callgrind counts a rep-prefixed instruction's repeats as the
            # taken side of a conditional jump to itself
            if types[e[3]] in ("DIRECT_CONDITIONAL_BRANCH", "REP"):
                taken[e[1]] += sum(e[4])
        break
    return out, taken, ranges


def jcnd(cg, dcfg, obj, functions):
    blocks, taken, ranges = blocks_by_offset(load_json(dcfg), obj, functions.split(","))
    cj = {off: v for off, v in callgrind_jcnd(cg, obj).items() if any(lo <= off < hi for lo, hi in ranges)}
    bad = 0
    for off, (t, n) in sorted(cj.items()):
        b = blocks.get(off)
        if not b or taken[b[0]] != t or b[1] != n:
            bad += 1
            print("! jump at +0x%x: callgrind %d/%d, recorded %s" %
                  (off, t, n, "%d/%d" % (taken[b[0]], b[1]) if b else "no block ending there"))
    ours = {off for off, b in blocks.items() if taken[b[0]]}
    for off in sorted(ours - set(cj)):
        bad += 1
        print("! jump at +0x%x: recorded taken %d, callgrind has no jcnd" % (off, taken[blocks[off][0]]))
    print("%d conditional jumps of %s compared, %d differ" % (len(cj), obj, bad))
    return 1 if bad or not cj else 0


def callgrind_instrs(paths):
    """{object: {address: self Ir}} of callgrind files with --dump-instr=yes
    (the addresses callgrind writes: the object's offsets when it knows its
    text bias, else absolute)."""
    out = collections.defaultdict(collections.Counter)
    for path in paths.split(","):
        names, cur_ob, last, call_cost = {}, None, 0, False
        with open(path) as f:
            for raw in f:
                line = raw.rstrip("\n")
                m = re.match(r"^(c?)ob=\((\d+)\)(?: (.*))?$", line)
                if m:  # names are defined at their first use, in ob= or cob=
                    if m.group(3):
                        names[m.group(2)] = m.group(3)
                    if not m.group(1):
                        cur_ob = names.get(m.group(2))
                    continue
                if line.startswith("calls="):
                    call_cost = True  # the next cost line is the call's inclusive cost
                if not line or line[0] not in "0123456789+-*":
                    continue
                parts = line.split()
                last = parse_positions(line, last)
                if call_cost:
                    call_cost = False
                elif len(parts) >= 3:
                    out[cur_ob][last] += int(parts[2])
    return out


def blocks(cg, dcfg, max_differing, only=None):
    d = load_json(dcfg)
    files = {r[0]: r[1] for r in d["FILE_NAMES"][1:]}
    images = [(files.get(im[3].get("FILE_NAME_ID")), int(im[1], 0), im[3].get("BASIC_BLOCKS", [[]])[1:])
              for im in d["PROCESSES"][1][1]["IMAGES"][1:]]
    ir = collections.Counter()
    for ob, costs in callgrind_instrs(cg).items():
        # absolute addresses, or offsets from the image's load address: whichever
        # puts the image's blocks' counts at their first instructions
        shift = 0
        for name, load, bl in images:
            if name == ob:
                shift = max((0, load), key=lambda s: sum(costs[int(b[1], 0) + load - s] == b[5] for b in bl))
        for a, c in costs.items():
            ir[a + shift] += c
    covered, bad, n, ranges = set(), [], 0, []
    for name, load, bl in images:
        if only and not (name or "").endswith(only):
            continue
        ranges.append((load, load + max((int(b[1], 0) + b[2] for b in bl), default=0)))
        for b in bl:
            lo, n = load + int(b[1], 0), n + 1
            covered.update(range(lo, lo + b[2]))
            got = sum(ir[a] for a in range(lo, lo + b[2]))
            if got != b[3] * b[5] or ir[lo] != b[5]:
                bad.append("! %s+%s: %d instructions x %d, callgrind %d (first %d)" %
                           (name, b[1], b[3], b[5], got, ir[lo]))
    outside = sorted(a for a, c in ir.items() if c and a not in covered and
                     (not only or any(lo <= a < hi for lo, hi in ranges)))
    limit = (float(max_differing[:-1]) * n / 100 if max_differing.endswith("%")
             else int(max_differing))
    for line in bad[:20]:
        print(line)
    for a in outside[:10]:
        print("! 0x%x: callgrind %d, in no block" % (a, ir[a]))
    print("blocks: %d compared with callgrind's instructions, %d differ (at most %d), %d "
          "instructions outside them" % (n, len(bad), limit, len(outside)))
    return 1 if len(bad) > limit or outside or not n else 0


def walk(dcfg, edges_path, connect_only=False):
    d = load_json(dcfg)
    types = {r[0]: r[1] for r in d["EDGE_TYPES"][1:]}
    specials = {r[0]: r[1] for r in d["SPECIAL_NODES"][1:]}
    bad = 0
    seqs = collections.defaultdict(list)
    with open(edges_path) as f:
        for line in f:
            pid, tid, eid = (int(x) for x in line.split())
            seqs[(pid, tid)].append(eid)
    for proc in d["PROCESSES"][1:]:
        pid, data = proc[0], proc[1]
        edges = {e[0]: e for e in data["EDGES"][1:]}
        seen = collections.Counter()
        for (p, t), seq in seqs.items():
            if p != pid:
                continue
            first, last = edges[seq[0]], edges[seq[-1]]
            if specials.get(first[1]) != "START" or specials.get(last[2]) != "END":
                bad += 1
                print("! process %d thread %d: the walk does not go from START to END" % (pid, t))
            for a, b in zip(seq, seq[1:]):
                if edges[a][2] != edges[b][1]:
                    bad += 1
                    print("! process %d thread %d: edge %d then %d do not connect" % (pid, t, a, b))
                    break
            for e in seq:
                seen[(e, t)] += 1
        for e in data["EDGES"][1:] if not connect_only else []:
            for t, c in enumerate(e[4]):
                if seen[(e[0], t)] != c:
                    bad += 1
                    if bad < 10:
                        print("! process %d edge %d (%s) thread %d: DCFG %d, trace %d" %
                              (pid, e[0], types[e[3]], t, c, seen[(e[0], t)]))
    print("walks of %d threads compared, %d problems" % (len(seqs), bad))
    return 1 if bad or not seqs else 0


def counts(dcfg):
    d = load_json(dcfg)
    bad = 0
    for proc in d["PROCESSES"][1:]:
        data = proc[1]
        nthreads = len(data["INSTR_COUNT_PER_THREAD"])
        inn = collections.defaultdict(lambda: [0] * nthreads)
        out = collections.defaultdict(lambda: [0] * nthreads)
        for e in data["EDGES"][1:]:
            for t, c in enumerate(e[4]):
                out[e[1]][t] += c
                inn[e[2]][t] += c
        instrs = [0] * nthreads
        for im in data["IMAGES"][1:]:
            for b in im[3].get("BASIC_BLOCKS", [[]])[1:]:
                if inn[b[0]] != out[b[0]] or sum(inn[b[0]]) != b[5]:
                    bad += 1
                    print("! block %d: COUNT %d, in %s, out %s" % (b[0], b[5], inn[b[0]], out[b[0]]))
                for t in range(nthreads):
                    instrs[t] += inn[b[0]][t] * b[3]
        if instrs != data["INSTR_COUNT_PER_THREAD"]:
            bad += 1
            print("! process %d: INSTR_COUNT_PER_THREAD %s, blocks %s" %
                  (proc[0], data["INSTR_COUNT_PER_THREAD"], instrs))
    print("block counts: %d problems" % bad)
    return 1 if bad else 0


def skeleton(v, depth=0):
    """Keys in order and table headers, recursively (values left out)."""
    if isinstance(v, dict):
        return [(k, skeleton(x, depth + 1)) for k, x in v.items()]
    if isinstance(v, list) and v and isinstance(v[0], list) and v[0] and all(isinstance(h, str) for h in v[0]):
        rows = [r for r in v[1:] if isinstance(r, list)]
        cells = {}
        for r in rows:
            for i, c in enumerate(r):
                if isinstance(c, (dict, list)) and i not in cells:
                    cells[i] = skeleton(c, depth + 1)
        return ["TABLE", v[0], sorted(cells.items())]
    return type(v).__name__


def layout(dcfg, sde):
    a, b = load_json(dcfg), load_json(sde)
    bad = 0
    if list(a.keys()) != list(b.keys()):
        bad += 1
        print("! top-level keys %s, SDE %s" % (list(a.keys()), list(b.keys())))
    for key in ("EDGE_TYPES", "SPECIAL_NODES"):
        if a[key] != b[key]:
            bad += 1
            print("! %s differs from SDE's" % key)
    for key in ("FILE_NAMES", "PROCESSES"):
        if a[key][0] != b[key][0]:
            bad += 1
            print("! %s header %s, SDE %s" % (key, a[key][0], b[key][0]))
    pa, pb = a["PROCESSES"][1][1], b["PROCESSES"][1][1]
    known = [k for k in pa.keys() if k in pb]
    if known != list(pb.keys()):
        bad += 1
        print("! process keys %s, SDE %s" % (list(pa.keys()), list(pb.keys())))
    if pa["IMAGES"][0] != pb["IMAGES"][0] or pa["EDGES"][0] != pb["EDGES"][0]:
        bad += 1
        print("! IMAGES or EDGES header differs from SDE's")
    ia, ib = pa["IMAGES"][1], pb["IMAGES"][1]
    if not isinstance(ia[1], str) or not ia[1].startswith("0x"):
        bad += 1
        print("! LOAD_ADDR is not a hex string")
    if list(ia[3].keys()) != [k for k in ib[3].keys() if k in ia[3]]:
        bad += 1
        print("! image keys %s, SDE %s" % (list(ia[3].keys()), list(ib[3].keys())))
    for key in ("SYMBOLS", "SOURCE_DATA", "BASIC_BLOCKS", "ROUTINES"):
        ta = next((im[3][key] for im in pa["IMAGES"][1:] if key in im[3]), None)
        tb = ib[3].get(key) or next(im[3][key] for im in pb["IMAGES"][1:] if key in im[3])
        if ta is None or ta[0] != tb[0]:
            bad += 1
            print("! %s header %s, SDE %s" % (key, ta and ta[0], tb[0]))
            continue
        if key in ("SYMBOLS", "SOURCE_DATA", "BASIC_BLOCKS"):
            col = ta[0].index("ADDR_OFFSET")
            if not all(isinstance(r[col], str) and r[col].startswith("0x") for r in ta[1:]):
                bad += 1
                print("! %s ADDR_OFFSET not written as hex strings" % key)
    print("layout: %d differences from SDE's" % bad)
    return 1 if bad else 0


def types(dcfg, names):
    d = load_json(dcfg)
    bad = 0
    edges = d["PROCESSES"][1][1]["EDGES"][1:]
    for name in names.split(","):
        ids = {r[0] for r in d["EDGE_TYPES"][1:] if r[1] == name}
        if not any(e[3] in ids and (sum(e[4]) or name.endswith("BYPASS")) for e in edges):
            bad += 1
            print("! no %s edge" % name)
    print("edge types %s: %d missing" % (names, bad))
    return 1 if bad else 0


def loops_of(image):
    """(symbol, head block's COUNT) of every loop of the image's routines."""
    blocks = {b[0]: (int(b[1], 0), b[5]) for b in image.get("BASIC_BLOCKS", [[]])[1:]}
    syms = [(int(s[1], 0), int(s[1], 0) + s[2], s[0]) for s in image.get("SYMBOLS", [[]])[1:]]
    out = []
    for r in image.get("ROUTINES", [[]])[1:]:
        for loop in (r[3][1:] if len(r) > 3 else []):
            off, count = blocks[loop[0]]
            name = next((n for lo, hi, n in syms if lo <= off < hi), None)
            out.append((name, count))
    return out


def expect(dcfg, *exprs):
    d = load_json(dcfg)
    env = {"procs": [p[1]["TRACEKIT_RECORD"] for p in d["PROCESSES"][1:]],
           "nthreads": [len(p[1]["INSTR_COUNT_PER_THREAD"]) for p in d["PROCESSES"][1:]],
           "by_type": collections.Counter()}
    type_names = {r[0]: r[1] for r in d["EDGE_TYPES"][1:]}
    for e in d["PROCESSES"][1][1]["EDGES"][1:]:
        env["by_type"][type_names[e[3]]] += sum(e[4])
    files = {r[0]: r[1] for r in d["FILE_NAMES"][1:]}
    images = d["PROCESSES"][1][1]["IMAGES"][1:]
    env["images"] = [files.get(im[3].get("FILE_NAME_ID")) for im in images]
    env["loops"] = loops_of(images[0][3])
    bad = [e for e in exprs if not eval(e, dict(env))]
    for e in bad:
        print("%s: not true: %s (processes %s, threads %s)" %
              (dcfg, e, env["procs"], env["nthreads"]))
    return 1 if bad else 0


def wet_blocks(path, keep_ports=True):
    """{id: (addr, file, line, ports, values, first value)} of a comprehensive WET
    trace, with {id: [[(inst, dep id, dep inst)...] per port]} (empty lists
    unless keep_ports)."""
    static, ports = {}, {}
    with open(path) as f:
        f.readline()
        cur = None
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "SIZE":
                ports[cur].append([])
            elif w[0] == "VALUES":
                static[cur][4] = int(w[1])
            elif w[0] == "NO":
                pass
            elif ":" in w[0]:
                inst, rest = w[0].split(":")
                if len(w) == 2:
                    if keep_ports:
                        ports[cur][-1].append((int(inst), int(rest), int(w[1])))
                elif int(inst) == 0:
                    static[cur][5] = int(rest, 16)
            else:
                cur = int(w[0])
                static[cur] = [int(w[2], 16), w[3] if len(w) > 3 else None,
                               int(w[5]) if len(w) > 5 else 0, int(w[1]), None, None]
                ports[cur] = []
    return static, ports


def wetcounts(dcfg, wet):
    d = load_json(dcfg)
    blocks = []
    for proc in d["PROCESSES"][1:]:
        for im in proc[1]["IMAGES"][1:]:
            base = int(im[1], 0)
            for b in im[3].get("BASIC_BLOCKS", [[]])[1:]:
                blocks.append((base + int(b[1], 0), b[2], b[5]))
        total = sum(proc[1]["INSTR_COUNT_PER_THREAD"])
        break
    blocks.sort()
    starts = [b[0] for b in blocks]
    static, _ = wet_blocks(wet, False)
    import bisect
    bad, n = 0, 0
    for i, (addr, _f, _l, _p, count, _v) in sorted(static.items()):
        k = bisect.bisect_right(starts, addr) - 1
        if k < 0 or not blocks[k][0] <= addr < blocks[k][0] + blocks[k][1] or count != blocks[k][2]:
            bad += 1
            if bad < 10:
                print("! instruction %d at 0x%x: %s instances, DCFG block %s" %
                      (i, addr, count, blocks[k] if k >= 0 else None))
        n += count or 0
    if n != total:
        bad += 1
        print("! %d instances in the WET trace, %d instructions in the DCFG" % (n, total))
    print("%d instructions, %d instances compared with the DCFG's blocks, %d differ" %
          (len(static), n, bad))
    return 1 if bad else 0


def ports(wet, program, *expects):
    labels = {}
    for line in subprocess.run(["nm", program], capture_output=True, text=True).stdout.splitlines():
        w = line.split()
        if len(w) == 3:
            labels[w[2]] = int(w[0], 16)
    static, deps = wet_blocks(wet)
    by_addr = {v[0]: i for i, v in static.items()}
    names = {by_addr[a]: n for n, a in labels.items() if a in by_addr}
    bad = 0
    for e in expects:
        label, _, rest = e.partition("=")
        n, _, defs = rest.partition(":")
        defs, _, value = defs.partition(":")
        want = [d for d in defs.split(",") if d]
        i = by_addr.get(labels.get(label))
        if i is None:
            bad += 1
            print("! %s: no such instruction in the trace" % label)
            continue
        got = []
        for port in deps[i][1:]:
            first = [d for d in port if d[0] == 0]
            got.append(names.get(first[0][1], "?") if first else "-")
        rest_any = "..." in want
        want = [d for d in want if d != "..."]
        left = list(got)
        ok = static[i][3] == int(n)
        for d in want:
            ok = ok and d in left
            if d in left:
                left.remove(d)
        ok = ok and (rest_any or not left) and (not value or static[i][5] == int(value, 16))
        bad += not ok
        print("%s%s: %d ports, defined by %s, value %x%s" % ("" if ok else "! ", label, static[i][3],
              ",".join(got) or "nothing", static[i][5], "" if ok else " (expected %s)" % rest))
    return 1 if bad or not expects else 0


def slices(tracekit, wet, source):
    tags, inst = collections.defaultdict(set), {}
    with open(source) as f:
        for i, line in enumerate(f, 1):
            m = re.search(r"/\*\s*([A-Z](?:#\d+)?(?: [A-Z](?:#\d+)?)*)(?=[\s:*])", line)
            for t in m.group(1).split() if m else ():
                t, _, n = t.partition("#")
                tags[t].add(i)
                if n:
                    inst[t] = n
    name = "/" + source.rsplit("/", 1)[-1]
    bad = 0
    for kind, crit, want in (("backward", "C", "B"), ("forward", "S", "F")):
        if not tags[crit]:
            continue
        c = min(tags[crit])
        spec = "%s:%d" % (source, c) + ("#" + inst[crit] if crit in inst else "")
        args = [tracekit, "slice", "--lines", wet, "-c", spec]
        out = subprocess.run(args + (["--forward"] if kind == "forward" else []),
                             capture_output=True, text=True)
        got = {int(m.group(1)) for m in re.finditer(r"^\S*%s:(\d+)$" % re.escape(name),
                                                     out.stdout, re.M)}
        ok = out.returncode == 0 and got == tags[want]
        bad += not ok
        print("%s %s from line %d: %s %s%s" % ("" if ok else "!", kind, c, sorted(got),
              "as expected" if ok else "expected %s" % sorted(tags[want]), out.stderr.strip()))
    return 1 if bad else 0


def foo1(wet, history):
    static, ports = wet_blocks(wet)
    main = {i: v for i, v in static.items() if v[1] and v[1].endswith("foo1.c")}
    line = lambda n: sorted((v[0], i) for i, v in main.items() if v[2] == n)
    load8, branch4, store6 = line(8)[0], line(4)[-1], line(6)[-1]
    i = load8[1]
    bad = 0
    want = [[(0, branch4[1], 0)], [(0, store6[1], 0)]]
    if ports[i] != want or static[i][5] != 2:
        bad += 1
        print("! line 8 (id %d): ports %s, value %s; expected %s, value 2" %
              (i, ports[i], static[i][5], want))
    with open(history) as f:
        hist = set(f.read().split("\n"))
    for dep in (branch4, store6):
        h = "0x%x#0 --> 0x%x#0" % (load8[0], dep[0])
        if h not in hist:
            bad += 1
            print("! %s: not in the history" % h)
        else:
            print(h)
    print("%d %d %x foo1.c main 8: control dependent on %d (line 4), data dependent on %d "
          "(line 6), value %s" % (i, static[i][3], load8[0], branch4[1], store6[1], static[i][5]))
    return 1 if bad else 0


CMDS = {"funcs": (funcs, -3), "total": (total, 3), "jcnd": (jcnd, 4), "blocks": (blocks, -3), "walk": (walk, 2),
        "counts": (counts, 1), "layout": (layout, 2),
        "connected": (lambda d, e: walk(d, e, True), 2), "types": (types, 2),
        "expect": (expect, -2), "wetcounts": (wetcounts, 2), "slices": (slices, 3), "ports": (ports, -3),
        "foo1": (foo1, 2)}  # -N: at least N arguments


def run_one(args):
    cmd = CMDS.get(args[0]) if args else None
    n = len(args) - 1
    if not cmd or (n != cmd[1] if cmd[1] >= 0 else n < -cmd[1]):
        print(__doc__)
        return 2
    return cmd[0](*args[1:])


def main(argv):
    groups = [[]]
    for a in argv[1:]:
        if a == "--":
            groups.append([])
        else:
            groups[-1].append(a)
    if len(groups) == 1:
        return run_one(groups[0])
    rc = 0
    for g in groups:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            try:
                r = run_one(g)
            except Exception:  # a check that breaks fails; the others still run
                traceback.print_exc(file=sys.stdout)
                r = 1
        for line in buf.getvalue().splitlines():
            print("%s: %s" % (g[0] if g else "?", line))
        rc = max(rc, r)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
