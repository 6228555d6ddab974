#!/usr/bin/env bash
# The README's examples are true: every `$ command` line of a ``` block in
# README.md is run (in a scratch folder where examples/ is the repository's)
# and its output (stdout and stderr) must be the lines that follow it. And where it says
# the program is: build/tracekit after `make demo`, PREFIX/bin/tracekit (PREFIX /usr/local)
# with its man pages after `make install` (what make would run, make -n).
set -u
cd "$(dirname "$0")/../.."
root=$(pwd)
TRACEKIT=${TRACEKIT:-build/tracekit}
case "$TRACEKIT" in /*) ;; *) TRACEKIT=$root/$TRACEKIT ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -q 'build/tracekit' README.md && grep -qF 'man ./build/man/tracekit.1' README.md &&
    grep -q 'PREFIX=/usr/local' README.md || { echo "README: where the program is, not said"; exit 1; }
env -u MAKEFLAGS -u MAKELEVEL make -s -n -p demo BUILD=build 2>/dev/null | grep -qx 'PROGRAM := build/tracekit' ||
    { echo "make demo does not build build/tracekit"; exit 1; }
env -u MAKEFLAGS -u MAKELEVEL make -s -n install BUILD=build DESTDIR="$tmp/d" 2>/dev/null >"$tmp/install" || true
for want in "install -m 755 build/tracekit $tmp/d/usr/local/bin/tracekit" \
    "install -m 644 build/man/\*.1 $tmp/d/usr/local/share/man/man1/"; do
    grep -qx "$want" "$tmp/install" || { echo "make install does not run: $want"; exit 1; }
done
mkdir "$tmp/bin" "$tmp/run"
ln -s "$TRACEKIT" "$tmp/bin/tracekit"
ln -s "$root/examples" "$tmp/run/examples"
python3 - "$root/README.md" "$tmp" <<'PY'
import os, subprocess, sys
readme, tmp = sys.argv[1], sys.argv[2]
env = dict(os.environ, PATH=tmp + "/bin:" + os.environ["PATH"])
examples, cur, inblock = [], None, False
for line in open(readme, encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("```"):
        inblock = not inblock
        if cur: examples.append(cur)
        cur = None
        continue
    if not inblock:
        continue
    if line.startswith("$ "):
        if cur: examples.append(cur)
        cur = [line[2:], []]
    elif cur is not None:
        cur[1].append(line)
bad = 0
for cmd, want in examples:
    while want and want[-1] == "":
        want.pop()
    got = subprocess.run(["bash", "-c", cmd], cwd=tmp + "/run", env=env, capture_output=True,
                         text=True)
    lines = (got.stdout + got.stderr).rstrip("\n").split("\n")
    if lines != want:
        bad += 1
        print(f"README example differs: $ {cmd}")
        import difflib
        for d in difflib.unified_diff(want, lines, "README", "now", lineterm=""):
            print("   ", d)
print(f"{len(examples)} README examples, {bad} differ")
sys.exit(1 if bad or not examples else 0)
PY
