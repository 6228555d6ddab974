#!/usr/bin/env python3
"""Checks the rules of docs/conventions.md and docs/architecture.md that a script can check,
against the code as it is (tests/run.sh runs it with the first build: `make check-quick` and
`make check`).

  scripts/lint-conventions.py [BUILD]     BUILD (default build/) for the checks of objects

Prints one line per exception, "path:line: rule: what", and one line per rule checked;
exits 1 when any rule has an exception. A rule with exceptions still to fix elsewhere lists
them in KNOWN below: a known exception is not reported, one that no longer occurs is (so
that the list only shrinks).
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
os.chdir(ROOT)

# Exceptions owned by other work, "rule path[:name]" (no line numbers: they move).
KNOWN = set()


def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                          "--"] + list(patterns), capture_output=True, text=True, check=False)
    return sorted(p for p in out.stdout.split() if os.path.isfile(p))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def strip_comments(text):
    """C comments and string literals blanked, line breaks kept."""
    def blank(m):
        s = m.group(0)
        if s.startswith("/"):
            return re.sub(r"[^\n]", " ", s)
        return '"' + re.sub(r"[^\n]", " ", s[1:-1]) + '"' if s[0] == '"' else s
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank,
                  text, flags=re.S)


C_SOURCES = [p for p in tracked("*.c", "*.h") if not p.startswith("tests/data/")]
PUBLIC = [p for p in tracked("include/tracekit/*.h")]
# the library's folders (the Makefile's LIB_SRC), its layers from the bottom; src/cli and src/mpi
# are programs
LIB_DIRS = ["src/core", "src/graph", "src/model", "src/formats", "src/analysis", "src/export",
            "src/record"]
LIB = [p for p in C_SOURCES if p.startswith(tuple(d + "/" for d in LIB_DIRS))]
CLI = [p for p in C_SOURCES if p.startswith("src/cli/")]

def line_matches(paths, pattern, key=lambda p, m: f"{p}:{m.group(1)}",
                 what=lambda m: m.group(1)):
    """(where, key, what) of each line of paths, comments and strings blanked, that pattern
    (a compiled regex) matches."""
    out = []
    for p in paths:
        for i, line in enumerate(strip_comments(read(p)).split("\n")):
            m = pattern.search(line)
            if m:
                out.append((f"{p}:{i + 1}", key(p, m), what(m)))
    return out


def objects(*parts):
    """The first build's objects under BUILD/obj/PART for each part, sorted (not one whose
    source is gone: it is in no program)."""
    objs = []
    for part in parts:
        for dirpath, _, files in os.walk(os.path.join(BUILD, "obj", part)):
            objs += [os.path.join(dirpath, f) for f in files if f.endswith(".o") and
                     os.path.isfile(source_of(os.path.join(dirpath, f)))]
    return sorted(objs)


def source_of(obj):
    """The source path of an object of the first build (BUILD/obj/src/x.o: src/x.c)."""
    return os.path.relpath(obj, os.path.join(BUILD, "obj"))[:-2] + ".c"


results = []  # (rule, [exceptions])


def rule(name):
    def wrap(fn):
        all_found = fn()
        found = [e for e in all_found if (name + " " + e[1]) not in KNOWN]
        seen = {name + " " + e[1] for e in all_found}
        gone = [k for k in KNOWN if k.startswith(name + " ") and k not in seen]
        results.append((name, fn.__doc__.strip(), found, gone))
        return fn
    return wrap


@rule("function-length")
def function_length():
    """functions up to 100 lines, from the line that names them to the "}" at column 0"""
    out = []
    for p in C_SOURCES:
        lines = read(p).split("\n")
        name_line = None
        start = None
        for i, line in enumerate(lines):
            if start is None:
                if line.startswith("{") and name_line is not None:
                    start = name_line
                elif re.match(r"[A-Za-z_].*\(.*\{\s*$", line) and "=" not in line:
                    start = i
                elif re.match(r"[A-Za-z_]", line):
                    name_line = i
                elif line == "" or line[:1] in "#}" or line.startswith(("/*", "//")):
                    name_line = None
            elif line.startswith("}"):
                n = i - start + 1
                if n > 100:
                    m = re.search(r"([A-Za-z_]\w*)\s*\(", lines[start])
                    name = m.group(1) if m else "?"
                    out.append((f"{p}:{start + 1}", f"{p}:{name}", f"{name} has {n} lines"))
                start = name_line = None
    return out


@rule("public-header-plain-c")
def public_plain():
    """public headers: plain declarations (no FILE, va_list, inline code, compiler
    extensions outside api.h's macros, no <stdio.h> or <stdarg.h>)"""
    bad = re.compile(r"\bFILE\b|\bva_list\b|\binline\b|__attribute__|__atomic|__builtin|"
                     r"_Atomic|__asm|#\s*include\s*<(stdio|stdarg)\.h>")
    return line_matches([p for p in PUBLIC if not p.endswith("/api.h")], bad,
                        key=lambda p, m: p, what=lambda m: f"'{m.group(0)}'")


def public_declarations():
    """(path, line, text) of each top-level declaration of the public headers."""
    for p in PUBLIC:
        text = strip_comments(read(p))
        text = re.sub(r"#[^\n]*(\\\n[^\n]*)*", lambda m: "\n" * m.group(0).count("\n"), text)
        depth = 0
        cur, cur_line = "", 0
        for i, line in enumerate(text.split("\n")):
            for ch in line:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
            if depth > 0 and "{" not in line:
                continue
            s = line.strip()
            if not s or s.startswith('extern "C"') or s == "}":
                continue
            if not cur:
                cur_line = i + 1
            cur += " " + s
            if depth == 0 and (s.endswith(";") or s.endswith("}")):
                yield p, cur_line, cur.strip()
                cur = ""


@rule("public-function-exported")
def public_exported():
    """every function a public header declares is TK_API and named tk_..."""
    out = []
    for p, ln, d in public_declarations():
        if d.startswith(("typedef", "struct", "enum", "union")) or "(" not in d:
            continue
        m = re.search(r"(\w+)\s*\(", d)
        name = m.group(1) if m else "?"
        if not d.startswith("TK_API "):
            out.append((f"{p}:{ln}", f"{p}:{name}", f"{name} is not TK_API"))
        elif not name.startswith("tk_"):
            out.append((f"{p}:{ln}", f"{p}:{name}", f"{name} is not named tk_..."))
    return out


@rule("fallible-takes-error")
def fallible_error():
    """every public function that returns tk_status takes a tk_error *"""
    out = []
    for p, ln, d in public_declarations():
        if not re.match(r"TK_API\s+tk_status\s", d):
            continue
        name = re.search(r"(\w+)\s*\(", d).group(1)
        if not re.search(r"\btk_error\s*\*", d):
            out.append((f"{p}:{ln}", f"{p}:{name}", f"{name} returns tk_status, takes no "
                        "tk_error *"))
    return out


@rule("statuses-listed")
def statuses_listed():
    """every public function that returns tk_status names the errors it returns (TK_ERR_...)
    in the comments of its paragraph (the declarations and comments since the last blank
    line)"""
    out = []
    for p in PUBLIC:
        lines = read(p).split("\n")
        for i, line in enumerate(lines):
            m = re.match(r"TK_API\s+tk_status\s+(\w+)\s*\(", line)
            if not m:
                continue
            j = i
            while j > 0 and lines[j - 1].strip():
                j -= 1
            comments = " ".join(re.findall(r"/\*.*?\*/", "\n".join(lines[j:i]), re.S))
            if not re.search(r"\bTK_ERR_[A-Z]+\b", comments):
                out.append((f"{p}:{i + 1}", f"{p}:{m.group(1)}",
                            f"{m.group(1)}: its comment lists no status"))
    return out


@rule("one-constructor-verb")
def constructor_verb():
    """constructors are tk_x_open (no _new, _create, _make, _alloc)"""
    out = []
    for p, ln, d in public_declarations():
        m = re.match(r"TK_API\s.*?\b(tk_\w+_(new|create|make|alloc))\s*\(", d)
        if m:
            out.append((f"{p}:{ln}", f"{p}:{m.group(1)}", m.group(1)))
    return out


@rule("tracekit-h-includes-all")
def tracekit_h():
    """tracekit.h includes every public header"""
    text = read("include/tracekit/tracekit.h")
    out = []
    for p in PUBLIC:
        b = os.path.basename(p)
        if b in ("tracekit.h", "api.h"):
            continue
        if f'#include "{b}"' not in text:
            out.append((p, p, f"{b} is not included by tracekit.h"))
    return out


@rule("options-init-zero")
def options_init():
    """every _INIT initialiser of the public headers is all zeros"""
    macros = []
    for p in PUBLIC:
        for m in re.finditer(r"#define\s+(TK_\w+)_INIT\b", read(p)):
            macros.append((p, m.group(1)))
    src = ['#include <stdio.h>', '#include <string.h>', '#include "tracekit/tracekit.h"',
           "int main(void)", "{", "    int bad = 0;"]
    for p, base in macros:
        t = base.lower()
        src += [f"    {{ static const {t} x = {base}_INIT; static const {t} zero;",
                f'      if (memcmp(&x, &zero, sizeof x)) {{ printf("{p}: {base}_INIT\\n"); '
                "bad = 1; } }"]
    src += ["    return bad;", "}"]
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "init.c"), os.path.join(d, "init")
        with open(c, "w") as f:
            f.write("\n".join(src) + "\n")
        cc = os.environ.get("CC", "cc")
        r = subprocess.run([cc, "-std=c11", "-Iinclude", "-o", exe, c], capture_output=True,
                           text=True)
        if r.returncode != 0:
            return [("include/tracekit", "compile", "the _INIT test does not compile: " +
                     r.stderr.strip().split("\n")[0])]
        r = subprocess.run([exe], capture_output=True, text=True)
    return [(line.split(":")[0], line.strip(), "not all zeros")
            for line in r.stdout.split("\n") if line.strip()]


