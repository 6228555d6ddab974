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
#   DCFG-Trace report of one generated trace (tests/gen/dcfg_trace_gen.c), split by chunks;
#              and convert --to callgrind of it, with its costs piece by piece
#              (bench/dcfg_trace_split.c) and the time modelled for 64 and 1,024 ranks
# The inputs are cached in MPI_BENCH_DIR (default /tmp/tracekit-bench-mpi); MPI_BENCH_FORMATS
# picks some of "xray callgrind dcfg dcfg_merge dcfg_trace" (default all).
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
    dcfg_trace_callgrind "$d/t$per" "$lib" "$libs"
}

# convert --to callgrind of the same trace split by chunks (docs/mpi.md, "DCFG-Trace profiles"):
# -np 1 and 2 against tracekit's bytes, then its costs piece by piece (bench/dcfg_trace_split.c:
# a rank's fixed cost, each thread's chunks cut into R ranges as R ranks cut them, the partials'
# bytes, rank 0's replay and output) and the time modelled for 64 and 1,024 ranks from them
dcfg_trace_callgrind() { # TRACE-BASE LIB LIBS
    local base=$1 lib=$2 libs=$3 d
    d=$(dirname "$base")
    local args=(convert --to callgrind -j 1 --dcfg "$base.dcfg.json" "$base.trace.json")
    /usr/bin/time -f "%U %S" -o "$out/dtc.time" "$TRACEKIT" "${args[@]}" >"$out/dtc.one"
    awk '{ printf "bench mpi dcfg_trace callgrind: tracekit: CPU %.2f s\n", $1 + $2 }' "$out/dtc.time"
    for np in 1 2; do
        run dcfg_trace_cg $np "${args[@]}"
        TRACEKIT_MPI_TIMES=0 mpirun --oversubscribe --allow-run-as-root -np $np "$TKMPI" \
            "${args[@]}" >"$out/dtc.$np" 2>/dev/null
        cmp -s "$out/dtc.one" "$out/dtc.$np" ||
            echo "bench mpi dcfg_trace callgrind: -np $np: not the bytes of tracekit"
        awk -v np=$np '{ printf "bench mpi dcfg_trace callgrind -np %d: rank %d: first thread in %.2f s, reductions %.2f s, total %.2f s, CPU %.2f s, peak %.1f MB\n", np, $1, $3, $4, $5, $7, $6 }' "$out/dcfg_trace_cg.$np"
    done
    awk 'FNR == 1 { np++ } $1 == 0 { t[np] = $5 } END {
        printf "bench mpi dcfg_trace callgrind: -np 2: %.2fx the speed of -np 1\n", (t[2] > 0 ? t[1] / t[2] : 0) }' \
        "$out/dcfg_trace_cg.1" "$out/dcfg_trace_cg.2"
    cc -std=c11 -O2 -D_GNU_SOURCE -Iinclude -o "$d/split" bench/dcfg_trace_split.c "$lib" $libs \
        -liberty || return 0
    "$d/split" "$base.dcfg.json" "$base.trace.json" 1 2 64 1024 >"$out/dtc.split" || return 0
    sed 's/^/bench mpi dcfg_trace callgrind: /' "$out/dtc.split"
    # T(p) = F + the slowest range of each thread, summed over the threads (the ranks decode
    # thread after thread) + the reduction + rank 0's replay and output; F = the DCFG and the
    # trace's tables (every rank reads them). The reduction concatenates each thread's partials
    # up the tree (nothing merged): rank 0 receives every other rank's bytes once, through the
    # leaders of its subtrees, at B (1 GB/s, a 10 Gb/s link; MPI's shared memory here is
    # faster), and pays a latency l a level (50 us for its Gather and Gatherv) per thread:
    # assumptions, not measured (rank 0's reduction time at -np 2 is mostly its waits for
    # rank 1, which a loaded machine stretches)
    awk -v F=$FANIN -v B=1e9 -v l=50e-6 '
        /^fixed:/ { fixed = $3 + $7; threads = $9; chunks = $11 }
        /^split/ { r = $2 + 0; slow[r] = $14; bytes[r] = $17; rep[r] = $20; wout[r] = $23 }
        END {
            split("64 1024", P, " ")
            for (k = 1; k <= 2; k++) {
                p = P[k]; levels = 0
                for (span = 1; span < p; span *= F) levels++
                reduce = threads * levels * l + bytes[p] / B
                t = fixed + slow[p] + reduce + rep[p] + wout[p]
                printf "bench mpi dcfg_trace callgrind: modelled %d ranks: %.2f s (fixed %.3f s, decoding %.3f s, %d levels of reductions %.4f s for %.1f MB of partials, replay and output %.3f s; 1 rank: %.2f s)\n", p, t, fixed, slow[p], levels, reduce, bytes[p] / 1e6, rep[p] + wout[p], fixed + slow[1] + rep[1] + wout[1]
            }
        }' "$out/dtc.split"
}

formats=${MPI_BENCH_FORMATS:-xray callgrind dcfg dcfg_merge dcfg_trace}
for f in $formats; do
    case $f in
    xray) bench_format xray xray_inputs report --format json -j 1 ;;
    # one thread a rank (-j 1); check's -j forks nothing under tracekit-mpi (docs/mpi.md)
    callgrind) bench_format callgrind callgrind_inputs report --inclusive -j 1 ;;
    dcfg) bench_format dcfg dcfg_inputs check ;;
    dcfg_merge) bench_format dcfg_merge dcfg_inputs merge -j 1 ;;
    dcfg_trace) dcfg_trace_bench ;;
    esac
done
