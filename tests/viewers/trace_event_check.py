#!/usr/bin/env python3
"""Trace Event Format checker for tracekit's Chrome JSON exports.

usage: trace_event_check.py FILE...

Checks, per file (the rules of Google's "Trace Event Format" document):
  - strict JSON (no NaN/Infinity), object form with a "traceEvents" array (or the array form);
    "displayTimeUnit", when present, is "ms" or "ns";
  - every event has a string "ph" and "name", integer "pid" (and "tid" but for process-scoped
    metadata), and a finite number "ts" (microseconds) for every phase but "M";
  - "X" events have a finite "dur" >= 0; per thread the X intervals nest strictly (a child ends
    no later than its parent), compared in nanoseconds;
  - "B"/"E" pair per thread in stack order, names matching where "E" names one;
  - "i"/"I" instant events have scope "g", "p" or "t";
  - "M" metadata events are one of process_name, process_labels, process_sort_index,
    thread_name, thread_sort_index with the argument their kind needs, at most one of a kind
    per process or thread;
  - ts values are microseconds: every ts is within [0, 1e13] (no nanoseconds passed as us for a
    trace shorter than a day starting at 0) and the trace's span is below ten days.
Prints one line per file ("ok: FILE: N events, T threads" or the problems) and exits 1 when
any file has a problem.
"""
import json
import math
import sys
from collections import defaultdict

META = {"process_name": "name", "process_labels": "labels", "process_sort_index": "sort_index",
        "thread_name": "name", "thread_sort_index": "sort_index"}


def reject_constant(name):
    raise ValueError("not JSON: " + name)


def ns(v):
    return round(v * 1000)


def check_event(e, i, bad):
    if not isinstance(e, dict):
        bad.append(f"event {i}: not an object")
        return None
    ph = e.get("ph")
    if not isinstance(ph, str) or not isinstance(e.get("name"), str):
        bad.append(f"event {i}: ph and name must be strings")
        return None
    if not isinstance(e.get("pid"), int):
        bad.append(f"event {i}: pid must be an integer")
    if ph != "M" or e["name"].startswith("thread_"):
        if not isinstance(e.get("tid"), int):
            bad.append(f"event {i}: tid must be an integer")
    if ph != "M":
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or not math.isfinite(ts):
            bad.append(f"event {i}: ts must be a finite number")
            return None
        if ts < 0 or ts > 1e13:
            bad.append(f"event {i}: ts {ts} is not in microseconds from the trace start")
    if ph == "X":
        d = e.get("dur")
        if not isinstance(d, (int, float)) or isinstance(d, bool) or not math.isfinite(d) or d < 0:
            bad.append(f"event {i}: X needs a finite dur >= 0")
            return None
    if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
        bad.append(f"event {i}: instant scope {e.get('s')!r}")
    return ph


def check_meta(e, i, seen, bad):
    kind = e["name"]
    if kind not in META:
        bad.append(f"event {i}: unknown metadata {kind!r}")
        return
    args = e.get("args")
    if not isinstance(args, dict) or META[kind] not in args:
        bad.append(f"event {i}: {kind} needs args.{META[kind]}")
    key = (kind, e.get("pid"), e.get("tid") if kind.startswith("thread_") else None)
    if key in seen:
        bad.append(f"event {i}: a second {kind} for {key[1:]}")
    seen.add(key)


def check_nesting(xs, bad):
    for (pid, tid), iv in xs.items():
        iv.sort(key=lambda x: (x[0], -x[1]))
        stack = []
        for start, end, name in iv:
            while stack and stack[-1][0] <= start:
                stack.pop()
            if stack and end > stack[-1][0]:
                bad.append(f"thread {pid}/{tid}: X {name!r} [{start}, {end}] ns overlaps "
                           f"{stack[-1][1]!r} ending at {stack[-1][0]}")
                if len(bad) > 20:
                    return
            stack.append((end, name))


def check(path):
    bad = []
    try:
        with open(path) as f:
            doc = json.load(f, parse_constant=reject_constant)
    except (ValueError, OSError) as err:
        return [f"not strict JSON: {err}"], 0, 0
    if isinstance(doc, dict):
        events = doc.get("traceEvents")
        if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
            bad.append(f"displayTimeUnit {doc['displayTimeUnit']!r}")
    else:
        events = doc
    if not isinstance(events, list):
        return ["no traceEvents array"], 0, 0
    xs = defaultdict(list)
    open_b = defaultdict(list)
    seen_meta = set()
    first, last = None, None
    for i, e in enumerate(events):
        ph = check_event(e, i, bad)
        if ph is None:
            continue
        thread = (e.get("pid"), e.get("tid"))
        if ph == "M":
            check_meta(e, i, seen_meta, bad)
            continue
        t = ns(e["ts"])
        first = t if first is None else min(first, t)
        last = t if last is None else max(last, t)
        if ph == "X":
            xs[thread].append((t, t + ns(e["dur"]), e["name"]))
            last = max(last, t + ns(e["dur"]))
        elif ph == "B":
            open_b[thread].append((e["name"], t))
        elif ph == "E":
            if not open_b[thread]:
                bad.append(f"event {i}: E without B on thread {thread}")
            else:
                name, t0 = open_b[thread].pop()
                if e["name"] and e["name"] != name:
                    bad.append(f"event {i}: E {e['name']!r} closes B {name!r}")
                if t < t0:
                    bad.append(f"event {i}: E before its B")
    for thread, st in open_b.items():
        if st:
            bad.append(f"thread {thread}: {len(st)} B events never end")
    check_nesting(xs, bad)
    if first is not None and last - first > 10 * 86400 * 10**9:
        bad.append("the trace spans more than ten days: ts is not in microseconds")
    threads = {(e.get("pid"), e.get("tid")) for e in events
               if isinstance(e, dict) and e.get("ph") != "M"}
    return bad, len(events), len(threads)


def main():
    status = 0
    for path in sys.argv[1:]:
        bad, n, threads = check(path)
        if bad:
            status = 1
            print(f"FAIL: {path}:")
            for b in bad[:20]:
                print("    " + b)
        else:
            print(f"ok: {path}: {n} events, {threads} threads")
    return status


if __name__ == "__main__":
    sys.exit(main())
