# One source (docs/cli.md): for every command, the options that `tracekit help CMD` lists are
# exactly those of its man page tracekit-CMD(1), of its bash completion ('tracekit CMD -<TAB>')
# and of its zsh completion, no more, no fewer; the parser knows each of them; and every
# option table entry of the sources is listed by some command's help.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tracekit help --completion bash >"$tmp/bash"
tracekit help --completion zsh >"$tmp/zsh"
commands=$(tracekit --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
sorted() { tr ' ' '\n' | grep -v '^$' | LC_ALL=C sort -u; }
bad=0
for c in $commands; do
    tracekit help "$c" | grep -oE '^  (-[A-Za-z0-9], |    )--[a-z0-9-]+' | tr -d ',' | sorted >"$tmp/help"
    # the man page: each option's .TP head, "\fB\-n\fR, \fB\-\-top\fR \fIN\fR"
    tracekit help --man "tracekit-$c" | grep -A1 '^\.TP' | grep '^\\fB' |
        grep -oE '\\fB(\\-){1,2}[a-z0-9A-Z\\-]+\\fR' | sed 's/\\fB//; s/\\fR//; s/\\-/-/g' | sorted >"$tmp/man"
    bash -c 'source "$1"; COMP_WORDS=(tracekit "$2" -); COMP_CWORD=2; _tracekit
        printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/bash" "$c" | sorted >"$tmp/bash.$c"
    # zsh: the specs of the command's _arguments, "'(-n --top)-n+[...]", "'*--thread=[..."
    awk -v c="($c)" '$1 == c { on = 1; next } on { print } on && /;;/ { exit }' "$tmp/zsh" |
        grep -oE "^ *'(\([^)]*\)|\*)?-{1,2}[A-Za-z0-9-]+" | sed "s/^ *'//; s/^.*)//; s/^\*//" |
        sorted >"$tmp/zsh.$c"
    same=1
    for w in man bash zsh; do
        f=$tmp/$w; [ $w = man ] || f=$tmp/$w.$c
        if ! cmp -s "$tmp/help" "$f"; then
            same=0
            echo "$c: $w lists other options than 'tracekit help $c':"
            diff "$tmp/help" "$f" | grep '^[<>]' | sed 's/^</  only in help:/; s/^>/  only in '$w':/'
            bad=$((bad + 1))
        fi
    done
    # the parser knows each: all of them at once (each with a value "1", which a flag leaves
    # as a FILE) stop at a missing program or FILE or at the FILEs' number, never at an unknown
    # option; run where "1" names nothing
    args=()
    for o in $(grep -- '^--' "$tmp/help"); do [ "$o" = --help ] || args+=("$o" 1); done
    if (cd "$tmp" && tracekit "$c" "${args[@]}" /nonexistent/file 2>&1 </dev/null) | grep "unknown option"; then
        echo "$c: an option is listed but the parser does not know it"
        bad=$((bad + 1))
    fi
    [ $same = 1 ] && echo "$c: $(wc -l <"$tmp/help") options, the same in help, man, bash and zsh"
    cat "$tmp/help" >>"$tmp/listed"
done
# every entry of an option table in the sources is some command's
grep -ho '{"[a-z0-9-]*", \('"'"'.'"'"'\|0\), ' src/cli/*.c src/cli/*/*.c | sed 's/{"\([a-z0-9-]*\)".*/--\1/' |
    sorted >"$tmp/tables"
comm -23 "$tmp/tables" <(sorted <"$tmp/listed") | sed 's/^/in a table but in no help: /'
echo "$(wc -l <"$tmp/tables") options in the tables; $bad problems"
[ $bad -eq 0 ]
