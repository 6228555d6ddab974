#!/bin/sh
# Makes DIR hold the headers of tracekit's dependencies (and nothing of
# glibc's), for a musl-gcc build: make check's build-musl.
set -eu
dir=$1
mkdir -p "$dir"
for h in zlib.h zconf.h lzma.h lzma zstd.h zstd_errors.h bzlib.h libelf.h gelf.h elfutils dwarf.h \
    libiberty; do
    for d in /usr/include /usr/include/x86_64-linux-gnu; do
        if [ -e "$d/$h" ]; then ln -sfn "$d/$h" "$dir/$h"; break; fi
    done
done
