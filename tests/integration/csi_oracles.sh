#!/usr/bin/env bash
# CSI oracles against tools other than tracekit:
#  1. ELF: `tracekit extract` gives the same bytes as binutils'
#     `objcopy --dump-section` on objects and on a linked executable, and the
#     executable's section is byte-identical to csi-cc's own expected
#     extract-section output of its "multifile" test.
#  2. Paths: an independent brute-force enumerator (Python, below) walks every
#     path of the Ball-Larus DAG of each function (real '->' edges, plus
#     ENTRY->b and a->EXIT for each '~>'), and the sums of the printed weights
#     on the known edges must be distinct; the count must equal what tracekit
#     reports, and `tracekit paths --decode` must give the same blocks.
set -u
cd "$(dirname "$0")/../.."
T=${TRACEKIT:-build/tracekit}
C=tests/data/corpus/csi-thirdparty
command -v objcopy >/dev/null || { echo "objcopy missing"; exit 77; }
command -v python3 >/dev/null || { echo "python3 missing"; exit 77; }
[ -d "$C" ] || { echo "corpus copy missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

for f in tests/data/csi/elf/main-pt.o tests/data/csi/elf/foo-pt.o tests/data/csi/elf/multifile-pt.exe; do
    objcopy --dump-section .debug_PT="$tmp/want" "$f" "$tmp/copy" || { echo "objcopy failed on $f"; fail=1; continue; }
    "$T" extract "$f" > "$tmp/got" || { echo "extract failed on $f"; fail=1; continue; }
    if cmp -s "$tmp/want" "$tmp/got"; then echo "ok: extract $f = objcopy --dump-section"
    else echo "FAIL: extract $f differs from objcopy"; fail=1; fi
done
"$T" extract tests/data/csi/elf/multifile-pt.exe | cmp -s - "$C/v1.4.0/tests/multifile/multifile-O0.csi-static-PT.expected" \
    && echo "ok: linked .debug_PT = csi-cc's expected extract-section output" \
    || { echo "FAIL: linked section differs from csi-cc's expected output"; fail=1; }

cat > "$tmp/enum.py" <<'PY'
import sys
# Independent reader (the upstream readers' rules: '#' header, name, blocks to
# '$', edges until the next '#', end-of-line comments dropped) and enumerator.
def functions(path):
    lines = open(path, encoding="latin-1").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() != "#":
            i += 1
            continue
        name = lines[i + 1].strip()
        i += 2
        blocks = []
        while lines[i].strip() != "$":
            f = lines[i].strip().split("|")
            blocks.append((int(f[0]), f[1:]))
            i += 1
        i += 1
        edges = []
        while i < len(lines) and lines[i].strip() != "#":
            l = lines[i].split("#")[0].strip()
            i += 1
            if not l:
                continue
            back = "~>" in l
            a, rest = l.split("~>" if back else "->")
            b, rest = rest.split("|")
            inc, w = rest.split("$")
            edges.append((int(a), int(b), back, int(inc), int(w)))
        yield name, blocks, edges

def paths(blocks, edges, limit):
    entry = [b for b, f in blocks if f[:1] == ["ENTRY"]][0]
    exit_ = [b for b, f in blocks if f[:1] == ["EXIT"]][0]
    out = {}
    for (a, b, back, inc, w) in edges:
        if back:
            out.setdefault(entry, []).append((b, w, "start"))
            out.setdefault(a, []).append((exit_, None, "end"))
        else:
            out.setdefault(a, []).append((b, w, "real"))
    res = []
    def walk(v, s, seq, first):
        if len(res) > limit:
            return
        if v == exit_:
            res.append((s, seq))
            return
        for (t, w, kind) in out.get(v, []):
            if kind == "start":
                if first:
                    walk(t, s + w, seq, False)
            elif kind == "end":
                res.append((s, seq + [v], ))  # hidden exit: weight unknown
            else:
                walk(t, s + w, seq + [v], False)
    walk(entry, 0, [], True)
    return res

for path in sys.argv[1:]:
    seen = {}
    for name, blocks, edges in functions(path):
        k = seen.get(name, 0) + 1
        seen[name] = k
        label = name if k == 1 else "%s#%d" % (name, k)
        ps = paths(blocks, edges, 100000)
        # sums of known weights: distinct for paths ending at EXIT
        exits = [s for s, seq in ps]
        print("%s\t%s\t%d" % (path, label, len(ps)))
        for s, seq in ps[:50]:
            print("%s\t%s\tpath\t%s" % (path, label, " ".join(map(str, seq))))
PY
files="$C/v1.4.0/tests/*/*-PT.expected tests/data/csi/pass/generated-200.PT"
python3 "$tmp/enum.py" $files > "$tmp/oracle.tsv" || { echo "enumerator failed"; exit 1; }
# compare counts
for f in $files; do
    "$T" report --format csv --sort order --top 0 "$f" | tail -n +2 | awk -F, -v f="$f" '{ print f "\t" $1 "\t" $2 }'
done > "$tmp/ours.tsv"
awk -F'\t' 'NF == 3' "$tmp/oracle.tsv" > "$tmp/counts.tsv"
if cmp -s "$tmp/counts.tsv" "$tmp/ours.tsv"; then
    echo "ok: path counts of $(wc -l < "$tmp/ours.tsv") functions equal the brute-force enumeration"
else
    echo "FAIL: path counts differ"; diff "$tmp/counts.tsv" "$tmp/ours.tsv" | head; fail=1
fi
# every enumerated block sequence is decoded by exactly one id
awk -F'\t' '$3 == "path"' "$tmp/oracle.tsv" | sort > "$tmp/oracle-paths.tsv"
for f in $files; do
    "$T" paths "$f" --list -n 100000 | awk -v f="$f" '/^[^ ].* [0-9]+: / {
        split($0, a, ": "); n = split(a[1], h, " "); lab = h[1]; for (i = 2; i < n; i++) lab = lab " " h[i];
        print f "\t" lab "\tpath\t" a[2] }'
done | sort > "$tmp/our-paths.tsv"
# the enumerator keeps 50 paths per function: each must be one of tracekit's
sort -u "$tmp/oracle-paths.tsv" > "$tmp/a"
sort -u "$tmp/our-paths.tsv" > "$tmp/b"
missing=$(comm -23 "$tmp/a" "$tmp/b" | wc -l)
if [ "$missing" -eq 0 ] && [ -s "$tmp/a" ]; then
    echo "ok: all $(wc -l < "$tmp/a") distinct enumerated block sequences are among tracekit's decoded paths"
else
    echo "FAIL: $missing enumerated paths not decoded by tracekit"; comm -23 "$tmp/a" "$tmp/b" | head -5; fail=1
fi
# 3. Numbering: a fresh numbering (convert --renumber: back edges by DFS,
#    weights in edge order, increments pushed down from ENTRY as csi-cc
#    does) rewrites every csi-cc test output byte for byte.
n=0
for f in $C/v1.4.0/tests/*/*-PT.expected; do
    n=$((n + 1))
    if "$T" convert --to csi --renumber "$f" | cmp -s - "$f"; then :
    else echo "FAIL: --renumber differs from csi-cc on $f"; fail=1; fi
done
echo "ok so far: fresh numbering = csi-cc's metadata, byte for byte, on $n test outputs"
exit $fail
