#!/usr/bin/env bash
# `make install` into a temporary prefix gives a library an outside program can
# use: tests/api/consumer.c, compiled against the installed headers only and
# linked through the installed tracekit.pc (shared and static), reports the
# same numbers as `tracekit info`; the umbrella header also compiles as C++;
# the shared library exports tk_* symbols only, the static one defines no others.
# Runs for the plain gcc build only (the install target builds with its flags).
set -u
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
[ "$(basename "$B")" = build ] || { echo "only for the plain build"; exit 77; }
command -v pkg-config >/dev/null || { echo "pkg-config missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s install BUILD=build PREFIX="$tmp/prefix" > "$tmp/install.log" 2>&1 ||
    { echo "FAIL: make install"; cat "$tmp/install.log"; exit 1; }
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cc -std=c11 -Wall -Wextra -Werror tests/api/consumer.c -o "$tmp/consumer" \
    $(pkg-config --cflags --libs tracekit) || { echo "FAIL: shared link"; exit 1; }
cc -std=c11 -Wall -Wextra -Werror tests/api/consumer.c -o "$tmp/consumer-static" \
    $(pkg-config --cflags tracekit) "$tmp/prefix/lib/libtracekit.a" \
    $(pkg-config --static --libs-only-l tracekit | sed 's/-ltracekit//') ||
    { echo "FAIL: static link"; exit 1; }
printf '#include <tracekit/tracekit.h>\nint main() { return tk_version()[0] == 0; }\n' > "$tmp/cxx.cpp"
if command -v c++ >/dev/null; then
    c++ -Wall -Werror "$tmp/cxx.cpp" -o "$tmp/cxx" $(pkg-config --cflags --libs tracekit) ||
        { echo "FAIL: the headers do not compile as C++"; exit 1; }
fi

files="examples/fib.callgrind examples/fib.xray"
for exe in consumer consumer-static; do
    LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/$exe" $files > "$tmp/$exe.out" ||
        { echo "FAIL: $exe exited with an error"; exit 1; }
done
cmp -s "$tmp/consumer.out" "$tmp/consumer-static.out" ||
    { echo "FAIL: shared and static consumers differ"; exit 1; }
# the shared library exports the API only: no internal helper, no libiberty
if command -v nm >/dev/null; then
    extra=$(nm -D --defined-only "$tmp/prefix/lib/libtracekit.so" | awk '$3 !~ /^tk_/ { print $3 }')
    [ -z "$extra" ] || { echo "FAIL: libtracekit.so exports symbols outside tk_*:"; echo "$extra" | head; exit 1; }
    # the static library's objects define tk_* globals only, the internal helpers' too
    extra=$(nm -g --defined-only "$tmp/prefix/lib/libtracekit.a" | awk 'NF == 3 && $3 !~ /^tk_/ { print $3 }')
    [ -z "$extra" ] || { echo "FAIL: libtracekit.a defines globals outside tk_*:"; echo "$extra" | head; exit 1; }
    # exported == declared with TK_API in the installed headers, both ways
    nm -D --defined-only "$tmp/prefix/lib/libtracekit.so" | awk '{ print $3 }' | sed 's/@.*//' |
        sort -u >"$tmp/exported"
    cat "$tmp"/prefix/include/tracekit/*.h | tr '\n' ' ' | grep -o 'TK_API [^;{]*' |
        grep -o 'tk_[A-Za-z0-9_]*[ ]*(' | tr -d ' (' | sort -u >"$tmp/declared"
    undeclared=$(comm -23 "$tmp/exported" "$tmp/declared")
    missing=$(comm -13 "$tmp/exported" "$tmp/declared")
    [ -z "$undeclared" ] || { echo "FAIL: exported but declared in no header with TK_API:"; echo "$undeclared" | head -20; exit 1; }
    [ -z "$missing" ] || { echo "FAIL: declared with TK_API but not exported (not defined?):"; echo "$missing" | head -20; exit 1; }
fi
# the installed library is the one that was built (its version string)
ver=$(grep -o '"[0-9]*\.[0-9]*\.[0-9]*"' include/tracekit/tracekit.h | tr -d '"')
grep -qx "tracekit $ver" "$tmp/consumer.out" || { echo "FAIL: version"; exit 1; }
# the numbers `tracekit info` prints for the same files
T=${TRACEKIT:-build/tracekit}
want=$(
    for f in $files; do
        info=$("$T" info -v "$f")
        echo "$info" | grep '^format:' | cut -d' ' -f1-2
        case "$f" in
        *.callgrind)
            echo "$info" | grep '^parts:'
            echo "events: $(echo "$info" | grep '^events:' | wc -w | awk '{print $1 - 1}')"
            echo "$info" | grep '^functions:' ;;
        *.xray)
            echo "$info" | grep '^version:'
            echo "enter: $(echo "$info" | awk '$1 == "enter" {print $2}')"
            echo "exit: $(echo "$info" | awk '$1 == "exit" {print $2}')" ;;
        esac
    done)
got=$(grep -v '^tracekit ' "$tmp/consumer.out")
if [ "$want" != "$got" ]; then
    echo "FAIL: the consumer and tracekit info disagree"
    diff <(echo "$want") <(echo "$got")
    exit 1
fi
# the program on PATH, its man pages for man, its completion for bash and zsh
P=$tmp/prefix
v=$(sed -n 's/^#define TK_VERSION_STRING "\(.*\)"$/\1/p' include/tracekit/tracekit.h)
[ "$(PATH="$P/bin:$PATH" tracekit --version)" = "tracekit $v" ] || { echo "FAIL: installed tracekit"; exit 1; }
for page in tracekit tracekit-report tracekit-slice; do
    [ -f "$P/share/man/man1/$page.1" ] || { echo "FAIL: $page.1 not installed"; exit 1; }
    if command -v man >/dev/null; then
        MANWIDTH=80 man -M "$P/share/man" "$page" 2>/dev/null | grep -q "^NAME" ||
            { echo "FAIL: man -M PREFIX/share/man $page"; exit 1; }
    fi
done
bash -c 'source "$1" && complete -p tracekit' _ "$P/share/bash-completion/completions/tracekit" >/dev/null ||
    { echo "FAIL: bash completion not installed"; exit 1; }
head -1 "$P/share/zsh/site-functions/_tracekit" | grep -qx '#compdef tracekit' ||
    { echo "FAIL: zsh completion not installed"; exit 1; }
# LIBDIR, INCLUDEDIR and MANDIR are honoured; make uninstall takes away what install put
make -s install uninstall BUILD=build PREFIX="$tmp/p2" LIBDIR="$tmp/p2/lib64" \
    INCLUDEDIR="$tmp/p2/inc" MANDIR="$tmp/p2/man" > "$tmp/install2.log" 2>&1 || { echo "FAIL: install/uninstall"; cat "$tmp/install2.log"; exit 1; }
make -s install BUILD=build PREFIX="$tmp/p2" LIBDIR="$tmp/p2/lib64" INCLUDEDIR="$tmp/p2/inc" \
    MANDIR="$tmp/p2/man" >/dev/null 2>&1
[ -f "$tmp/p2/lib64/libtracekit.a" ] && [ -f "$tmp/p2/inc/tracekit/tracekit.h" ] &&
    [ -f "$tmp/p2/man/man1/tracekit.1" ] &&
    grep -q "^libdir=$tmp/p2/lib64" "$tmp/p2/lib64/pkgconfig/tracekit.pc" ||
    { echo "FAIL: LIBDIR/INCLUDEDIR/MANDIR not honoured"; exit 1; }
make -s uninstall BUILD=build PREFIX="$tmp/p2" LIBDIR="$tmp/p2/lib64" INCLUDEDIR="$tmp/p2/inc" \
    MANDIR="$tmp/p2/man" >/dev/null 2>&1
left=$(find "$tmp/p2" -type f)
[ -z "$left" ] || { echo "FAIL: make uninstall left: $left"; exit 1; }
echo "ok: installed headers, pkg-config (shared and static) and C++ work; numbers equal tracekit info; only tk_* exported (and defined in libtracekit.a); the program, man pages and completion installed; LIBDIR/INCLUDEDIR/MANDIR and uninstall work"
