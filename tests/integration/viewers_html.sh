#!/usr/bin/env bash
# Viewer test: `report --format html` of every format opens in headless Chromium from file://
# with no console error and no request outside the page, and shows what `report --format json`
# says (tests/viewers/report_html.js), for every format (CSI coverage too): the summary, each
# table's rows as they are drawn (first screen, middle, end), sorting by a column, the flame
# graph where the format has stacks, the XRay and DCFG-Trace timelines; the hot loops of DCFG and DCFG-Trace reports and the functions
# of CSI reports drawn by Graphviz, each with its report rows, a CSI function's paths listed and
# highlighted when clicked. A callgrind profile of 100,000 functions (generated) stays usable:
# its page loads and draws within the test's limits. Also the pages of traces of real programs
# made now (tests/integration/lib/viewers_real.sh): XRay of a threaded program, valgrind's
# callgrind, tracekit record --trace of gzip (its DCFG and its DCFG-Trace), tracekit record
# --wet of gzip (its instructions and dependences as tables, nothing shown as JSON).
set -u
cd "$(dirname "$0")/../.."
. tests/integration/lib/viewers.sh
. tests/integration/lib/viewers_real.sh
viewers_need_browser
TRACEKIT=${TRACEKIT:-build/tracekit}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pages=()
page() { # NAME TRACEKIT-REPORT-ARGS...
    local name=$1
    shift
    "$TRACEKIT" report --format html "$@" -o "$tmp/$name.html" &&
        "$TRACEKIT" report --format json "$@" >"$tmp/$name.json" ||
        { echo "FAIL: tracekit report $*"; fail=1; return; }
    pages+=("$tmp/$name.html" "$tmp/$name.json")
}
page xray -m examples/fib-xray.bin examples/fib.xray
page xray-mt -m tests/data/xray/bin/mtpool tests/data/xray/pass/mtpool.fdr
page callgrind tests/data/callgrind/pass/cxx-default.out
page callgrind-inclusive --inclusive tests/data/callgrind/pass/gzip.out
# a recursion: the rows of functions in a cycle have a member (cycle) the others lack
page callgrind-mutual tests/data/callgrind/pass/mutual.out
command -v dot >/dev/null || { echo "graphviz (dot) not installed"; exit 77; }
SDE=tests/data/corpus/dcfg-thirdparty/passlab-DCFG/whole.log_0.dcfg.json.bz2
page dcfg examples/hello.dcfg.json
page dcfg-sde "$SDE"
page dcfg-threads tests/data/dcfg/pass/generated-hard.dcfg.json
page dcfg-trace --dcfg examples/hello.dcfg.json examples/hello.trace.json
page dcfg-trace-gen11 --dcfg tests/data/dcfg_trace/pass/gen11.dcfg.json tests/data/dcfg_trace/pass/gen11.intel.trace.json
page csi examples/loop.debug_PT
# the Ball-Larus metadata of every routine of a real program (Intel SDE's DCFG of it)
"$TRACEKIT" convert --to csi "$SDE" -o "$tmp/sde.debug_PT" 2>/dev/null || fail=1
page csi-sde "$tmp/sde.debug_PT"
# CSI coverage: call sites of an ELF (csi-cc), functions, statements
C=tests/data/csi_cov/elf
page csi-cc $C/multifile-cov.exe
page csi-fc $C/definer.FC.txt
page csi-bbc $C/definer.BBC.txt
page wet examples/foo1.wet
page wet-history tests/data/wet/pass/foo1.history
page folded tests/data/folded/pass/mtpool-per-thread.folded
viewers_real
[ -n "$real_xray" ] && page real-xray -m "$real_mtpool" "$real_xray"
[ -n "$real_callgrind" ] && page real-callgrind "$real_callgrind"
[ -n "$real_gzip_dcfg" ] && page real-dcfg "$real_gzip_dcfg" &&
    page real-dcfg-trace --dcfg "$real_gzip_dcfg" "$real_gzip_trace"
[ -n "$real_gzip_wet" ] && page real-wet "$real_gzip_wet"
# 100,000 functions, each called from main
python3 - "$tmp/big.out" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("# callgrind format\nversion: 1\ncreator: generated\npositions: line\nevents: Ir\n\n")
    f.write("fl=big.c\nfn=main\n1 1\n")
    for i in range(100000):
        f.write(f"cfn=fn_{i}\ncalls=1 {i + 2}\n1 {i % 997 + 1}\n")
    f.write("\n")
    for i in range(100000):
        f.write(f"fn=fn_{i}\n{i + 2} {i % 997 + 1}\n")
PY
page big "$tmp/big.out"
viewers_node tests/viewers/report_html.js "${pages[@]}" >"$tmp/results" || fail=1
cat "$tmp/results"
# the 100,000 functions called from main, each narrower than a pixel, are one frame of theirs
grep -q "big.html: .*(1 of paths narrower than a pixel)" "$tmp/results" ||
    { echo "FAIL: the big profile's flame graph has no frame of the narrow paths"; fail=1; }
# a WET page lists its instructions and dependences too: lines, chains, instructions, dependences
for w in wet wet-history ${real_gzip_wet:+real-wet}; do
    grep -q "/$w.html: 4 tables" "$tmp/results" ||
        { echo "FAIL: the $w page lacks its instruction and dependence tables"; fail=1; }
done
exit $fail
