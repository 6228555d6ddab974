#!/usr/bin/env bash
# The public API from another language: Python's cffi reads the public headers
# as the C preprocessor gives them (tracekit.h with the system headers left
# out and no compiler extension: -U__GNUC__, so TK_PRINTF is empty), with no
# shim of C around the library, and calls libtracekit.so through them:
#  1. every declaration parses (ffi.cdef) and every function declared is in
#     the shared library;
#  2. a Callgrind profile read through the API gives the numbers `tracekit
#     info` prints, its rows (walked by index) add up to its totals, and
#     tk_callgrind_write into a Python callback writes what `tracekit convert
#     --to callgrind` writes;
#  3. a DCFG read through the API gives the numbers of `tracekit info`, its
#     tables (walked by index) agree with the queries, and tk_dcfg_report into
#     a callback writes what `tracekit report --format json -n 20` writes (the
#     library's default rows);
#  4. errors come back as statuses with their messages, and what the library
#     hands to the caller goes back through tk_free.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
LIB=$(dirname "$TRACEKIT")/libtracekit.so
[ -f "$LIB" ] || { echo "no $LIB (make all)"; exit 77; }
PY=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null && "$p" -c 'import cffi' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "python3 with cffi missing (Debian: python3-cffi)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/sys"
for h in stddef stdint stdarg stdio; do : >"$tmp/sys/$h.h"; done
${CC:-cc} -E -P -nostdinc -U__GNUC__ -U__clang__ -I"$tmp/sys" -Iinclude include/tracekit/tracekit.h \
    >"$tmp/api.i" || { echo "FAIL: the headers do not preprocess"; exit 1; }
if grep -n '__attribute__\|__atomic\|__builtin\|static inline\|__extension__' "$tmp/api.i"; then
    echo "FAIL: the preprocessed headers hold compiler extensions or inline code"
    exit 1
fi
# cffi knows FILE and va_list; the API takes neither (tk_writer, the library's own va_list forms)
if grep -nw 'FILE\|va_list' "$tmp/api.i"; then
    echo "FAIL: FILE or va_list in the API"
    exit 1
fi

CG=examples/fib.callgrind
DCFG=tests/data/dcfg/pass/generated-hard.dcfg.json
"$TRACEKIT" info "$CG" >"$tmp/cg.info" && "$TRACEKIT" info -v "$DCFG" >"$tmp/dcfg.info" &&
    "$TRACEKIT" convert --to callgrind "$CG" >"$tmp/cg.out" &&
    "$TRACEKIT" report --format json -n 20 "$DCFG" >"$tmp/dcfg.report" ||
    { echo "FAIL: tracekit on the inputs"; exit 1; }

"$PY" - "$tmp" "$LIB" "$CG" "$DCFG" <<'PY'
import re, sys
import cffi

tmp, libpath, cg_path, dcfg_path = sys.argv[1:5]
src = open(tmp + "/api.i").read()
ffi = cffi.FFI()
ffi.cdef(src)
lib = ffi.dlopen(libpath)
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


# 1. every function declared is exported
types = set(ffi.list_types()[0])  # typedef names (tk_status (*next)(...) is a field)
names = sorted(set(re.findall(r"\b(tk_[a-z0-9_]+)\s*\(", src)) - types)
missing = []
for n in names:
    try:
        getattr(lib, n)
    except (AttributeError, NotImplementedError):
        missing.append(n)
check(not missing, "declared but not in the library: %s" % missing[:10])
check(len(names) > 300, "only %d functions declared" % len(names))

TK_OK, TK_END, TK_ERR_IO = 0, 1, -1
NONE = 0xFFFFFFFF
err = ffi.new("tk_error *")


def text(p):
    return ffi.string(p).decode() if p != ffi.NULL else None


def ok(st, what):
    check(st == TK_OK, "%s: status %d (%s)" % (what, st, text(err.message)))
    return st == TK_OK


def collector():
    chunks = []

    @ffi.callback("int(void *, const void *, size_t)")
    def write(ctx, data, n):
        chunks.append(bytes(ffi.buffer(data, n)))
        return 0

    w = ffi.new("tk_writer *")
    w.write = write
    return w, chunks, write  # keep the callback alive


def info_numbers(path):
    d = {}
    for line in open(path):
        k, _, v = line.partition(": ")
        d.setdefault(k.strip(), v.strip())
    return d


check(text(lib.tk_version()) == re.search(r'TK_VERSION_STRING "([^"]*)"',
                                          open("include/tracekit/tracekit.h").read()).group(1),
      "tk_version")

# 4. errors: a status and a message with the path
inp = ffi.new("tk_input **")
st = lib.tk_input_open(inp, b"/nonexistent/tracekit-cffi", ffi.NULL, err)
check(st == TK_ERR_IO and "cannot open" in text(err.message) and
      text(err.path) == "/nonexistent/tracekit-cffi", "tk_input_open of a missing file")
