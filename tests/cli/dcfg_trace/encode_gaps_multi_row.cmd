# The edges of the vector ok_multi_row have a gap (306 then 306: chunks that are not contiguous).
# With the real SDE DCFG the encoder starts a new chunk there, PRECEDING_INSTR_COUNT after the
# gap adds the block the last edge enters (31: 3 instructions), and check --dcfg accepts the
# output at every level.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
V=tests/data/corpus/dcfg-thirdparty/trace-vectors
D=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
tracekit decode "$V/ok_multi_row.trace.json" >"$t/edges"
for l in 0 1 2 3 4 5 6 7 8 9 intel; do
    lv="--level $l"
    [ "$l" = intel ] && lv="--compat=intel"
    tracekit encode --dcfg "$D" $lv -o "$t/$l.json" "$t/edges" || echo "level $l: encode failed"
    tracekit check --dcfg "$D" "$t/$l.json" 2>&1 | sed "s|^$t/||"
    tracekit decode "$t/$l.json" | cmp -s - "$t/edges" || echo "level $l: decodes differently"
done
grep '^      \[' "$t/9.json"
