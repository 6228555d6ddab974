#!/bin/sh
# Regenerates builds/: profiles of two builds of one program (prog/demo.c with its shared
# library prog/work.c), built in two directories, v1 with -O2 and v2 with -O1, each run under
# valgrind --tool=callgrind and --tool=cachegrind (for cg_diff, the oracle of `tracekit diff
# --mod-filename`: tests/integration/callgrind_diff_builds.sh). The temporary directory's
# name is rewritten to /build in the files, so that they do not depend on where they were
# made: the objects are /build/v1/demo, /build/v2/libwork.so, ..., the sources
# /build/v1/demo.c, ...
# Usage: tests/data/callgrind/make-builds.sh   (needs valgrind, gcc, xz)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/builds"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in v1 v2; do
    mkdir "$tmp/$v"
    cp "$here"/prog/demo.c "$here"/prog/work.c "$here"/prog/work.h "$here"/prog/inl.h "$tmp/$v/"
    opt=-O2; [ $v = v2 ] && opt=-O1
    (cd "$tmp/$v" &&
        gcc $opt -g -fPIC -shared -o libwork.so "$tmp/$v/work.c" &&
        gcc $opt -g -fno-inline-small-functions -o demo "$tmp/$v/demo.c" -L. -lwork \
            -Wl,-rpath,'$ORIGIN' &&
        valgrind -q --tool=callgrind --callgrind-out-file="$tmp/$v.callgrind" ./demo >/dev/null &&
        valgrind -q --tool=cachegrind --cache-sim=no --cachegrind-out-file="$tmp/$v.cachegrind" \
            ./demo >/dev/null)
    for k in callgrind cachegrind; do
        sed -e "s|$tmp/|/build/|g" -e '/^pid:/d' "$tmp/$v.$k" | xz -9 >"$out/$v.$k.out.xz"
    done
done
