# zsh -f tests/integration/lib/zsh_complete.zsh DIR < QUERIES
# Drives zsh's completion in an interactive zsh on a pseudo-terminal (zsh/zpty) with the
# completion functions of DIR: for each line of standard input (a command line, completed
# at its end as TAB would), prints the line, a tab, and the matches offered, space-separated
# and sorted.
zmodload zsh/zpty || exit 2
dir=$1
zpty c zsh -f -i
zpty -w c "PROMPT=''; RPROMPT=''; unset zle_bracketed_paste; fpath=(${(q)dir} \$fpath)"
zpty -w c "autoload -Uz compinit; compinit -u -D; bindkey '^I' complete-word; bindkey '^U' kill-whole-line"
# compadd prints the matches it would add; each completion ends with a mark. The marks are
# put together when printed: the terminal echoes what is typed.
zpty -w c 'compadd() { if [[ " $* " == *" -"[OAD]" "* ]]; then builtin compadd "$@"; return; fi
    local -a m; builtin compadd -O m "$@"; print -rl -- "" "<""<"${^m}; }'
zpty -w c 'tk_end() { print -r -- "" "<""<END>"">" }'
while IFS= read -r query; do
    zpty -w c 'comppostfuncs=(tk_end)' # _main_complete empties it after each completion
    zpty -w -n c "$query"$'\t'
    out=
    while zpty -r -t c line || { sleep 0.01; zpty -r c line; }; do
        out+=$line
        [[ $out == *'<<END>>'* ]] && break
    done
    zpty -w -n c $'\C-u'
    matches=(${(f)"$(print -r -- "$out" | grep -ao '<<[^<[:cntrl:]]*' | grep -av '^<<END>>' |
        sed 's/^<<//' | sort -u)"})
    print -r -- "$query"$'\t'"${(j: :)matches}"
done
zpty -d c
