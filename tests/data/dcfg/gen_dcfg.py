#!/usr/bin/env python3
"""Random but consistent DCFG generator (tracekit tests and benchmark).

Builds routines of structured code (sequences, if/else, nested loops, calls
to later routines), walks them from main with random decisions in several
threads, and derives every count from the walks, so that block COUNT equals
the in- and out-edge sums, INSTR_COUNT equals sum COUNT x NUM_INSTRS and the
per-thread counts add up. Routines, immediate dominators (computed here with
a plain set-based data-flow algorithm, independent of tracekit's
Cooper-Harvey-Kennedy) and loops (known from the structure) are written in
ROUTINES unless --no-routines.

Reader-hard features (--hard): hex/decimal integer mixes, shuffled columns,
short rows, unknown keys and columns, escaped '/' and \\u escapes in strings.

  gen_dcfg.py [--seed N] [--routines N] [--threads N] [--hard] [--no-routines]
              [--steps N] [--blocks N] > out.dcfg.json
"""
import argparse
import json
import random
import sys

EDGE_TYPES = ["ENTRY", "EXIT", "CALL", "DIRECT_CALL", "INDIRECT_CALL", "RETURN", "CALL_BYPASS", "BRANCH",
              "CONDITIONAL_BRANCH", "UNCONDITIONAL_BRANCH", "DIRECT_BRANCH", "INDIRECT_BRANCH",
              "DIRECT_CONDITIONAL_BRANCH", "INDIRECT_CONDITIONAL_BRANCH", "DIRECT_UNCONDITIONAL_BRANCH",
              "INDIRECT_UNCONDITIONAL_BRANCH", "REP", "FALL_THROUGH", "SYSTEM_CALL", "SYSTEM_RETURN",
              "SYSTEM_CALL_BYPASS", "CONTEXT_CHANGE", "CONTEXT_CHANGE_RETURN", "CONTEXT_CHANGE_BYPASS",
              "EXCLUDED_CODE_BYPASS", "UNKNOWN"]
START, END, UNKNOWN = 1, 2, 3