v = ffi.new("uint64_t *")
check(lib.tk_parse_u64(b"12a", 3, v, err) == -3 and text(err.message) == "not a number: '12a'",
      "tk_parse_u64 message")

# 2. the profile
pp = ffi.new("tk_profile **")
ok(lib.tk_profile_open(pp, err), "tk_profile_open")
p = pp[0]
ok(lib.tk_input_open(inp, cg_path.encode(), ffi.NULL, err), "tk_input_open")
ropt = ffi.new("tk_callgrind_read_options *")  # zero: the defaults
ok(lib.tk_callgrind_read_input(p, inp[0], ropt, err), "tk_callgrind_read_input")
lib.tk_input_free(inp[0])
info = info_numbers(tmp + "/cg.info")
check(str(lib.tk_profile_part_count(p)) == info["parts"], "parts")
check(str(lib.tk_profile_function_count(p)) == info["functions"], "functions")
nev = lib.tk_profile_event_count(p)
events = " ".join(text(lib.tk_profile_event_name(p, i)) for i in range(nev))
check(events == info["events"], "events %r" % events)
evi = ffi.new("tk_prof_event_info *")
lib.tk_profile_event_get(p, 0, evi)
check(text(lib.tk_profile_str(p, evi.name)) == events.split()[0], "tk_profile_event_get")
part = lib.tk_profile_part(p, 0)
pi = ffi.new("tk_prof_part_info *")
lib.tk_prof_part_get(part, pi)
check(text(pi.cmd) == info["command"], "cmd")
check(pi.has_totals and "{:,}".format(pi.totals[0]) == info["totals"], "totals")
key = ffi.new("tk_prof_self *")
costs = ffi.new("uint64_t[]", nev)
fn_info = ffi.new("tk_prof_function_info *")
self_sum = 0
for r in range(pi.self_rows):
    check(lib.tk_prof_part_self(part, r, key, costs) == 1, "self row %d" % r)
    self_sum += costs[0]
check(self_sum == pi.totals[0], "self rows add up to the totals (%d, %d)" % (self_sum, pi.totals[0]))
lib.tk_profile_function_get(p, key.fn, fn_info)
check(fn_info.name != 0xffffffff and lib.tk_profile_str(p, fn_info.name) != ffi.NULL,
      "the function of a self row")
check(lib.tk_prof_part_self(part, pi.self_rows, key, costs) == 0, "past the last self row")
count = ffi.new("uint64_t *")
call = ffi.new("tk_prof_call *")
inclusive = ffi.new("uint64_t[]", nev)
calls = 0
for r in range(pi.call_rows):
    check(lib.tk_prof_part_call(part, r, call, count, inclusive) == 1, "call row %d" % r)
    check(call.callee < lib.tk_profile_function_count(p), "a call row's callee")
    calls += count[0]
check(calls > 0, "call rows")
sp = ffi.new("tk_prof_summary **")
ok(lib.tk_profile_summarize(p, 0, lib.TK_GROUP_FUNCTION, sp, err), "tk_profile_summarize")
si = ffi.new("tk_prof_summary_info *")
lib.tk_prof_summary_get(sp[0], si)
check(si.totals[0] == pi.totals[0] and si.inclusive == 1, "summary totals")
check(si.count == lib.tk_profile_function_count(p), "one entry per function")
ev = ffi.new("size_t[1]", [0])
ok(lib.tk_prof_summary_sort(sp[0], p, ev, 1, 1, err), "tk_prof_summary_sort")
ent = ffi.new("tk_prof_entry_info *")
incl = []
for i in range(si.count):
    lib.tk_prof_entry_get(sp[0], i, ent)
    incl.append(ent.inclusive[0])
    if i == 0:
        top_name = text(lib.tk_profile_str(p, ent.name))
check(incl == sorted(incl, reverse=True) and incl[0] == pi.totals[0],
      "entries by inclusive cost, the first the program total (%s)" % top_name)
self_total = 0
for i in range(si.count):
    lib.tk_prof_entry_get(sp[0], i, ent)
    self_total += ent.self[0]
check(self_total == pi.totals[0], "the entries' self costs add up to the totals")
arcs = ffi.new("tk_prof_arcs **")
ok(lib.tk_profile_summary_arcs(p, 0, sp[0], lib.TK_GROUP_FUNCTION, arcs, err),
   "tk_profile_summary_arcs")
arc = ffi.new("tk_prof_arc_info *")
arc_calls = 0
for i in range(lib.tk_prof_arcs_count(arcs[0])):
    lib.tk_prof_arc_get(arcs[0], i, arc)
    arc_calls += arc.calls
