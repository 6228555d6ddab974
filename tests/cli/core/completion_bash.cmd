# bash completion from the option tables (tests/integration/completion.sh checks every
# command's options, and zsh's)
source <(tracekit help --completion bash)
comp() {
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
    _tracekit
    echo "$*<TAB>: ${COMPREPLY[*]}"
}
comp tracekit re
comp tracekit -
comp tracekit help d
comp tracekit report --from ''
comp tracekit report --format ''
comp tracekit report --format = c
comp tracekit report --sort ''
comp tracekit report --tree c
comp tracekit convert --to ''
comp tracekit convert --positions ''
comp tracekit convert --unit ''
comp tracekit diff --format ''
comp tracekit decode --what ''
comp tracekit slice --deps ''
comp tracekit encode --compat ''
comp tracekit instr-map --f
comp tracekit report --top ''
comp tracekit chain -
