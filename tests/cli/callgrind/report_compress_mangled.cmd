# --compress-mangled=yes: context names as ids of their parts, expanded on reading
grep -m2 "^fn=([0-9]*) ([0-9]*)'" tests/data/callgrind/pass/cxx-callers-mangled.out
tracekit report --top 4 tests/data/callgrind/pass/cxx-callers-mangled.out
d=$(mktemp -d)
for by in function line; do
  tracekit report --format=json --by=$by tests/data/callgrind/pass/cxx-callers-mangled.out >"$d/m"
  tracekit report --format=json --by=$by tests/data/callgrind/pass/cxx-callers.out >"$d/p"
  cmp -s "$d/m" "$d/p" && echo "--by=$by: same report as the run without --compress-mangled"
done
rm -rf "$d"
# bare part definitions add no function; a recursion number stays; an
# undefined or non-id part leaves the name as written
printf '%s\n' 'events: Ir' 'fl=a.c' 'fn=(1) f' 'fn=(2) main' 'fn=(3) (1)'"'"'2'"'"'(2)' '1 5' \
  'fn=(4) (1)'"'"'(9)' '2 7' 'fn=(5) (2)x' '3 1' 'fn=(6) (2)'"'"'(1)' '4 2' 'cfn=(7) (1)'"'"'(6)' \
  'calls=1 1' '4 3' | tracekit report --format=csv -
