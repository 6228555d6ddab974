# tracekit help FORMAT: what tracekit does with each format, with examples
for f in $(tracekit formats | awk '/^[a-z]/ { print $1 }'); do tracekit help $f; echo "exit $?"; echo; done
tracekit help nosuch; echo "exit $?"
tracekit help report info; echo "exit $?"