class Gen:
    def __init__(self, args):
        self.a = args
        self.r = random.Random(args.seed)
        self.blocks = []          # dicts: id, routine, size, instrs
        self.edges = {}           # (src, tgt) -> [id, type, per-thread counts]
        self.next_id = 4
        self.routines = []        # dicts: entry, exit, blocks, loops, calls(list of call block)
        self.type_ids = {t: i + 1 for i, t in enumerate(EDGE_TYPES)}
        if args.hard:             # renumbered edge-type ids
            ids = list(range(1, len(EDGE_TYPES) + 1))
            self.r.shuffle(ids)
            self.type_ids = {t: 100 + ids[i] for i, t in enumerate(EDGE_TYPES)}

    def block(self, rt):
        b = {"id": self.next_id, "routine": rt, "instrs": self.r.randint(1, 12)}
        b["size"] = b["instrs"] * self.r.randint(1, 5)
        self.next_id += 1
        self.blocks.append(b)
        self.routines[rt]["blocks"].append(b["id"])
        return b["id"]

    def edge(self, s, t, ty):
        if (s, t) not in self.edges:
            self.edges[(s, t)] = [0, ty, [0] * self.a.threads]
        return (s, t)

    # structured code: returns (entry, exit, tree)
    def seq(self, rt, depth):
        n = self.r.randint(1, self.a.seq)
        parts = [self.stmt(rt, depth) for _ in range(n)]
        for (a, b) in zip(parts, parts[1:]):
            self.edge(a[1], b[0], "FALL_THROUGH")
        return parts[0][0], parts[-1][1], ("seq", parts)

    def stmt(self, rt, depth):
        x = self.r.random()
        later = len(self.routines) - 1 > rt
        p_if, p_loop, p_call = self.a.p_if, self.a.p_if + self.a.p_loop, self.a.p_if + self.a.p_loop + self.a.p_call
        if depth < 3 and x < p_if:
            c = self.block(rt)
            t = self.seq(rt, depth + 1)
            e = self.seq(rt, depth + 1)
            j = self.block(rt)
            self.edge(c, t[0], "DIRECT_CONDITIONAL_BRANCH")
            self.edge(c, e[0], "FALL_THROUGH")
            self.edge(t[1], j, "DIRECT_UNCONDITIONAL_BRANCH")
            self.edge(e[1], j, "FALL_THROUGH")
            return c, j, ("if", c, t, e, j)
        if depth < 3 and x < p_loop:
            h = self.block(rt)
            body = self.seq(rt, depth + 1)
            after = self.block(rt)
            self.edge(h, body[0], "FALL_THROUGH")
            self.edge(body[1], h, "DIRECT_UNCONDITIONAL_BRANCH")
            self.edge(h, after, "DIRECT_CONDITIONAL_BRANCH")
            self.routines[rt]["loops"].append((h, body[1]))
            return h, after, ("loop", h, body, after)
        if later and x < p_call:
            callee = self.r.randint(rt + 1, min(len(self.routines) - 1, rt + 1 + self.a.fanout))
            c = self.block(rt)
            ret = self.block(rt)
            self.edge(c, ret, "CALL_BYPASS")
            self.routines[rt]["calls"].append(c)
            return c, ret, ("call", c, callee, ret)
        b = self.block(rt)
        return b, b, ("plain", b)

    def build(self):
        self.routines = [{"blocks": [], "loops": [], "calls": []} for _ in range(self.a.routines)]
        # build callees first so their entries exist when calls are made
        self.trees = [None] * self.a.routines
        for rt in reversed(range(self.a.routines)):
            entry = self.block(rt)
            body = self.seq(rt, 0)
            exit_ = self.block(rt)
            self.edge(entry, body[0], "FALL_THROUGH")
            self.edge(body[1], exit_, "FALL_THROUGH")
            self.routines[rt]["entry"], self.routines[rt]["exit"] = entry, exit_
            self.trees[rt] = ("seq", [(entry, entry, ("plain", entry)), body, (exit_, exit_, ("plain", exit_))])
        # call and return edges
        for rt in range(self.a.routines):
            self.walk_static(self.trees[rt])

    def walk_static(self, tree):
        stack = [tree]
        while stack:
            t = stack.pop()
            kind = t[0]
            if kind == "seq":
                stack.extend(p[2] for p in t[1])
            elif kind == "if":
                stack.extend([t[2][2], t[3][2]])
            elif kind == "loop":
                stack.append(t[2][2])
            elif kind == "call":
                callee = self.routines[t[2]]
                self.edge(t[1], callee["entry"], "DIRECT_CALL")
                self.edge(callee["exit"], t[3], "RETURN")

    # dynamic walk: counts
    def run(self, thread, budget):
        r = self.r
        prev = START
        main = self.routines[0]
        self.count(START, main["entry"], "ENTRY", thread)
        # explicit stack of (tree, state) to avoid deep recursion
        steps = [0]

        def go(tree, prev):
            stack = [(tree, 0, None)]
            while stack:
                t, st, aux = stack.pop()
                kind = t[0]
                if kind == "plain":
                    continue
                if kind == "seq":
                    if st < len(t[1]):
                        if st > 0:
                            self.count(t[1][st - 1][1], t[1][st][0], None, thread)
                        stack.append((t, st + 1, None))
                        stack.append((t[1][st][2], 0, None))
                    continue
                if kind == "if":
                    if st == 0:
                        take = r.random() < 0.5
                        br = t[2] if take else t[3]
                        self.count(t[1], br[0], None, thread)
                        stack.append((t, 1, br))
                        stack.append((br[2], 0, None))
                    else:
                        self.count(aux[1], t[4], None, thread)
                    continue
                if kind == "loop":
                    h, body, after = t[1], t[2], t[3]
                    if st == 0:
                        aux = r.randint(0, 4) if steps[0] < budget else 0
                    else:
                        self.count(body[1], h, None, thread)
                    steps[0] += 1
                    if aux > 0:
                        self.count(h, body[0], None, thread)
                        stack.append((t, 1, aux - 1))
                        stack.append((body[2], 0, None))
                    else:
                        self.count(h, after, None, thread)
                    continue
                if kind == "call":
                    c, callee, ret = t[1], self.routines[t[2]], t[3]
                    if st == 0:
                        if steps[0] >= budget or len(stack) > 200:
                            self.count(c, ret, None, thread)  # bypass: call not followed
                            continue
                        steps[0] += 1
                        self.count(c, callee["entry"], None, thread)
                        stack.append((t, 1, None))
                        stack.append((self.trees[t[2]], 0, None))
                    else:
                        self.count(callee["exit"], ret, None, thread)
                    continue

        go(self.trees[0], prev)
        self.count(main["exit"], END, "EXIT", thread)

    def count(self, s, t, ty, thread):
        if (s, t) not in self.edges:
            self.edges[(s, t)] = [0, ty, [0] * self.a.threads]
        self.edges[(s, t)][2][thread] += 1

    INTER = ("DIRECT_CALL", "RETURN", "ENTRY", "EXIT")

    def graphs(self):
        """Per routine: intra-routine successors and predecessors (one pass)."""
        rt_of = {b["id"]: b["routine"] for b in self.blocks}
        self.succ = [dict() for _ in self.routines]
        self.pred = [dict() for _ in self.routines]
        self.leaving = [set() for _ in self.routines]
        for (s, t), e in self.edges.items():
            rs = rt_of.get(s)
            if rs is None:
                continue
            if rt_of.get(t) == rs and e[1] not in self.INTER:
                self.succ[rs].setdefault(s, []).append(t)
                self.pred[rs].setdefault(t, []).append(s)
            else:
                self.leaving[rs].add(s)

    # dominators with plain set data-flow (independent of tracekit's CHK)
    def idoms(self, rt):
        entry = self.routines[rt]["entry"]
        preds = self.pred[rt]
        order = self.rpo(rt)
        dom = {n: set(order) for n in order}
        dom[entry] = {entry}
        changed = True
        while changed:
            changed = False
            for n in order:
                if n == entry:
                    continue
                ps = [dom[p] for p in preds.get(n, []) if p in dom]
                new = set.intersection(*ps) | {n} if ps else {n}
                if new != dom[n]:
                    dom[n] = new
                    changed = True
        idom = {}
        for n in order:
            if n == entry:
                idom[n] = n
                continue
            strict = dom[n] - {n}
            # the strict dominator dominated by all others
            idom[n] = max(strict, key=lambda d: len(dom[d]))
        return idom

    def rpo(self, rt):
        succ = self.succ[rt]
        seen, out = set(), []
        entry = self.routines[rt]["entry"]
        stack = [(entry, iter(succ.get(entry, [])))]
        seen.add(entry)
        while stack:
            n, it = stack[-1]
            for m in it:
                if m not in seen:
                    seen.add(m)
                    stack.append((m, iter(succ.get(m, []))))
                    break
            else:
                stack.pop()
                out.append(n)
        return out[::-1]


