#!/usr/bin/env bash
# tracekit-mpi benchmark (issue 28, docs/mpi.md): 256 inputs per format, read by tracekit-mpi
# on 1 and 2 ranks (one thread each, -j 1), with each rank's time and peak memory
# (TRACEKIT_MPI_TIMES); then the time modelled for 64 and 1,024 ranks (256 files, and one file
# per rank) from the measured cost of a file, of merging and of rank 0's output (model below):
#   XRay       report of 256 FDR traces of tests/data/xray/src/mtpool.c (clang -fxray-instrument;
#              8 runs, each copied 32 times), MPI_BENCH_XRAY_JOBS jobs each (default 4000)
#   Callgrind  report --inclusive of 256 profiles of gzip (valgrind --tool=callgrind; 8 runs on
#              different inputs, copied 32 times), summary partials
#   DCFG       check of 256 DCFGs of one generated program (tests/gen/dcfg_trace_gen.c, 150
#              routines, 2 threads), each of a run of its own (walks of other seeds and
#              lengths: other counts, some blocks and edges only some runs took, as the ranks
#              of one program record them), each on its own; and merge of them (counts
#              partials, the union of their graphs)
#   DCFG-Trace report, convert --to bbv and --to folded of one generated trace
#              (tests/gen/dcfg_trace_gen.c), split by chunks
#   CSI        check and report of the path-tracing metadata of 8 real programs (gzip, bzip2,
#              xz, sort, grep, sed, mawk, diff: each run under `tracekit record`, its DCFG
#              converted --to csi; 95-200 KB, 297-565 functions), copied 32 times, each input
#              on its own rank, the outputs printed in rank order; against tracekit's bytes
#   CSI coverage (csi_cov) check of statement coverage metadata (.debug_BBC,
#              bench/csi_cov_gen.py) of as many functions as each of those programs, the same
#   WET        check of 256 generated traces (tests/gen/wet_gen.c, 4-9 MB): on rank 0 alone
#              (docs/mpi.md, "WET"), so each rank's line and no model
# The inputs are cached in MPI_BENCH_DIR (default /tmp/tracekit-bench-mpi); MPI_BENCH_FORMATS
# picks some of "xray callgrind dcfg dcfg_merge dcfg_trace csi csi_cov wet" (default all).
set -uo pipefail
cd "$(dirname "$0")/.."
TRACEKIT=${TRACEKIT:-build/tracekit}
TKMPI=$(dirname "$TRACEKIT")/tracekit-mpi
[ -x "$TKMPI" ] || { echo "bench mpi: $TKMPI not built (no mpicc), skipped"; exit 0; }
dir=${MPI_BENCH_DIR:-/tmp/tracekit-bench-mpi}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$dir"
FANIN=8

# copies DIR NAME...: the 8 files NAME as 256 (each copied 32 times) in DIR/all
copies() {
    local d=$1 k=0
    shift
    rm -rf "$d/all" && mkdir -p "$d/all"
    for r in $(seq 32); do
        for f in "$@"; do
            cp "$f" "$d/all/$(printf '%03d' $k)-$(basename "$f")"
            k=$((k + 1))
        done
    done
}

