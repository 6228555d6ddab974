"""Folded stacks for bench/folded.sh: N lines of stacks walked down a random call graph
(deterministic: seeded), C++-like frame names, depth 1-48, counts 1-100000.
    python3 bench/folded_gen.py N [--diff]   (--diff: two counts a line, difffolded.pl's form)"""
import random
import sys

n = int(sys.argv[1])
diff = "--diff" in sys.argv[2:]
rng = random.Random(20261202)
nfuncs = 20000
names = [f"ns{i % 37}::Class{i % 211}<int>::method_{i}(std::string const&)" for i in range(nfuncs)]
callees = [[rng.randrange(nfuncs) for _ in range(rng.randint(1, 8))] for _ in range(nfuncs)]
roots = [rng.randrange(nfuncs) for _ in range(16)]
out = sys.stdout
lines = []
for _ in range(n):
    f = rng.choice(roots)
    stack = [names[f]]
    for _ in range(rng.randint(0, 47)):
        f = rng.choice(callees[f])
        stack.append(names[f])
    count = rng.randint(1, 100000)
    if diff:
        lines.append(f"{';'.join(stack)} {count} {max(0, count + rng.randint(-500, 500))}\n")
    else:
        lines.append(f"{';'.join(stack)} {count}\n")
    if len(lines) == 10000:
        out.writelines(lines)
        lines = []
out.writelines(lines)
