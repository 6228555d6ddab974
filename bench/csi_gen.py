#!/usr/bin/env python3
"""Generates CSI .debug_PT-shaped CFGs for the benchmarks: N functions with
random branches and loops, all edges written as '->' with zero weights.
`tracekit convert --to csi --renumber` then gives them a real Ball-Larus
numbering (back edges found by DFS). Deterministic for a given seed.
usage: csi_gen.py N_FUNCTIONS [SEED] > cfgs.txt"""
import random
import sys


def main():
    nfun = int(sys.argv[1])
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    out = sys.stdout
    bid = 0
    for f in range(nfun):
        n = rnd.randint(3, 16)
        base = bid
        bid += n + 1
        exit_id = base + n
        lines = ["#", "fn_%d" % f, "%d|EXIT" % exit_id]
        line = rnd.randint(1, 5000)
        for v in range(n):
            k = rnd.randint(1, 4)
            nums = []
            for _ in range(k):
                line += rnd.randint(0, 2)
                nums.append(str(line))
            if rnd.random() < 0.3:
                nums.insert(rnd.randint(0, k), "-1")
            lines.append("%d|%s%s" % (base + v, "ENTRY|" if v == 0 else "", "|".join(nums)))
        lines.append("$")
        for v in range(n):
            succ = {v + 1}  # a chain keeps every block reachable
            if rnd.random() < 0.6:
                succ.add(rnd.randint(v + 1, n))
            if v > 0 and rnd.random() < 0.15:
                succ.add(rnd.randint(1, v))
            for w in sorted(succ):
                lines.append("%d->%d|0$0" % (base + v, base + w))
        out.write("\n".join(lines) + "\n")


main()