@rule("cli-public-headers-only")
def cli_includes():
    """the CLI includes only the public headers and its own"""
    out = []
    for p in CLI:
        for i, line in enumerate(read(p).split("\n")):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            here = os.path.normpath(os.path.join(os.path.dirname(p), inc))
            top = os.path.normpath(os.path.join("src/cli", inc))
            ok = inc.startswith("tracekit/") or (".." not in inc and (
                (os.path.isfile(here) and here.startswith("src/cli/")) or os.path.isfile(top)))
            if not ok:
                out.append((f"{p}:{i + 1}", f"{p}:{inc}", f'includes "{inc}"'))
    return out


@rule("library-includes-src-relative")
def library_includes():
    """the library includes its own headers by their src/-relative path ("core/json.h"), the
    public ones as "tracekit/...", never by a name relative to the including file"""
    out = []
    for p in LIB:
        for i, line in enumerate(read(p).split("\n")):
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if m and not m.group(1).startswith("tracekit/") and (
                    ".." in m.group(1) or "/" not in m.group(1) or
                    not os.path.isfile(os.path.join("src", m.group(1)))):
                out.append((f"{p}:{i + 1}", f"{p}:{m.group(1)}", f'includes "{m.group(1)}"'))
    return out


@rule("cli-no-sorting")
def cli_qsort_r():
    """the CLI calls no qsort_r, qsort or bsearch (sorting and matching are the library's)"""
    return line_matches(CLI, re.compile(r"\b(qsort_r|qsort|bsearch)\s*\("))


