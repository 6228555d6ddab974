#!/usr/bin/env python3
"""Compares what speedscope showed (the JSON lines of speedscope.js) with what tracekit says.

usage: expect_speedscope.py TRACEKIT RESULTS.jsonl CASES

CASES has one case a line, "FILE KIND [REF]":
  folded FILE             speedscope's totals and self weights per name equal those added up
                          from the folded file itself (it loaded what was written)
  folded-ref FILE REF     ... equal those of the folded file REF (units: the same)
  chrome FILE REF SCALE CALLS
                          the sum over speedscope's profiles (threads) of each name's total and
                          self equals REF's (folded stacks of the same trace), REF's weights
                          multiplied by SCALE (1e-3: ns -> us); each profile is named once
                          (no "(pid" twice, no "tid" twice); ts and dur are rounded to the
                          nanosecond each, so a name may differ by 2 ns per call (CALLS: the
                          folded stacks of the call counts); for a name with arguments
                          (speedscope shows "NAME {args}") self weights only
  callgrind FILE [REF]    speedscope's profile of the first event: the self weight of every
                          name equals `tracekit report` of FILE (summed over functions of that
                          name), the profile's total equals the program total, every function
                          with self cost is shown, and the totals of the threads' roots ("thread
                          T") add up to the program total (every function is reachable from
                          them: speedscope starts its tree at the functions nobody calls); with
                          REF (folded stacks of the same trace), each name's total equals REF's
                          inclusive weight too. Where speedscope's tree is approximate (a
                          recursion; functions under 0.1 %, whose subtrees it may leave out),
                          the totals of the threads' top-level functions equal REF's, and every
                          function of 1 % or more is shown
  callgrind-estimated FILE
                          as callgrind, for a profile whose calls' inclusive costs are
                          estimates rounded to units (DCFG: a routine's inclusive cost shared
                          out by call counts): speedscope scales them, so each self weight may
                          be off by one unit per function
  same FILE ORIG          speedscope shows FILE as it shows ORIG (a valgrind profile and its
                          conversion): the same names with the same totals and self weights
  rejected FILE           speedscope refuses FILE (documented names)
  load FILE               FILE is loaded for a "same" case; nothing is checked
Every loaded case must have loaded without a JavaScript error. Exit 1 on any mismatch.
"""
import json
import re
import subprocess
import sys
from collections import defaultdict


def folded_totals(path, scale=1.0):
    acc = defaultdict(lambda: [0.0, 0.0])
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            stack, w = line.rsplit(" ", 1)
            w = float(w) * scale
            names = stack.split(";")
            for n in set(names):
                acc[n][0] += w
            acc[names[-1]][1] += w
    return acc


def close(a, b, tol_rel=1e-6, tol_abs=0.0):
    return abs(a - b) <= max(tol_abs, tol_rel * max(abs(a), abs(b)))


def speedscope_roots(path):
    """The roots speedscope's callgrind importer makes of a file and their weights: it keys a
    function by its fl= file and name, and a callee without cfi=/cfl= by the caller's fl= file
    (it ignores fi=/fe=), so a call from inlined code of another file (valgrind writes no cfi=
    there, nor tracekit after it) makes the callee a second frame, a root of its own."""
    # (tracekit's conversion of a valgrind profile shows what the original shows)
    files, fns = {}, {}

    def name(tok, saved):
        m = re.match(r"^\((\d+)\)\s*(.+)$", tok)
        if m:
            saved[m.group(1)] = m.group(2)
            return m.group(2)
        m = re.match(r"^\((\d+)\)$", tok)
        return saved[m.group(1)] if m else tok

    fl = fn = cfl = cfn = None
    weight, children = defaultdict(float), set()
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        m = re.match(r"^(\w+)=\s*(.*)$", line)
        if m:
            k, v = m.groups()
            if k == "fl":
                fl = name(v, files)
            elif k in ("fi", "fe"):
                name(v, files)
            elif k == "fn":
                fn = name(v, fns)
            elif k in ("cfi", "cfl"):
                cfl = name(v, files)
            elif k == "cfn":
                cfn = name(v, fns)
            elif k == "calls":
                children.add((cfl or fl, cfn))
                cost = lines[i].split()
                weight[(fl, fn)] += float(cost[1]) if len(cost) > 1 else 0
                i += 1
                cfl = cfn = None
            continue
        cost = line.split()
        if len(cost) > 1 and (line[0].isdigit() or line[0] in "+-*"):
            weight[(fl, fn)] += float(cost[1])
    roots = {k: w for k, w in weight.items() if k not in children}
    # it leaves out a tree that weighs less than 1e-4 of its heaviest frame (a root here)
    top = max(roots.values(), default=0)
    return {k: w for k, w in roots.items() if w >= 1e-4 * top}


