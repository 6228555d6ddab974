# Sourced by the viewer tests (tests/integration/viewers_*.sh): traces of real programs made
# at test time, once per run of the suite (tests/run.sh points TK_VIEWERS_REAL at a folder of
# its own, removed at its end; a script run alone makes them in its own $tmp).
#   viewers_real        makes what the machine can make into $real and sets, for each one made:
#     real_mtpool         tests/data/xray/src/mtpool.c built with clang -fxray-instrument (a
#                         main thread feeding 3 workers; also the program recorded below)
#     real_xray           its XRay FDR trace ($real/mtpool.fdr)
#     real_xray_more      another of twice the jobs ($real/mtpool-more.fdr: XRay's diff)
#     real_gzip_dcfg      tracekit record --trace of gzip: $real/gzip.dcfg.json and
#     real_gzip_trace       $real/gzip.trace.json (ld.so's jump to _start, PLT stubs' jumps)
#     real_mt_dcfg        tracekit record --trace of mtpool (4 threads): $real/mt.dcfg.json,
#     real_mt_trace         $real/mt.trace.json
#     real_gzip_wet       tracekit record --wet of gzip compressing 100 lines ($real/gzip.wet,
#                         some 14,000 instructions, 35,000 pairs of them with dependences)
#     real_callgrind      valgrind --tool=callgrind of gzip ($real/gzip.callgrind)
#     real_callgrind_mt   valgrind --tool=callgrind of mtpool, its threads in one part
#   (unset: the tool is missing). The input of gzip is generated (seq), so the traces differ
#   from run to run only by what the programs do differently.
viewers_real() {
    real=${TK_VIEWERS_REAL:-$tmp/real}
    if [ ! -e "$real/.done" ]; then
        local new="$real.new.$$"
        rm -rf "$new"
        mkdir -p "$new" || return 1
        viewers_real_make "$new" >"$new/log" 2>&1
        touch "$new/.done"
        rm -rf "$real"
        mv "$new" "$real"
    fi
    real_mtpool="" real_xray="" real_xray_more="" real_gzip_dcfg="" real_gzip_trace="" real_mt_dcfg=""
    real_mt_trace="" real_callgrind="" real_callgrind_mt="" real_gzip_wet=""
    [ -s "$real/mtpool" ] && real_mtpool=$real/mtpool
    [ -s "$real/mtpool.fdr" ] && real_xray=$real/mtpool.fdr
    [ -s "$real/mtpool-more.fdr" ] && real_xray_more=$real/mtpool-more.fdr
    [ -s "$real/gzip.trace.json" ] && real_gzip_dcfg=$real/gzip.dcfg.json real_gzip_trace=$real/gzip.trace.json
    [ -s "$real/mt.trace.json" ] && real_mt_dcfg=$real/mt.dcfg.json real_mt_trace=$real/mt.trace.json
    [ -s "$real/gzip.wet" ] && real_gzip_wet=$real/gzip.wet
    [ -s "$real/gzip.callgrind" ] && real_callgrind=$real/gzip.callgrind
    [ -s "$real/mt.callgrind" ] && real_callgrind_mt=$real/mt.callgrind
    return 0
}

# viewers_real_make DIR: the traces into DIR (a part whose tool is missing is left out)
viewers_real_make() {
    local d=$1 cc tk=${TRACEKIT:-build/tracekit}
    seq 1 4000 >"$d/input"
    seq 1 100 >"$d/small"
    cc=$(command -v clang-14 || command -v clang) || cc=
    if [ -n "$cc" ] && $cc -std=c2x -O1 -g -fxray-instrument -fxray-instruction-threshold=1 \
        -pthread -o "$d/mtpool" tests/data/xray/src/mtpool.c; then
        mkdir "$d/xlog"
        XRAY_OPTIONS="patch_premain=true xray_mode=xray-fdr verbosity=0 xray_logfile_base=$d/xlog/" \
            XRAY_FDR_OPTIONS=func_duration_threshold_us=0 XRAY_CTL_MODE=fdr \
            "$d/mtpool" 40 3 >/dev/null
        set -- "$d"/xlog/*
        [ $# = 1 ] && [ -s "$1" ] && mv "$1" "$d/mtpool.fdr"
        XRAY_OPTIONS="patch_premain=true xray_mode=xray-fdr verbosity=0 xray_logfile_base=$d/xlog/" \
            XRAY_FDR_OPTIONS=func_duration_threshold_us=0 XRAY_CTL_MODE=fdr \
            "$d/mtpool" 80 3 >/dev/null
        set -- "$d"/xlog/*
        [ $# = 1 ] && [ -s "$1" ] && mv "$1" "$d/mtpool-more.fdr"
    fi
    if command -v valgrind >/dev/null && command -v gzip >/dev/null; then
        valgrind --tool=callgrind --callgrind-out-file="$d/gzip.callgrind" \
            gzip -c "$d/input" >/dev/null
        [ -s "$d/mtpool" ] && valgrind --tool=callgrind --callgrind-out-file="$d/mt.callgrind" \
            "$d/mtpool" 40 3 >/dev/null
        if [ -x "$(dirname "$tk")/recorder/tkrecord-amd64-linux" ]; then
            "$tk" record -q --trace -o "$d/gzip" -- gzip -c "$d/input" >/dev/null
            "$tk" record -q --wet -o "$d/gzip" -- gzip -c "$d/small" >/dev/null
            [ -s "$d/mtpool" ] && "$tk" record -q --trace -o "$d/mt" -- "$d/mtpool" 40 3 >/dev/null
        fi
    fi
    return 0
}
