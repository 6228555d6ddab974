# a cycle member's inclusive cost is an estimate, marked <cycle N>; before 2026-11-27
# is_odd'2 showed 36.3 % (it is on the stack for 70.9 % of the run: --separate-recs=500)
tracekit report --inclusive --top 20 tests/data/callgrind/pass/mutual.out | grep -E "'2 |<cycle N>"
tracekit report --format json tests/data/callgrind/pass/mutual.out | grep -E '"is_(odd|even)'"'"'2"'