xray_inputs() {
    local d=$dir/xray jobs=${MPI_BENCH_XRAY_JOBS:-4000}
    [ -s "$d/all/255-run8.fdr" ] && return 0
    local cc
    cc=$(command -v clang-14 || command -v clang) || return 1
    mkdir -p "$d"
    $cc -std=c2x -O1 -g -fxray-instrument -fxray-instruction-threshold=1 -pthread \
        -Itests/data/xray/src -o "$d/mtpool" tests/data/xray/src/mtpool.c || return 1
    for r in $(seq 8); do
        rm -rf "$d/log" && mkdir "$d/log"
        XRAY_OPTIONS="patch_premain=true xray_mode=xray-fdr verbosity=0 xray_logfile_base=$d/log/" \
        XRAY_FDR_OPTIONS="func_duration_threshold_us=0:buffer_size=65536:buffer_max=1024" \
        XRAY_CTL_MODE=fdr "$d/mtpool" $((jobs + r * 100)) 4 >/dev/null 2>&1 || return 1
        mv "$d"/log/* "$d/run$r.fdr" || return 1
    done
    copies "$d" "$d"/run?.fdr
}

callgrind_inputs() {
    local d=$dir/callgrind
    [ -s "$d/all/255-gz8.out" ] && return 0
    command -v valgrind >/dev/null || return 1
    mkdir -p "$d"
    for r in $(seq 8); do
        [ -s "$d/gz$r.out" ] && continue
        head -c $((100000 * r)) /dev/urandom | base64 >"$d/in$r.txt"
        valgrind --tool=callgrind --callgrind-out-file="$d/gz$r.out" gzip -$r -c "$d/in$r.txt" \
            >/dev/null 2>&1 || return 1
    done
    copies "$d" "$d"/gz?.out
}

dcfg_inputs() {
    local d=$dir/dcfg
    [ -s "$d/all/255.dcfg.json" ] && return 0
    rm -rf "$d/all" && mkdir -p "$d/all"
    cc -std=c11 -O2 -D_GNU_SOURCE -o "$d/gen" tests/gen/dcfg_trace_gen.c || return 1
    for k in $(seq 0 255); do
        "$d/gen" --seed 3 --routines 150 --threads 2 --walk-seed $((k + 1)) \
            --edges-per-thread $((15000 + k * 41)) --executed-only \
            --dcfg "$d/all/$(printf '%03d' $k).dcfg.json" || return 1
    done
}

# csi_inputs: the path-tracing metadata (.debug_PT) of 8 real programs, each run under
# `tracekit record` and its DCFG written as csi-cc would write the routines it ran (`convert --to
# csi`, docs/formats/csi.md, "DCFG -> CSI bridge"), copied 32 times
CSI_PROGS="gzip bzip2 xz sort grep sed mawk diff"
csi_inputs() {
    local d=$dir/csi k=0
    [ -s "$d/all/255-diff.PT" ] && return 0
    command -v valgrind >/dev/null || return 1
    mkdir -p "$d"
    head -c 300000 /dev/urandom | base64 >"$d/in.txt"
    sort -R "$d/in.txt" >"$d/in2.txt" 2>/dev/null || cp "$d/in.txt" "$d/in2.txt"
    for p in $CSI_PROGS; do
        k=$((k + 1))
        [ -s "$d/$p.PT" ] && continue
        command -v "$p" >/dev/null || return 1
        local args
        case $p in
        gzip | bzip2 | xz) args=(-c "$d/in.txt") ;;
        sort) args=("$d/in.txt") ;;
        grep) args=(-c -E '[A-F][0-9]+x' "$d/in.txt") ;;
        sed) args=(-e 's/[0-9]\+/N/g' "$d/in.txt") ;;
        mawk) args=('{ n[substr($0, 1, 2)]++ } END { for (k in n) print k, n[k] }' "$d/in.txt") ;;
        diff) args=("$d/in.txt" "$d/in2.txt") ;;
        esac
        "$TRACEKIT" record -q -f -o "$d/$p" -- "$p" "${args[@]}" >/dev/null 2>&1
        [ -s "$d/$p.dcfg.json" ] || return 1
        "$TRACEKIT" convert --to csi -f -o "$d/$p.PT" "$d/$p.dcfg.json" 2>/dev/null || return 1
    done
    local made=()
    for p in $CSI_PROGS; do made+=("$d/$p.PT"); done
    copies "$d" "${made[@]}"
}

# csi_cov_inputs: statement coverage metadata (.debug_BBC, bench/csi_cov_gen.py) of as many
# functions as each of the 8 programs' path-tracing metadata has, copied 32 times
csi_cov_inputs() {
    local d=$dir/csi_cov
    [ -s "$d/all/255-diff.BBC" ] && return 0
    csi_inputs || return 1
    command -v python3 >/dev/null || return 1
    mkdir -p "$d"
    for p in $CSI_PROGS; do
        local n
        n=$(grep -c '^#$' "$dir/csi/$p.PT")
        python3 bench/csi_cov_gen.py "$n" bbc >"$d/$p.BBC" || return 1
    done
    local made=()
    for p in $CSI_PROGS; do made+=("$d/$p.BBC"); done
    copies "$d" "${made[@]}"
}

# wet_inputs: 256 WET traces (comprehensive form) of tests/gen/wet_gen.c, each of a run of its
# own (seed K, 5,000 + 20 K iterations: 4 to 9 MB, as `tracekit record --wet` of /bin/true
# makes 7 MB)
wet_inputs() {
    local d=$dir/wet
    [ -s "$d/all/255.wet" ] && return 0
    rm -rf "$d/all" && mkdir -p "$d/all"
    cc -std=c11 -O2 -D_GNU_SOURCE -o "$d/gen" tests/gen/wet_gen.c || return 1
    for k in $(seq 0 255); do
        "$d/gen" --seed $((k + 1)) --iterations $((5000 + k * 20)) \
            -o "$d/all/$(printf '%03d' $k).wet" >/dev/null || return 1
    done
}

# same_bytes NAME INPUTS-DIR ARGS...: tracekit's output (-j 1) of every input, against
# tracekit-mpi's on 1 and 2 ranks
same_bytes() {
    local name=$1 d=$2
    shift 2
    [ "$(ls "$d/all" 2>/dev/null | wc -l)" -eq 256 ] || return 0
    local files=("$d"/all/*)
    "$TRACEKIT" "$@" -j 1 "${files[@]}" >"$out/$name.one" 2>&1
    for np in 1 2; do
        TRACEKIT_MPI_TIMES=0 mpirun --oversubscribe --allow-run-as-root -np $np "$TKMPI" "$@" \
            -j 1 "${files[@]}" >"$out/$name.mpi" 2>&1
        if cmp -s "$out/$name.one" "$out/$name.mpi"; then
            echo "bench mpi $name -np $np: the bytes of tracekit ($(wc -l <"$out/$name.one") lines)"
        else
            echo "bench mpi $name -np $np: not the bytes of tracekit"
        fi
    done
}

# alone NAME: a command that runs on rank 0 alone, each rank's line (no model: more ranks do
# not share its work)
alone() {
    awk -v n="$1" 'FNR == 1 { np++ }
        { printf "bench mpi %s -np %d: rank %d: %d inputs read in %.2f s, reductions %.2f s, total %.2f s, CPU %.2f s, peak %.1f MB\n", n, np, $1, $2, $3, $4, $5, $7, $6 }' \
        "$out/$1.1" "$out/$1.2"
}

# run NAME NP ARGS...: tracekit-mpi on NP ranks, one thread each; its ranks' lines in
# $out/NAME.NP (rank, inputs, read, reduce, total, peak MB)
run() {
    local name=$1 np=$2
    shift 2
    TRACEKIT_MPI_TIMES=1 mpirun --oversubscribe --allow-run-as-root -np "$np" "$TKMPI" "$@" \
        >/dev/null 2>"$out/$name.$np.err"
    sed -n 's/^tracekit-mpi: rank \([0-9]*\): \([0-9]*\) inputs\{0,1\} read in \([0-9.]*\) s, reductions \([0-9.]*\) s.*total \([0-9.]*\) s, peak memory \([0-9.]*\) MB, CPU \([0-9.]*\) s$/\1 \2 \3 \4 \5 \6 \7/p' \
        "$out/$name.$np.err" | sort -n >"$out/$name.$np"
    [ -s "$out/$name.$np" ] || { echo "bench mpi $name: failed:"; tail -3 "$out/$name.$np.err"; }
}

# model NAME BYTES: per rank at -np 1 and 2, and the modelled 64 and 1,024 ranks. A file costs
# c (-np 1: the rank's CPU time / 256, the work without the waits a machine shared with other
# jobs adds to the wall time); a merge costs mu per input its partials cover (-np 2: rank 0's
# reduction time, less its wait for rank 1, / 256), at each level of the tree the group of
# rank 0 merging min(F, what is left) partials of F^L ranks' inputs; rank 0's output w (-np 1:
# after the reduction). MPI's transfers are in the measured merge (shared memory here).
model() {
    local name=$1 bytes=$2
    awk -v n="$name" -v F=$FANIN -v bytes="$bytes" '
        FNR == 1 { np++ }
        { read[np, $1] = $3; red[np, $1] = $4; tot[np, $1] = $5; cpu[np, $1] = $7 }
        { printf "bench mpi %s -np %d: rank %d: %d inputs read in %.2f s, reductions %.2f s, total %.2f s, CPU %.2f s, peak %.1f MB\n", n, np, $1, $2, $3, $4, $5, $7, $6 }
        END {
            c = cpu[1, 0] / 256
            w = tot[1, 0] - read[1, 0] - red[1, 0]
            slowest = read[2, 0] > read[2, 1] ? read[2, 0] : read[2, 1]
            m = red[2, 0] - (slowest - read[2, 0])
            if (m < 0) m = 0
            mu = m / 256
            cpu2 = cpu[2, 0] > cpu[2, 1] ? cpu[2, 0] : cpu[2, 1]
            printf "bench mpi %s: a file %.4f s of CPU (%.0f MB/s), merging %.5f s per input covered, rank 0 output %.3f s; -np 2: %.2fx the speed of -np 1 (wall), %.2fx (CPU of the busier rank)\n", n, c, (c > 0 ? bytes / 256 / c / 1e6 : 0), mu, w, (tot[2, 0] > 0 ? tot[1, 0] / tot[2, 0] : 0), (cpu2 > 0 ? cpu[1, 0] / cpu2 : 0)
            split("64 1024", P, " ")
            for (k = 1; k <= 2; k++) {
                p = P[k]
                split("256 " p, N, " ")
                for (j = 1; j <= 2; j++) {
                    files = N[j]; q = (files + p - 1) / p; q = q == int(q) ? q : int(q) + 1
                    merging = 0; levels = 0
                    for (span = 1; span < p; span *= F) {
                        g = int((p + span - 1) / span); if (g > F) g = F
                        cover = q * span * g; if (cover > files) cover = files
                        merging += mu * cover; levels++
                    }
                    t = q * c + merging + w
                    printf "bench mpi %s: modelled %d ranks, %d files: %.2f s (reading %.2f s, %d levels of merges %.2f s, output %.2f s)\n", n, p, files, t, q * c, levels, merging, w
                }
            }
        }' "$out/$name.1" "$out/$name.2"
}

bench_format() { # NAME INPUTS-FUNCTION ARGS... (the inputs after them, in $dir/${make%_inputs})
    local name=$1 make=$2
    shift 2
    $make || { echo "bench mpi $name: inputs could not be made, skipped"; return 0; }
    local files=("$dir/${make%_inputs}"/all/*)
    local bytes
    bytes=$(cat "${files[@]}" | wc -c)
    echo "bench mpi $name: ${#files[@]} inputs, $((bytes / 1000000)) MB"
    run "$name" 1 "$@" "${files[@]}"
    run "$name" 2 "$@" "${files[@]}"
    model "$name" "$bytes"
}

# one DCFG-Trace split by chunks: MPI_BENCH_DT_EDGES edges per thread (default 25 M), 4 threads,
# compression level MPI_BENCH_DT_LEVEL (default 1: the decoding costs what SDE's traces do)
dcfg_trace_bench() {
    local d=$dir/dcfg_trace per=${MPI_BENCH_DT_EDGES:-25000000}
    local libs lib
    libs="$(pkg-config --libs zlib liblzma libzstd libelf libdw 2>/dev/null ||
        echo -lz -llzma -lzstd -ldw -lelf) -lbz2 -lpthread -lm"
    lib=$(dirname "$TRACEKIT")/libtracekit.a
    mkdir -p "$d"
    local lv=${MPI_BENCH_DT_LEVEL:-1}
    per=$per.l$lv
    if [ ! -s "$d/t$per.trace.json" ]; then
        cc -std=c11 -O2 -D_GNU_SOURCE -DWITH_TRACEKIT -Iinclude -o "$d/gen" \
            tests/gen/dcfg_trace_gen.c "$lib" $libs || return 0
        "$d/gen" --seed 7 --routines 200 --threads 4 --edges-per-thread "${per%.l*}" \
            --chunk-instrs 2000000 --dcfg "$d/t$per.dcfg.json" --encode "$d/t$per.trace.json" \
            --level "${MPI_BENCH_DT_LEVEL:-1}" >/dev/null || return 0
    fi
    local bytes
    bytes=$(stat -c %s "$d/t$per.trace.json")
    echo "bench mpi dcfg_trace: one trace of $((${per%.l*} * 4)) edges, 4 threads, level $lv," \
        "$((bytes / 1000000)) MB"
    "$TRACEKIT" report -j 1 --dcfg "$d/t$per.dcfg.json" "$d/t$per.trace.json" >"$out/dt.one"
    for np in 1 2; do
        run dcfg_trace $np report -j 1 --dcfg "$d/t$per.dcfg.json" "$d/t$per.trace.json"
        TRACEKIT_MPI_TIMES=0 mpirun --oversubscribe --allow-run-as-root -np $np "$TKMPI" report \
            -j 1 --dcfg "$d/t$per.dcfg.json" "$d/t$per.trace.json" >"$out/dt.$np" 2>/dev/null
        cmp -s "$out/dt.one" "$out/dt.$np" ||
            echo "bench mpi dcfg_trace: -np $np: not the bytes of tracekit"
        awk -v np=$np '{ printf "bench mpi dcfg_trace -np %d: rank %d: first thread in %.2f s, reductions %.2f s, total %.2f s, CPU %.2f s, peak %.1f MB\n", np, $1, $3, $4, $5, $7, $6 }' "$out/dcfg_trace.$np"
    done
    awk 'FNR == 1 { np++ } $1 == 0 { t[np] = $5 } END {
        printf "bench mpi dcfg_trace: -np 2: %.2fx the speed of -np 1\n", (t[2] > 0 ? t[1] / t[2] : 0) }' \
        "$out/dcfg_trace.1" "$out/dcfg_trace.2"
    # convert --to bbv, each thread's chunks split in three passes (docs/mpi.md): time, and
    # tracekit's bytes
    local bbv=(convert --to bbv -j 1 --interval 1000000 --dcfg "$d/t$per.dcfg.json")
    local TIMEFORMAT="bench mpi dcfg_trace bbv: tracekit: %R s, CPU %U + %S s"
    time "$TRACEKIT" "${bbv[@]}" -f "$d/t$per.trace.json" -o "$out/bbv.one"
    for np in 1 2; do
        run dcfg_trace_bbv $np "${bbv[@]}" -f "$d/t$per.trace.json" -o "$out/bbv.$np"
        cmp -s "$out/bbv.one" "$out/bbv.$np" &&
            echo "bench mpi dcfg_trace bbv: -np $np: the same bytes" ||
            echo "bench mpi dcfg_trace bbv: -np $np: not the bytes of tracekit"
        awk -v np=$np '{ printf "bench mpi dcfg_trace bbv -np %d: rank %d: first thread in %.2f s, reductions %.2f s, total %.2f s, CPU %.2f s, peak %.1f MB\n", np, $1, $3, $4, $5, $7, $6 }' "$out/dcfg_trace_bbv.$np"
    done
    # convert --to folded, each thread's chunks split too (docs/mpi.md, "DCFG-Trace folded
    # stacks"): tracekit's CPU time, then each rank's, and the same bytes
    local t0
    t0=$( { /usr/bin/time -f "%U %S %M" "$TRACEKIT" convert --to folded -j 1 \
        --dcfg "$d/t$per.dcfg.json" "$d/t$per.trace.json" >"$out/dtf.one"; } 2>&1 | tail -1)
    echo "$t0" | awk '{ printf "bench mpi dcfg_trace folded: tracekit -j 1: CPU %.2f s, peak %.1f MB\n", $1 + $2, $3 / 1000 }'
    for np in 1 2; do
        run dcfg_trace_folded $np convert --to folded -j 1 --dcfg "$d/t$per.dcfg.json" \
            "$d/t$per.trace.json"
        TRACEKIT_MPI_TIMES=0 mpirun --oversubscribe --allow-run-as-root -np $np "$TKMPI" convert \
            --to folded -j 1 --dcfg "$d/t$per.dcfg.json" "$d/t$per.trace.json" >"$out/dtf.$np" \
            2>/dev/null
        if cmp -s "$out/dtf.one" "$out/dtf.$np"; then
            echo "bench mpi dcfg_trace folded -np $np: same bytes as tracekit"
        else
            echo "bench mpi dcfg_trace folded -np $np: not the bytes of tracekit"
        fi
        awk -v np=$np '{ printf "bench mpi dcfg_trace folded -np %d: rank %d: total %.2f s, CPU %.2f s, peak %.1f MB\n", np, $1, $5, $7, $6 }' "$out/dcfg_trace_folded.$np"
    done
}

formats=${MPI_BENCH_FORMATS:-xray callgrind dcfg dcfg_merge dcfg_trace csi csi_cov wet}
for f in $formats; do
    case $f in
    xray) bench_format xray xray_inputs report --format json -j 1 ;;
    # one thread a rank (-j 1); check's -j forks nothing under tracekit-mpi (docs/mpi.md)
    callgrind) bench_format callgrind callgrind_inputs report --inclusive -j 1 ;;
    dcfg) bench_format dcfg dcfg_inputs check ;;
    dcfg_merge) bench_format dcfg_merge dcfg_inputs merge -j 1 ;;
    dcfg_trace) dcfg_trace_bench ;;
    # CSI and CSI coverage: check and report treat each input on its own, each rank its own
    # (docs/mpi.md, "What runs on many ranks"); the outputs printed by rank 0 in rank order
    csi)
        bench_format csi csi_inputs check -j 1 && same_bytes csi "$dir/csi" check
        bench_format csi_report csi_inputs report -j 1 && same_bytes csi_report "$dir/csi" report
        ;;
    csi_cov) bench_format csi_cov csi_cov_inputs check -j 1 && same_bytes csi_cov "$dir/csi_cov" check ;;
    # WET: every command runs on rank 0 alone (docs/mpi.md, "WET"), check of many traces too
    wet)
        if wet_inputs; then
            files=("$dir/wet"/all/*)
            echo "bench mpi wet: ${#files[@]} inputs, $(($(cat "${files[@]}" | wc -c) / 1000000)) MB; check runs on rank 0 alone"
            run wet 1 check -j 1 "${files[@]}"
            run wet 2 check -j 1 "${files[@]}"
            alone wet
            same_bytes wet "$dir/wet" check
        else
            echo "bench mpi wet: inputs could not be made, skipped"
        fi
        ;;
    esac
done