@rule("cli-choices-listed")
def cli_choices_listed():
    """an option read with cli_get_choice names its cli_choice table in a cli_opt_choices of
    its folder (the table help, --lint, the man pages and the completion read)"""
    out = []
    folders = {}
    for p in CLI:
        folders.setdefault(os.path.dirname(p), []).append(p)
    for ps in folders.values():
        text = {p: strip_comments(read(p)) for p in ps}
        listed = set()
        for t in text.values():
            for m in re.finditer(r"cli_opt_choices\s+\w+\[\]\s*=\s*\{(.*?)\};", t, re.S):
                listed |= set(re.findall(r'\{\s*"\s*"\s*,\s*(\w+)\s*\}', m.group(1)))
        # (strings are blanked by strip_comments: the option's name is read from the source)
        for p in ps:
            raw = read(p)
            for m in re.finditer(r'cli_get_choice\(\s*[^,;]+,\s*[^,;]+,\s*"([\w-]+)",\s*(\w+)\s*,', raw):
                if m.group(2) not in listed:
                    line = raw.count("\n", 0, m.start()) + 1
                    out.append((f"{p}:{line}", f"{p}:{m.group(1)}",
                                f"--{m.group(1)} ({m.group(2)}) is in no cli_opt_choices"))
    return out


@rule("one-number-scanner")
def number_scanner():
    """no strtoul, atoi, sscanf... of its own: numbers through core/num (tk_num_scan...)"""
    bad = re.compile(r"\b(strto(u?ll?|ul|d|f|ld|imax|umax)|ato(i|l|ll|f)|v?s?scanf)\s*\(")
    return line_matches([p for p in LIB + CLI if p != "src/core/num.c"], bad)


def foreign_globals(objs, prefixes, allowed=()):
    """(where, key, what) of each external symbol the objects define (nm -g --defined-only)
    that starts with none of prefixes and is not in allowed; the symbols of the compiler's
    and the sanitizers' own (starting with "__") aside."""
    out = []
    if not objs:
        return out
    r = subprocess.run(["nm", "-g", "--defined-only"] + objs, capture_output=True, text=True)
    obj = objs[0]
    for line in r.stdout.split("\n"):
        parts = line.split()
        if len(parts) == 1 and line.endswith(".o:"):  # "BUILD/obj/src/x.o:" before its symbols
            obj = line[:-1]
        elif len(parts) == 3 and not parts[2].startswith(tuple(prefixes) + ("__",)) and \
                parts[2] not in allowed:
            src = source_of(obj)
            out.append((src, f"{src}:{parts[2]}", f"global symbol {parts[2]}"))
    return out


