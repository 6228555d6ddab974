# -f/--force replaces an existing -o FILE: without -o there is nothing to replace, and every
# command that has -f refuses it (exit 2) before reading anything, rather than ignore it;
# record, which names its outputs after the program without -o, takes -f alone (see its help)
for c in $(tracekit help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }'); do
    tracekit help $c | grep -- '--force' >/dev/null || continue
    [ $c = record ] && { tracekit help record | grep -- '--force'; continue; }
    tracekit $c -f 2>&1; echo "$c -f: exit $?"
done
# --force spelled out, with FILEs given, is refused the same (with -o it replaces: core/options_output)
tracekit report --force tests/data/wet/pass/foo1.wet 2>&1; echo "exit $?"
tracekit convert --to dot --force -- tests/data/dcfg/pass/minimal.dcfg.json 2>&1; echo "exit $?"
# an llvm-xray user's -f csv (its --format): said so
tracekit report -f csv tests/data/xray/pass/calltree.basic 2>&1; echo "exit $?"
