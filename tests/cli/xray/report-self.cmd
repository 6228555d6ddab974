# report's self column: each function's time minus the time of the calls it made (llvm-xray
# account has none; users worked it out by hand). Per function it equals the self time of the
# folded stacks that end in it (convert --to folded: ns, compared with llvm-xray stack by the
# xray_oracle integration test)
tracekit report -n 4 -s self -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr
for f in tests/data/xray/pass/mtpool.fdr tests/data/xray/pass/calltree.fdr tests/data/xray/pass/calltree.basic; do
    tracekit report --format csv --unit ns --all $f | python3 -c '
import csv, subprocess, sys, collections
rows = list(csv.DictReader(sys.stdin))
leaf = collections.Counter()
for line in subprocess.run(["tracekit", "convert", "--to", "folded", sys.argv[1]],
                           capture_output=True, text=True, check=True).stdout.splitlines():
    stack, n = line.rsplit(" ", 1)
    leaf[stack.split(";")[-1]] += int(n)
bad = [r["function"] for r in rows if abs(float(r["self"]) - leaf[r["function"]]) > 1 + int(r["count"])]  # a folded line is rounded to the ns
print(sys.argv[1], len(rows), "functions:", "self equals the folded stacks" if not bad else "differ: %s" % bad[:5])
' $f
done
tracekit report --format json -n 1 -s self tests/data/xray/pass/calltree.fdr | grep -o '"sum":[^,]*,"self":[^,]*'
