#!/usr/bin/env bash
# CSI coverage metadata benchmark: tracekit's `report` of csi-cc's call-site (.debug_CC) and
# statement (.debug_BBC) coverage metadata (per function: entries, instrumented and not,
# distinct source lines) against what users otherwise run on the same text. csi-cc ships no
# reader of its own beyond gdb scripts for a running program (csi-grissom), and is not a
# Debian package, so the other side is the gcov-style awk summary of the sections (the counts
# csi-cc's test comparison, scons-tools/expectcmp.py, works from), in file order as tracekit's
# rows are. The metadata of CSI_COV_BENCH_FUNCS generated functions (default 300000, ~100 MB a
# kind; bench/csi_cov_gen.py, the labelled form) is made once and cached in CSI_COV_BENCH_DIR
# (default /tmp/tracekit-bench-csi-cov). Both outputs are checked byte for byte equal first.
# `tracekit coverage BIN CORE` (coverage at a crash) is not timed here: it reads a core's few
# arrays, and a core of a program of this size would need the program built first.
set -uo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
command -v python3 >/dev/null || { echo "bench csi_cov: python3 not installed, skipped"; exit 0; }
dir=${CSI_COV_BENCH_DIR:-/tmp/tracekit-bench-csi-cov}
funcs=${CSI_COV_BENCH_FUNCS:-300000}
mkdir -p "$dir"
AWK=$(command -v mawk || command -v awk)
# function,array,entries,instrumented,not_instrumented,lines (tracekit's CSV columns)
summary='BEGIN { FS = "|" }
function flush() { if (name != "") printf "%s,%s,%d,%d,%d,%d\n", name, arr, e, i, e - i, nl }
/^#/ { flush(); name = substr($1, 2); arr = $2; e = i = nl = 0; split("", seen); next }
{ e++; if ($1 !~ /^-/) i++
  last = cc ? 3 : NF
  for (k = 3; k <= last; k++) if ($k != "NULL" && !($k in seen)) { seen[$k] = 1; nl++ } }
END { flush() }'
status=0
for kind in cc bbc; do
    f=$dir/funcs-$funcs.$kind cc=0
    [ $kind = cc ] && cc=1
    if [ ! -s "$f" ]; then
        echo "bench csi_cov: generating the $kind metadata of $funcs functions (about 30 s)"
        python3 bench/csi_cov_gen.py "$funcs" $kind >"$f.tmp" && mv "$f.tmp" "$f" ||
            { echo "bench csi_cov: generating failed"; exit 1; }
    fi
    echo "bench csi_cov-$kind: $f, $(($(stat -c %s "$f") / 1000000)) MB"
    "$TRACEKIT" report --format csv "$f" | tail -n +2 >"$BENCH_OUT/$kind.tk"
    $AWK -v cc=$cc "$summary" "$f" >"$BENCH_OUT/$kind.awk"
    cmp -s "$BENCH_OUT/$kind.tk" "$BENCH_OUT/$kind.awk" ||
        { echo "bench csi_cov-$kind: tracekit's rows differ from the awk summary's"; status=1; }
    bench_compare "csi_cov-$kind-report" "'$TRACEKIT' report --format csv '$f'" \
        "$AWK -v cc=$cc '$summary' '$f'" || status=1
    run_timed "csi_cov-$kind.again" "'$TRACEKIT' report --format csv '$f'" &&
        bench_throughput "csi_cov-$kind-report-cpu" "$(stat -c %s "$f")" "$T_CPU"
done
[ -n "${BENCH_KEEP:-}" ] || rm -rf "$BENCH_OUT"
exit $status
