# Two builds of one program in two directories (/build/v1 -O2, /build/v2 -O1;
# tests/data/callgrind/make-builds.sh): by object, file and name every function of the program
# is new in B or gone from A; --mod-filename rewrites the paths of both (cg_diff's: the changes
# are cg_diff's, tests/integration/callgrind_diff_builds.sh); --match basename or name pair
# B's functions with A's, shown with A's paths ('(below main)', in demo and in libc, is a name
# two functions have: left apart)
A=tests/data/callgrind/builds/v1.callgrind.out.xz B=tests/data/callgrind/builds/v2.callgrind.out.xz
tracekit diff -n 6 $A $B
tracekit diff -n 6 --mod-filename 's,^/build/v[12]/,,' $A $B
tracekit diff -n 6 --match basename $A $B
tracekit diff -n 4 --match name $A $B
tracekit diff --all --match name $A $B | grep 'below main'
# substitutions in order, g and i flags, groups; --mod-funcname: fib'2 and fib as one
tracekit diff -n 3 --mod-filename 's|/BUILD/(v)[12]|/\1|gi' --mod-filename 's,^/v/,,' $A $B
tracekit diff --all --mod-filename 's,^/build/v[12]/,,' --mod-funcname "s/'[0-9]+$//" $A $B | grep ' fib '
tracekit diff --format folded --mod-funcname "s/^fib('[0-9]+)?$/FIB/" $A $B | grep -c FIB
# refused: not a substitution, a regex that does not compile, an unknown flag, a key
tracekit diff --mod-filename 's/a' $A $B; echo "exit $?"
# (the reason a regex does not compile is the C library's regerror: glibc's and musl's differ)
tracekit diff --mod-filename 's/(a/b/' $A $B 2>&1 | sed 's/\(b\/'"'"'\): .*/\1: REASON/'
echo "exit ${PIPESTATUS[0]}"
tracekit diff --mod-funcname 's/a/b/x' $A $B; echo "exit $?"
tracekit diff --mod-filename 'y/a/b/' $A $B; echo "exit $?"
tracekit diff --match file $A $B; echo "exit $?"