def compare(label, shown, want, bad, tol_abs=0.0, tol_rel=1e-6, what=("total", "self"),
            per_name=None, self_only=()):
    for name, w in want.items():
        tol = tol_abs * (per_name[name][0] if per_name else 1)
        if w[0] == 0 and w[1] == 0:
            continue
        if name not in shown:
            bad.append(f"{label}: {name!r} is not shown (expected total {w[0]:g})")
            continue
        for k, key in enumerate(("total", "self")):
            if key == "total" and name in self_only:
                continue
            if key in what and not close(shown[name][k], w[k], tol_rel, tol):
                bad.append(f"{label}: {name!r} {key} {shown[name][k]:g}, expected {w[k]:g}")


def summed(profiles, strip_args=False, with_args=None):
    acc = defaultdict(lambda: [0.0, 0.0])
    for p in profiles:
        for n, (t, s) in p["frames"].items():
            if strip_args and " {" in n:    # speedscope names an event with args "NAME {args}"
                n = n.split(" {", 1)[0]
                with_args.add(n)
            acc[n][0] += t
            acc[n][1] += s
    return acc


def check_callgrind(tracekit, r, ref, bad, estimated=False):
    label = r["file"]
    rep = json.loads(subprocess.run([tracekit, "report", "--inclusive", "--format=json",
                                     r["file"]], capture_output=True, check=True,
                                    text=True).stdout)
    want = defaultdict(lambda: [0.0, 0.0])
    for fn in rep["functions"]:
        want[fn["name"]][1] += fn["self"][0]
    prof = r["profiles"][0]
    # the writers round ticks to ns per row: one unit per function
    # speedscope's total: its roots' weights, the threads' roots and the callees of calls
    # from inlined code of other files that it keys apart (speedscope_roots)
    want_total = sum(speedscope_roots(r["file"]).values())
    if not close(prof["total"], want_total, 0, len(rep["functions"])):
        bad.append(f"{label}: speedscope's total {prof['total']:g}, expected {want_total:g} "
                   f"(tracekit's {rep['totals'][0]})")
    # (a thread of several traces: "process KEY thread TID", docs/formats/xray.md)
    roots = {n: t for n, (t, _) in prof["frames"].items()
             if n.startswith("thread ") or re.match(r"process -?\d+ thread ", n)}
    if not roots:
        bad.append(f"{label}: no thread root")
    elif not close(sum(roots.values()), rep["totals"][0], 0, len(rep["functions"])):
        bad.append(f"{label}: the threads' roots total {sum(roots.values()):g} of "
                   f"{rep['totals'][0]} ({sorted(roots.items())[:4]})")
    # speedscope turns the call graph into a tree by scaling each callee's arcs: with a
    # recursion (an arc's inclusive cost counts nested calls once per level) it books costs
    # elsewhere, and it leaves out a subtree that weighs less than 1e-4 of its heaviest frame
    # (adding it to the caller's self: a real program's many small functions); then the
    # callees of the threads' roots are compared, and every function of 1 % is shown
    total = rep["totals"][0]
    small = any(f["self"][0] and f["inclusive"][0] < 1e-3 * total for f in rep["functions"])
    if rep.get("cycles") or small:
        if ref:
            folded = folded_totals(ref)
            top = {line.split(";")[0] for line in open(ref)}
            compare(label + " (top-level)", prof["frames"],
                    {n: folded[n] for n in top if n in folded}, bad,
                    tol_abs=len(rep["functions"]), what=("total",))
        for f in rep["functions"]:
            if f["inclusive"][0] >= 0.01 * total and f["name"] not in prof["frames"]:
                bad.append(f"{label}: {f['name']!r} ({f['inclusive'][0]} of {total}) not shown")
        return
    compare(label, prof["frames"], want, bad, what=("self",),
            tol_abs=len(rep["functions"]) if estimated else 0.0)
    if ref:
        compare(label + " (vs " + ref + ")", prof["frames"], folded_totals(ref), bad,
                tol_abs=1.0, what=("total",))