@rule("cli-names")
def cli_names():
    """the command line's global symbols (tracekit's and tracekit-mpi's) start with cli_ (main aside)"""
    return foreign_globals(objects("src/cli", "src/mpi"), ("cli_", "CLI_"), {"main"})


@rule("library-names")
def library_names():
    """every global symbol of the library's objects starts with tk_, the internal helpers'
    too (hidden from the shared library, they are in the namespace of a program that links
    libtracekit.a)"""
    objs = objects(*LIB_DIRS)
    if not objs:
        return [(BUILD, "nm", "no objects under " + BUILD + "/obj/src")]
    return foreign_globals(objs, ("tk_",))


@rule("no-global-state")
def global_state():
    """no global mutable state in the library but the allocator hook"""
    allowed = {"g_alloc"}  # src/core/alloc.c: tk_set_allocator's hook
    out = []
    objs = objects(*LIB_DIRS)
    if not objs:
        return [(BUILD, "nm", "no objects under " + BUILD + "/obj/src")]
    for obj in objs:
        r = subprocess.run(["objdump", "-t", obj], capture_output=True, text=True)
        for line in r.stdout.split("\n"):
            # "0000 l     O .data.rel.ro.local  0030 name": writable are .data, .bss and
            # .data.rel (not .rodata, nor .data.rel.ro*, read-only once relocated)
            m = re.match(r"[0-9a-f]+\s+[lgw!]\s+O\s+(\S+)\s+[0-9a-f]+\s+(?:\.hidden\s+)?(\S+)$",
                         line)
            if not m or m.group(1).startswith((".rodata", ".data.rel.ro")):
                continue
            sym = m.group(2)
            if sym.startswith("__"):  # the compiler's and the sanitizers' own
                continue
            base = sym.split(".")[0]
            if base in allowed and obj.endswith("core/alloc.o"):
                continue
            src = source_of(obj)
            out.append((src, f"{src}:{base}", f"writable data {sym} ({m.group(1)})"))
    return out


@rule("layers")
def layers():
    """each layer of the library uses only the layers below it (docs/architecture.md: core,
    graph, model, formats, analysis, export, record, from the bottom): no object calls or
    reads a symbol that an object of a higher layer defines (the first build's objects)"""
    defined, used = {}, {}
    for rank, part in enumerate(LIB_DIRS):  # (LIB_DIRS is in layer order)
        for obj in objects(part):
            src = source_of(obj)
            r = subprocess.run(["nm", obj], capture_output=True, text=True)
            for line in r.stdout.split("\n"):
                parts = line.split()
                if len(parts) == 3 and parts[1] in "TDRB":
                    defined[parts[2]] = (rank, src)
                elif len(parts) == 2 and parts[0] == "U":
                    used.setdefault((rank, src), set()).add(parts[1])
    if not defined:
        return [(BUILD, "nm", "no objects under " + BUILD + "/obj/src")]
    out = []
    for (rank, src), syms in sorted(used.items()):
        for sym in sorted(syms):
            if sym in defined and defined[sym][0] > rank:
                out.append((src, f"{src}:{sym}", f"uses {sym} of {defined[sym][1]} (a layer above)"))
    return out


@rule("format-has-fuzz-harness")
def fuzz_harness():
    """every format folder has its fuzz harness fuzz/fuzz_<fmt>.c"""
    out = []
    for d in sorted(os.listdir("src/formats")):
        if os.path.isdir(os.path.join("src/formats", d)) and \
                not os.path.isfile(f"fuzz/fuzz_{d}.c"):
            out.append((f"src/formats/{d}", d, f"no fuzz/fuzz_{d}.c"))
    return out


failed = 0
for name, doc, found, gone in results:
    for where, _, what in found:
        print(f"{where}: {name}: {what}")
    for k in gone:
        print(f"scripts/lint-conventions.py: {name}: the known exception '{k}' no longer "
              "occurs: remove it from KNOWN")
    status = "ok" if not found and not gone else f"{len(found) + len(gone)} exceptions"
    print(f"{name}: {status} ({' '.join(doc.split())})")
    failed += bool(found or gone)
print(f"conventions: {len(results) - failed} of {len(results)} rules hold")
sys.exit(1 if failed else 0)
