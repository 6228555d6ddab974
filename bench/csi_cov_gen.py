"""csi-cc coverage metadata for bench/csi_cov.sh, in the labelled form csi-cc writes
(docs/formats/csi.md, "Coverage metadata"): N functions of a generated program, deterministic.
    python3 bench/csi_cov_gen.py N cc|bbc
cc: each function's call sites (`i|CCi|LINE|CALLEE`), bbc: its blocks (`i|BBCi|LINE|...`, or
NULL); one entry in ten is not instrumented (`-1||...`, `-2||...`: csi-cc's -csi-opt levels)."""
import random
import sys

n, kind = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261202 if kind == "cc" else 20261203)
prefix = "__CC_arr_" if kind == "cc" else "__BBC_arr_"
out, buf = sys.stdout, []
for f in range(n):
    name = f"fn_{f}"
    buf.append(f"#{name}|{prefix}src_file{f % 500}_c_{name}\n")
    line, idx, unidx = 10 + rng.randrange(5000), 0, 0
    for k in range(rng.randint(1, 24)):
        inst = k == 0 or rng.random() >= 0.1  # (a function is listed when one entry is)
        if inst:
            head = f"{idx}|{'CC' if kind == 'cc' else 'BBC'}{idx}"
            idx += 1
        else:
            unidx -= 1
            head = f"{unidx}|"
        if kind == "cc":
            buf.append(f"{head}|{line}|callee_{rng.randrange(2000)}\n")
        elif rng.random() < 0.05:
            buf.append(f"{head}|NULL\n")
        else:
            lines = [line + rng.randrange(3) for _ in range(rng.randint(1, 6))]
            buf.append(f"{head}|{'|'.join(map(str, sorted(lines)))}\n")
        line += rng.randrange(4)
    if len(buf) > 10000:
        out.writelines(buf)
        buf = []
out.writelines(buf)
