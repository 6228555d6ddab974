# emulated TSC: the ticks are nanoseconds. The duration of the one idle_pause call (id 3) from
# the raw events (convert --to json, clock unit "ns") equals report's JSON value converted from
# its "unit" to ns, in every unit (JSON used to say "unit":"ns" over values in seconds)
f=tests/data/xray/pass/calltree-emutsc.fdr
for u in "" "--unit s" "--unit ms" "--unit ns"; do
tracekit report --format json $u $f | python3 -c '
import json, subprocess, sys
rep = json.load(sys.stdin)
ev = json.loads(subprocess.run(["tracekit", "convert", "--to", "json", sys.argv[1]],
                               capture_output=True, text=True, check=True).stdout)
assert ev["clock"]["unit"] == "ns"
t = [e["time"] for e in ev["events"] if e.get("func") == 3]
scale = {"s": 1e9, "ms": 1e6, "us": 1e3, "ns": 1}[rep["unit"]]
row = [r for r in rep["functions"] if r["id"] == 3][0]
print(rep["unit"], "events:", t[1] - t[0], "ns; report:", round(row["sum"] * scale), "ns")
' $f
done
