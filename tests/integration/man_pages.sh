#!/usr/bin/env bash
# The man pages (tracekit help --man PAGE, what `make` writes to build/man/): every page
# renders with groff and with man without a warning, names every option that
# `tracekit help COMMAND` lists (one source: the option tables), and tracekit(1) lists every
# command and format.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
command -v groff >/dev/null || { echo "groff not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
pages=$("$TRACEKIT" help --man-pages) || { echo "FAIL: tracekit help --man-pages"; exit 1; }
n=0
for p in $pages; do
    "$TRACEKIT" help --man "$p" >"$tmp/$p.1" || { fail "tracekit help --man $p"; continue; }
    n=$((n + 1))
    groff -man -Tutf8 -ww -z "$tmp/$p.1" 2>"$tmp/warn" || fail "groff $p.1 exited with an error"
    [ -s "$tmp/warn" ] && { fail "groff warns on $p.1:"; head -5 "$tmp/warn"; }
    # the text as a reader sees it (man by the page's path, as before installing), minus signs
    # and hyphens as '-'
    if command -v man >/dev/null; then
        (cd "$tmp" && MANWIDTH=100 MAN_KEEP_FORMATTING= man --warnings -l "./$p.1" 2>"$tmp/warn") |
            col -bx | sed 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g' >"$tmp/$p.txt"
        [ -s "$tmp/warn" ] && { fail "man warns on $p.1:"; head -5 "$tmp/warn"; }
    else
        groff -man -Tascii "$tmp/$p.1" 2>/dev/null | col -bx >"$tmp/$p.txt"
    fi
    [ -s "$tmp/$p.txt" ] || fail "$p.1 renders empty"
done

# every option of `tracekit help COMMAND` is in tracekit-COMMAND(1)
opts=0
for p in $pages; do
    [ "$p" = tracekit ] && continue
    cmd=${p#tracekit-}
    "$TRACEKIT" help "$cmd" >"$tmp/help" || { fail "tracekit help $cmd"; continue; }
    grep -oE '^  (-[A-Za-z0-9], |    )--[a-z0-9-]+' "$tmp/help" | sed 's/^ *//; s/,//' | tr ' ' '\n' |
        sort -u >"$tmp/opts"
    [ -s "$tmp/opts" ] || fail "tracekit help $cmd lists no option"
    while IFS= read -r o; do
        opts=$((opts + 1))
        grep -qE -- "(^|[ ,])$o([ ,=]|$)" "$tmp/$p.txt" || fail "$p(1) does not name $o ('tracekit help $cmd' does)"
    done <"$tmp/opts"
    grep -q "^SYNOPSIS" "$tmp/$p.txt" || fail "$p(1) has no SYNOPSIS"
done

# tracekit(1): every command and every format
for p in $pages; do
    [ "$p" = tracekit ] || grep -q "^ *$p(1)" "$tmp/tracekit.txt" || fail "tracekit(1) does not list $p(1)"
done
for f in $("$TRACEKIT" formats | awk '/^[a-z]/ { print $1 }'); do
    grep -q "^ *$f: " "$tmp/tracekit.txt" || fail "tracekit(1) has no section on format $f"
done
# the pages `make` built, if any, are these
B=${BUILD:-build}
if [ -f "$B/man/.stamp" ]; then
    for p in $pages; do cmp -s "$tmp/$p.1" "$B/man/$p.1" || fail "$B/man/$p.1 is not what tracekit help --man $p writes"; done
fi
echo "$n man pages render without warnings and name the $opts options of 'tracekit help'; $bad problems"
[ $bad -eq 0 ]
