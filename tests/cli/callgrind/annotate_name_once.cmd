# a source file found where the profile names it is named once; found elsewhere (-I DIR), the
# profile's name and then where it was found
t=$(mktemp)
trap 'rm -f "$t"' EXIT
sed 's|././demo.c|tests/data/callgrind/prog/demo.c|' tests/data/callgrind/pass/demo-default.out >"$t"
tracekit annotate --file demo.c "$t" | grep '^===='
tracekit annotate --file demo.c -I tests/data/callgrind/prog tests/data/callgrind/pass/demo-default.out | grep '^===='