check(arc_calls == calls, "the arcs' calls are the call rows' (%d, %d)" % (arc_calls, calls))
lib.tk_prof_arcs_free(arcs[0])
lib.tk_prof_summary_free(sp[0])
ranks = ffi.new("uint32_t **")
ok(lib.tk_profile_string_ranks(p, ranks, err), "tk_profile_string_ranks")
lib.tk_free(ranks[0])
w, chunks, cb = collector()
wopt = ffi.new("tk_callgrind_write_options *")
ok(lib.tk_callgrind_write(p, w, wopt, err), "tk_callgrind_write")
check(b"".join(chunks) == open(tmp + "/cg.out", "rb").read(),
      "tk_callgrind_write differs from tracekit convert --to callgrind")
lib.tk_profile_free(p)

# 3. the DCFG
cp = ffi.new("tk_cfg **")
ok(lib.tk_dcfg_read_path(cp, dcfg_path.encode(), ffi.NULL, err), "tk_dcfg_read_path")
cfg = cp[0]
ci = ffi.new("tk_cfg_info *")
lib.tk_cfg_get(cfg, ci)
info = info_numbers(tmp + "/dcfg.info")
check("%d.%02d" % (ci.major_version, ci.minor_version) == info["dcfg version"], "version")
check(str(ci.nprocesses) == info["processes"] and str(ci.nedge_types) == info["edge types"],
      "process and edge type counts")
for i in range(ci.nedge_types):
    et = ffi.new("tk_cfg_edge_type_info *")
    lib.tk_cfg_edge_type_get(cfg, i, et)
    check(text(lib.tk_edge_kind_name(et.kind)) == text(et.name) or et.kind == lib.TK_EDGE_OTHER,
          "edge type %d" % i)
proc = lib.tk_cfg_process_at(cfg, 0)
pinf = ffi.new("tk_cfg_process_info *")
lib.tk_cfg_process_get(cfg, proc, pinf)
line = info["process %d" % pinf.pid]
want = {k + "s": v for v, k in
        re.findall(r"(\d+) (thread|image|block|edge|routine|loop|symbol|instruction)s?\b", line)}
check(int(want["blocks"]) == pinf.nblocks and int(want["edges"]) == pinf.nedges and
      int(want["routines"]) == pinf.nroutines and int(want["loops"]) == pinf.nloops,
      "process counts %r" % line)
scope = ffi.new("tk_cfg_scope *")
scope.kind = lib.TK_SCOPE_PROCESS
instrs = lib.tk_cfg_scope_instr_count(proc, scope[0])
check(instrs == int(want["instructions"]), "instructions")
b = ffi.new("tk_cfg_block_info *")
total = 0
for k in range(pinf.nblocks):
    lib.tk_cfg_block_get(proc, k, b)
    total += b.count * b.num_instrs
    check(lib.tk_cfg_find_block(proc, b.id) == k, "block %d found by id" % b.id)
    check(b.addr == lib.tk_cfg_block_addr(proc, k) and b.count == lib.tk_cfg_block_count(proc, k),
          "block %d accessors" % b.id)
check(total == instrs, "COUNT x NUM_INSTRS of the blocks (%d, %d)" % (total, instrs))
e = ffi.new("tk_cfg_edge_info *")
n = ffi.new("uint32_t *")
resolved = out_total = 0
for k in range(pinf.nedges):
    lib.tk_cfg_edge_get(cfg, proc, k, e)
    check(e.count == lib.tk_cfg_edge_count(proc, k) and lib.tk_cfg_find_edge(proc, e.id) == k,
          "edge %d" % e.id)
    resolved += e.src != NONE and e.tgt != NONE
for node in range(pinf.nnodes):
    lib.tk_cfg_out_edges(proc, node, n)
    out_total += n[0]
check(out_total == resolved, "adjacency: %d out-edges, %d resolved edges" % (out_total, resolved))
r = ffi.new("tk_cfg_routine_info *")
for k in range(pinf.nroutines):
    lib.tk_cfg_routine_get(proc, k, r)
    nodes = [r.nodes[i] for i in range(r.nnodes)]
    check(r.entry in nodes and lib.tk_cfg_find_routine(proc, r.entry) == k, "routine %d" % r.id)
loop = ffi.new("tk_cfg_loop_info *")
for k in range(pinf.nloops):
    lib.tk_cfg_loop_get(proc, k, loop)
    check(lib.tk_cfg_loop_encloses(proc, k, k) and lib.tk_cfg_find_loop(proc, loop.head) == k,
          "loop %d" % loop.id)
w, chunks, cb = collector()
ropt = ffi.new("tk_dcfg_report_options *")
ropt.format = lib.TK_DCFG_REPORT_JSON
ok(lib.tk_dcfg_report(cfg, ropt, w, err), "tk_dcfg_report")
check(b"".join(chunks) == open(tmp + "/dcfg.report", "rb").read(),
      "tk_dcfg_report differs from tracekit report --format json")
lib.tk_cfg_free(cfg)

if fails:
    for f in fails:
        print("FAIL:", f)
    sys.exit(1)
print("ok: %d functions declared and exported; profile and DCFG read through cffi" % len(names))
PY
