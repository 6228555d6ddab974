#!/bin/sh
# Regenerates the real callgrind profiles in pass/ with valgrind --tool=callgrind.
# Usage: tests/data/callgrind/make-profiles.sh   (needs valgrind, gcc, g++, gzip)
# Paths in the debug info are made relative with -fdebug-prefix-map so that the
# files do not depend on the checkout location; pids and cache counters vary per run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/pass"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here"/prog/* "$tmp"/
cd "$tmp"
map="-fdebug-prefix-map=$tmp=."
gcc -O2 -g $map -fPIC -shared -o libwork.so work.c
gcc -O2 -g $map -fno-inline-small-functions -o demo demo.c -L. -lwork -Wl,-rpath,'$ORIGIN'
gcc -O1 -g $map -pthread -o threads threads.c
g++ -O1 -g $map -o cxx cxx.cpp
gcc -O1 -fno-optimize-sibling-calls -g $map -o mutual mutual.c
vg() { name=$1; shift; valgrind -q --tool=callgrind --callgrind-out-file="$out/$name" "$@" >/dev/null 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }; }
vg demo-default.out ./demo
vg demo-nocompress.out --compress-strings=no --compress-pos=no ./demo
vg demo-instr.out --dump-instr=yes ./demo
vg demo-instr-only.out --dump-instr=yes --dump-line=no ./demo
vg demo-jumps.out --dump-instr=yes --collect-jumps=yes ./demo
vg demo-cache.out --cache-sim=yes --branch-sim=yes ./demo
vg demo-systime.out --collect-systime=nsec --collect-bus=yes ./demo
vg demo-callers2.out --separate-callers=2 ./demo
vg demo-recs.out --separate-recs=10 --skip-direct-rec=no ./demo
vg demo-combined.out --dump-before=phase2 --dump-after=phase2 --combine-dumps=yes ./demo
vg demo-bb.out --dump-bb=yes ./demo
vg threads-sep.out --separate-threads=yes ./threads
vg threads-combined.out --separate-threads=yes --combine-dumps=yes ./threads
vg cxx-default.out ./cxx
vg cxx-demangle-no.out --demangle=no ./cxx
# hidden option: context names written as ids of their parts, `fn=(12) (10)'2'(7)`;
# the same run without it, to compare the expanded names
vg cxx-callers-mangled.out --compress-mangled=yes --separate-callers=2 --separate-recs=3 ./cxx
vg cxx-callers.out --separate-callers=2 --separate-recs=3 ./cxx
# mutual and direct recursion (annotate's inclusive column)
vg mutual.out ./mutual
vg mutual-recs.out --separate-recs=3 ./mutual
# gzip of a small input: a stripped system binary (hex names, ???)
head -c 20000 demo.c demo.c demo.c > in.txt
vg gzip.out --dump-instr=yes --collect-jumps=yes gzip -c in.txt
# several dumps of one run (client-less): --dump-every-bb
vg demo-every.out --dump-every-bb=30000 ./demo
chmod 644 "$out"/*
ls -la "$out"