def num(g, v, hexy=False):
    """An integer as int or C hex string (randomly, with --hard)."""
    if g.a.hard and g.r.random() < 0.3:
        return "0x%x" % v if g.r.random() < 0.7 else "0X%X" % v
    return "0x%x" % v if hexy else v


def table(g, header, rows, optional_tail=0, unknown=True):
    """Header + rows; with --hard: shuffled columns, unknown columns, short
    rows (the last optional_tail cells dropped when None)."""
    rows = [list(r) for r in rows]
    cols = list(range(len(header)))
    hdr = list(header)
    if g.a.hard and unknown and g.r.random() < 0.5:
        hdr.append("X_FUTURE_COLUMN")
        for r in rows:
            r.append({"future": [1, 2]})
        cols.append(len(cols))
    if g.a.hard and g.r.random() < 0.5:
        g.r.shuffle(cols)
        # short rows need the optional columns last: keep them at the end
        tail = [c for c in cols if len(header) - optional_tail <= c < len(header)]
        cols = [c for c in cols if c not in tail] + sorted(tail)
    out = [[hdr[c] for c in cols]]
    for r in rows:
        cells = [r[c] for c in cols]
        while cells and cells[-1] is None:
            cells.pop()
        if any(c is None for c in cells):
            cells = [0 if c is None else c for c in cells]
        out.append(cells)
    return out


