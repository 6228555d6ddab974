"""The tables of Intel's dcfg-reader computed from a DCFG's JSON by the tool's rules, apart
from tracekit (the oracle of tests/integration/dcfg_reader_tables.sh):
  statistics          the last 8 lines of its summary ("  Num routines , 132, ave ...")
  source-loops        the file of -all_source_loops_stats
  inner-source-loops  the file of -inner_source_loops_stats
Rows in the order tracekit documents (images in file order, loops by head id): the tool's
own order is that of its hash tables.
  python3 dcfg_reader.py TABLE FILE.dcfg.json"""
import bz2
import json
import struct
import sys

RETURNS = {"RETURN", "SYSTEM_RETURN", "CONTEXT_CHANGE_RETURN"}


def rows(table):
    """A DCFG table (header, rows...) as dicts; short rows lack their last cells."""
    if not table:
        return []
    head = table[0]
    return [dict(zip(head, r)) for r in table[1:]]


def num(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def as_float(x):
    """x rounded to single precision, as a C float holds it."""
    return struct.unpack("f", struct.pack("f", x))[0]


class Stat:
    """One of the tool's statistics (its class Stats)."""

    def __init__(self):
        self.count = self.sum = self.max = self.min = 0

    def add(self, val, weight=1):
        self.sum += val
        if not self.count or val > self.max:
            self.max = val
        if not self.count or val < self.min:
            self.min = val
        self.count += weight

    def line(self, what, per):
        s = "  Num %s , %d" % (what, self.sum)
        if self.count:
            ave = as_float(as_float(self.sum) / as_float(self.count))
            s += ", ave %s/%s , %.2f max , %d, min , %d" % (what, per, ave, self.max, self.min)
        return s + "\n"


class Process:
    def __init__(self, dcfg, data):
        self.files = {r["FILE_NAME_ID"]: r["FILE_NAME"] for r in rows(dcfg["FILE_NAMES"])}
        types = {r["EDGE_TYPE_ID"]: r["EDGE_TYPE"] for r in rows(dcfg["EDGE_TYPES"])}
        self.images = []  # (blocks, routines, loops, sources) of each image, in file order
        self.block = {}  # node id -> (count, num_instrs, image index, offset)
        self.loops = {}  # head id -> (nodes, parent head id or 0)
        for im in rows(data["IMAGES"]):
            d = im["IMAGE_DATA"]
            blocks = rows(d.get("BASIC_BLOCKS"))
            routines = rows(d.get("ROUTINES"))
            loops = []
            for r in routines:
                for lo in rows(r.get("LOOPS")):
                    self.loops[lo["LOOP_HEAD_NODE_ID"]] = (set(lo["LOOP_NODE_IDS"]),
                                                           lo.get("PARENT_LOOP_HEAD_NODE_ID", 0))
                    loops.append(lo["LOOP_HEAD_NODE_ID"])
            i = len(self.images)
            for b in blocks:
                self.block[b["NODE_ID"]] = (b["COUNT"], b["NUM_INSTRS"], i, num(b["ADDR_OFFSET"]))
            sources = [(num(s["ADDR_OFFSET"]), s["SIZE"], s["FILE_NAME_ID"], s["LINE_NUM"], k)
                       for k, s in enumerate(rows(d.get("SOURCE_DATA")))]
            self.images.append((blocks, routines, loops, sorted(sources)))
        self.edges = [(e["SOURCE_NODE_ID"], e["TARGET_NODE_ID"], types[e["EDGE_TYPE_ID"]],
                       sum(e["COUNT_PER_THREAD"])) for e in rows(data.get("EDGES"))]

    def statistics(self):
        st = {k: Stat() for k in ("routines", "calls", "loops", "iterations", "blocks", "statics",
                                  "execs", "dynamic")}
        for blocks, routines, loops, _ in self.images:
            st["blocks"].add(len(blocks))
            for b in blocks:
                st["statics"].add(b["NUM_INSTRS"])
                st["execs"].add(b["COUNT"])
                st["dynamic"].add(b["COUNT"] * b["NUM_INSTRS"], b["COUNT"])
            st["routines"].add(len(routines))
            for r in routines:
                st["calls"].add(self.block[r["ENTRY_NODE_ID"]][0])
            st["loops"].add(len(loops))
            for h in loops:
                st["iterations"].add(self.block[h][0])
        names = [("routines", "routines", "image"), ("calls", "routine calls", "routine"),
                 ("loops", "loops", "image"), ("iterations", "loop iterations", "loop"),
                 ("blocks", "basic blocks", "image"), ("statics", "static instrs", "basic block"),
                 ("execs", "basic-block executions", "basic block"),
                 ("dynamic", "dynamic instrs", "basic block execution")]
        return "".join(st[k].line(what, per) for k, what, per in names)

    def source(self, node):
        """file, line of a block: the source row of its image starting last at or before it
        (the later in file order among equal starts) whose SIZE covers it."""
        _, _, i, off = self.block[node]
        best = None
        for start, size, fid, line, k in self.images[i][3]:
            if start > off:
                break
            best = (start, size, fid, line)
        if best and off < best[0] + best[1] and best[2] in self.files:
            return self.files[best[2]], best[3]
        return None, 0

    def cells(self, head, na):
        nodes, _ = self.loops[head]
        visits = sum(c for s, t, ty, c in self.edges
                     if t in nodes and s not in nodes and ty not in RETURNS)
        statics = sum(self.block[n][1] for n in nodes if n in self.block)
        dynamic = sum(self.block[n][0] * self.block[n][1] for n in nodes if n in self.block)
        f, line = self.source(head)
        v = "*NA*" if na and not visits else str(visits)
        return "%s:%d,%s,%d,%d,%d\n" % (f, line, v, self.block[head][0], statics, dynamic)

    def shown(self, head):
        return self.source(head)[0] is not None and self.block[head][0] > 0

    def ordered(self):
        return [h for _, _, loops, _ in self.images for h in sorted(loops)]

    def source_loops(self):
        out = ("loopid,filename:linenumber,#visits, #iterations,#static-instrs,"
               "#dynamic-instructions\n")
        return out + "".join("%d,%s" % (h, self.cells(h, True)) for h in self.ordered()
                             if self.shown(h))

    def depth(self, head):
        d = 0
        while self.loops[head][1]:
            head = self.loops[head][1]
            d += 1
        return d

    def inner_source_loops(self):
        parents = {p for _, p in self.loops.values()}
        out = ""
        for h in self.ordered():
            if h in parents or not self.shown(h):
                continue
            if not out:
                out = ("nesting-depth,filename:linenumber,#visits, #iterations,#static-instrs,"
                       "#dynamic-instructions\n")
            l = h
            d = self.depth(h)
            while l:
                if self.shown(l):
                    out += "%d,%s" % (d, self.cells(l, False))
                d -= 1
                l = self.loops[l][1]
            out += "\n"
        return out


def main(table, path):
    dcfg = json.load(bz2.open(path) if path.endswith(".bz2") else open(path))
    procs = [Process(dcfg, p["PROCESS_DATA"]) for p in rows(dcfg["PROCESSES"])]
    text = {"statistics": Process.statistics, "source-loops": Process.source_loops,
            "inner-source-loops": Process.inner_source_loops}[table]
    sys.stdout.write("\n".join(text(p) for p in procs))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