def check_names(r, bad):
    for p in r["profiles"]:
        if len(re.findall(r"\(pid|pid ", p["name"])) > 1 or p["name"].count("tid") > 1:
            bad.append(f"{r['file']}: profile named {p['name']!r}: the thread is named twice")


def check_case(tracekit, r, case, bad, got):
    kind, ref = case[0], case[2] if len(case) > 2 else None
    label = r["file"]
    if kind == "load":
        return
    if kind == "rejected":
        if r["state"] == "loaded":
            bad.append(f"{label}: loaded, expected speedscope to refuse it")
        return
    if r["state"] != "loaded" or r["errors"]:
        bad.append(f"{label}: {r['state']} ({r.get('importer')}): {'; '.join(r['errors'])}")
        return
    if not r["profiles"]:
        bad.append(f"{label}: no profile")
        return
    if kind == "folded":
        compare(label, summed(r["profiles"]), folded_totals(label), bad)
    elif kind == "folded-ref":
        compare(label, summed(r["profiles"]), folded_totals(ref), bad)
    elif kind == "chrome":
        scale = float(case[3])
        check_names(r, bad)
        with_args = set()
        shown = summed(r["profiles"], True, with_args)
        compare(label, shown, folded_totals(ref, scale), bad, tol_abs=2 * scale, tol_rel=0,
                per_name=folded_totals(case[4]), self_only=with_args)
    elif kind in ("callgrind", "callgrind-estimated"):
        check_callgrind(tracekit, r, ref, bad, kind == "callgrind-estimated")
    elif kind == "same":
        orig = got.get(ref)
        if not orig or orig["state"] != "loaded":
            bad.append(f"{label}: the original {ref} did not load")
            return
        # speedscope scales each callee's arcs to its caller's share and rounds: the order of
        # the arcs moves a few units
        for a, b in zip(r["profiles"], orig["profiles"]):
            compare(label, a["frames"], b["frames"], bad, tol_abs=4, tol_rel=2e-3)
            compare(label, b["frames"], a["frames"], bad, tol_abs=4, tol_rel=2e-3)
    else:
        bad.append(f"{label}: unknown case kind {kind}")


def main():
    tracekit, results, cases = sys.argv[1:4]
    got = {}
    with open(results) as f:
        for line in f:
            r = json.loads(line)
            got[r["file"]] = r
    bad = []
    n = 0
    with open(cases) as f:
        for line in f:
            case = line.split()
            if not case:
                continue
            kind, file = case[0], case[1]
            r = got.get(file)
            if r is None:
                bad.append(f"{file}: no result")
                continue
            before = len(bad)
            check_case(tracekit, r, [kind] + case[1:], bad, got)
            n += 1
            print(("ok  " if len(bad) == before else "BAD ") + f"{kind} {file} "
                  f"({r['state']}, {r.get('importer')})")
    for b in bad:
        print("    " + b)
    print(f"{n} files checked, {len(bad)} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