def emit(g):
    a = g.a
    r = g.r
    blocks = {b["id"]: b for b in g.blocks}
    nimages = 2
    # layout: routine -> image, addresses
    img_of = {}
    offs = [0x400] * nimages
    addr = {}
    symbols = [[] for _ in range(nimages)]
    for rt, R in enumerate(g.routines):
        im = rt % nimages
        symbols[im].append(["f%d" % rt, offs[im], 0])
        start = offs[im]
        for bid in sorted(R["blocks"]):
            img_of[bid] = im
            addr[bid] = offs[im]
            offs[im] += blocks[bid]["size"]
        symbols[im][-1][2] = offs[im] - start
    counts = {bid: 0 for bid in blocks}
    per_thread = [0] * a.threads
    for (s, t), e in g.edges.items():
        if t in counts:
            counts[t] += sum(e[2])
            for th in range(a.threads):
                per_thread[th] += e[2][th] * blocks[t]["instrs"]
    # edge ids
    eid = 1
    keys = list(g.edges)
    r.shuffle(keys)
    for k in keys:
        g.edges[k][0] = eid
        eid += 1 + (r.random() < 0.1)  # gaps
    images = []
    for im in range(nimages):
        bl = [b for b in g.blocks if img_of[b["id"]] == im]
        brows = []
        for b in bl:
            last = 0 if b["instrs"] == 1 else b["size"] - (b["size"] // b["instrs"])
            brows.append([b["id"], num(g, addr[b["id"]], True), num(g, b["size"]), num(g, b["instrs"]), num(g, last),
                          num(g, counts[b["id"]])])
        if a.hard:
            r.shuffle(brows)
        data = {"FILE_NAME_ID": im + 1}
        data["SYMBOLS"] = table(g, ["NAME", "ADDR_OFFSET", "SIZE"],
                                [[n, num(g, o, True), num(g, s)] for n, o, s in symbols[im]])
        if im == 0:
            srows = [[5, 10 + i, num(g, addr[b["id"]], True), b["size"], b["instrs"]] for i, b in enumerate(bl)]
            data["SOURCE_DATA"] = table(g, ["FILE_NAME_ID", "LINE_NUM", "ADDR_OFFSET", "SIZE", "NUM_INSTRS"], srows)
        data["BASIC_BLOCKS"] = table(g, ["NODE_ID", "ADDR_OFFSET", "SIZE", "NUM_INSTRS", "LAST_INSTR_OFFSET", "COUNT"],
                                     brows)
        if not a.no_routines:
            rrows = []
            for rt, R in enumerate(g.routines):
                if rt % nimages != im:
                    continue
                idom = g.idoms(rt)
                exits = sorted(g.leaving[rt])
                nodes = [[n, idom[n]] for n in R["blocks"] if n in idom]
                if a.hard:
                    r.shuffle(nodes)
                loops = []
                # nesting from the structure: parent = innermost enclosing loop
                bodies = {}
                for h, latch in R["loops"]:
                    bodies[h] = loop_nodes(g, rt, h, latch)
                for h, latch in R["loops"]:
                    parents = [p for p in bodies if p != h and h in bodies[p]]
                    parent = min(parents, key=lambda p: len(bodies[p])) if parents else None
                    loops.append([h, [latch], sorted(bodies[h]), parent])
                lt = table(g, ["LOOP_HEAD_NODE_ID", "LOOP_BACK_EDGE_SOURCE_NODE_IDS", "LOOP_NODE_IDS",
                               "PARENT_LOOP_HEAD_NODE_ID"], loops, optional_tail=1, unknown=False) if loops else None
                rrows.append([R["entry"], exits, table(g, ["NODE_ID", "IDOM_NODE_ID"], nodes, unknown=False), lt])
            data["ROUTINES"] = table(g, ["ENTRY_NODE_ID", "EXIT_NODE_IDS", "NODES", "LOOPS"], rrows, optional_tail=1,
                                     unknown=False)
        if a.hard:
            data["X_FUTURE_KEY"] = {"nested": [[1, 2], {"a": "b"}]}
            items = list(data.items())
            r.shuffle(items)
            data = dict(items)
        images.append([im + 1, num(g, 0x400000 * (im + 1) ** 3, True), num(g, offs[im] + 0x100), data])
    etype_ids = g.type_ids
    erows = []
    for (s, t), e in g.edges.items():
        erows.append([e[0], s, t, etype_ids[e[1]], [num(g, c) for c in e[2]]])
    if a.hard:
        r.shuffle(erows)
    total = sum(per_thread)
    proc = {"INSTR_COUNT_PER_THREAD": per_thread, "INSTR_COUNT": num(g, total),
            "IMAGES": table(g, ["IMAGE_ID", "LOAD_ADDR", "SIZE", "IMAGE_DATA"], images),
            "EDGES": table(g, ["EDGE_ID", "SOURCE_NODE_ID", "TARGET_NODE_ID", "EDGE_TYPE_ID", "COUNT_PER_THREAD"],
                           erows)}
    top = {"MAJOR_VERSION": 1, "MINOR_VERSION": 0,
           "FILE_NAMES": [["FILE_NAME_ID", "FILE_NAME"], [1, "/tmp/gen/prog"], [2, "/lib/libgen.so"],
                          [5, "/tmp/gen/prog.c"]],
           "EDGE_TYPES": [["EDGE_TYPE_ID", "EDGE_TYPE"]] + [[etype_ids[t], t] for t in EDGE_TYPES],
           "SPECIAL_NODES": [["NODE_ID", "NODE_NAME"], [START, "START"], [END, "END"], [UNKNOWN, "UNKNOWN"]],
           "PROCESSES": [["PROCESS_ID", "PROCESS_DATA"], [4242, proc]]}
    if a.hard:
        top["X_FUTURE_TOP"] = [1, 2, 3]
        items = list(top.items())
        r.shuffle(items)
        top = dict(items)
    return top


def loop_nodes(g, rt, h, latch):
    """Natural loop of back edge latch->h: h plus the nodes reaching latch
    without passing h (intra-routine edges)."""
    preds = g.pred[rt]
    body = {h, latch}
    work = [latch] if latch != h else []
    while work:
        n = work.pop()
        for p in preds.get(n, []):
            if p not in body:
                body.add(p)
                work.append(p)
    return body


def write(top, hard, out):
    text = json.dumps(top, separators=(", ", " : "))
    text = text.replace("/", "\\/")
    if hard:
        text = text.replace('"f1"', '"\\u0066\\u0031"')  # a \u escape Intel's reader refuses but JSON allows
    out.write(text)
    out.write("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--routines", type=int, default=12)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--fanout", type=int, default=3)
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seq", type=int, default=4, help="statements per sequence (max)")
    ap.add_argument("--p-if", type=float, default=0.2)
    ap.add_argument("--p-loop", type=float, default=0.2)
    ap.add_argument("--p-call", type=float, default=0.15)
    ap.add_argument("--hard", action="store_true")
    ap.add_argument("--no-routines", action="store_true")
    a = ap.parse_args()
    sys.setrecursionlimit(10000)
    g = Gen(a)
    g.build()
    for t in range(a.threads):
        g.run(t, a.steps)
    g.graphs()
    write(emit(g), a.hard, sys.stdout)


if __name__ == "__main__":
    main()
