# a CPython profile's call graph: of its 135 functions over 0.5 %, the 100 of highest inclusive
# and the 20 of highest self cost, and the label says what is left out; --all draws every
# function and call (not with a threshold)
tracekit convert --to dot tests/data/callgrind/large/cpython-json.out.xz | grep -c '^  f[0-9]* \[label'
tracekit convert --to dot tests/data/callgrind/large/cpython-json.out.xz | grep '^  label='
tracekit convert --to dot --all tests/data/callgrind/large/cpython-json.out.xz | grep -c '^  f[0-9]* \[label'
tracekit convert --to dot --all tests/data/callgrind/large/cpython-json.out.xz | grep '^  label='
tracekit convert --to dot --all --edge-threshold 1 tests/data/callgrind/pass/mutual.out
