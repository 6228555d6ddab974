#!/usr/bin/env bash
# Shell completion (tracekit help --completion bash|zsh, what `make` writes to
# build/completion/) offers what `tracekit help` lists, from the same tables: the commands,
# every option of each command, the formats (help FORMAT, --from) and the fixed values of
# options. bash is driven through its completion function (COMP_WORDS), zsh through its
# completion system on a pseudo-terminal (tests/integration/lib/zsh_complete.zsh) when zsh
# is installed, else its script is only syntax-checked.
set -u
cd "$(dirname "$0")/../.."
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=$((bad + 1)); }
"$TRACEKIT" help --completion bash >"$tmp/tracekit.bash" || { echo "FAIL: --completion bash"; exit 1; }
"$TRACEKIT" help --completion zsh >"$tmp/_tracekit" || { echo "FAIL: --completion zsh"; exit 1; }

# What `tracekit help` lists: the commands, each one's options, the formats.
commands=$("$TRACEKIT" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
formats=$("$TRACEKIT" formats | awk '/^[a-z]/ { print $1 }')
for c in $commands; do
    "$TRACEKIT" help "$c" | grep -oE '^  (-[A-Za-z0-9], |    )--[a-z0-9-]+' | sed 's/^ *//; s/,//' |
        tr ' ' '\n' | sort -u >"$tmp/opts.$c"
done
sorted() { tr ' ' '\n' | grep -v '^$' | sort -u | tr '\n' ' '; }
# the queries, and what each must offer (at least)
queries=("tracekit " "tracekit help " "tracekit report --from " "tracekit report --format "
         "tracekit convert --to " "tracekit decode --what " "tracekit report --format=j")
wants=("$commands" "$commands $formats" "$formats" "text json csv html"
       "callgrind dot folded svg json chrome dcfg csi bbv wet wet-history" "edges blocks addrs calls count"
       "json")
for c in $commands; do
    queries+=("tracekit $c -")
    wants+=("$(cat "$tmp/opts.$c")")
done

check() { # SHELL QUERY GOT WANT
    local missing
    missing=$(comm -13 <(echo "$3" | sorted | tr ' ' '\n' | grep -v '^$') <(echo "$4" | sorted | tr ' ' '\n' | grep -v '^$'))
    [ -z "$missing" ] || fail "$1: '$2<TAB>' does not offer: $(echo $missing)"
}

# bash: the completion function on COMP_WORDS as bash splits the line ('=' is a word)
bash_complete() {
    bash -c 'source "$1"; shift; line=$1
        read -ra COMP_WORDS <<<"${line//=/ = }"; [[ $line == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _tracekit; echo "${COMPREPLY[*]}"' _ "$tmp/tracekit.bash" "$1"
}
for i in "${!queries[@]}"; do
    check bash "${queries[$i]}" "$(bash_complete "${queries[$i]}")" "${wants[$i]}"
done
echo "bash: ${#queries[@]} command lines completed"

if ! command -v zsh >/dev/null; then
    echo "zsh not installed: its script only checked with bash's eyes (make deps installs zsh)"
elif ! zsh -n "$tmp/_tracekit"; then
    fail "zsh -n: the zsh script does not parse"
else
    printf '%s\n' "${queries[@]}" | timeout 120 zsh -f tests/integration/lib/zsh_complete.zsh "$tmp" >"$tmp/zsh.out" ||
        fail "zsh: the completion driver failed"
    for i in "${!queries[@]}"; do
        got=$(awk -F'\t' -v q="${queries[$i]}" '$1 == q { print $2 }' "$tmp/zsh.out")
        check zsh "${queries[$i]}" "$got" "${wants[$i]}"
    done
    echo "zsh: ${#queries[@]} command lines completed"
fi
[ $bad -eq 0 ]
