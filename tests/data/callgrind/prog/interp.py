# A CPython workload whose C call graph has the interpreter's call cycle
# (_PyEval_EvalFrameDefault re-entered through C calls: map, sorted's key,
# json's default hook), for tests/integration/callgrind_inclusive.sh.
import json
import re

data = [{"a": i, "b": str(i) * 3, "c": [i, i * 2]} for i in range(600)]
text = json.dumps(data)
for _ in range(2):
    json.loads(text)
pairs = re.compile(r"(\d+)\D+(\d+)")
found = len(pairs.findall(text))


def walk(x):
    if isinstance(x, list):
        return sum(map(walk, x))
    if isinstance(x, dict):
        return sum(walk(v) for v in sorted(x.values(), key=str))
    return 1


print(found, walk(json.loads(text)[:300]))
