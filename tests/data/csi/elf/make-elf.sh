#!/usr/bin/env bash
# Builds the ELF test inputs the way csi-cc's driver embeds its metadata:
# `objcopy --add-section .debug_PT=<info file>` on each object, then a link
# that concatenates the sections of all objects. csi-cc itself is not needed:
# the metadata texts are the real csi-cc outputs of the "multifile" test
# (main.c / foo.c), stored beside this script.
# Usage: tests/data/csi/elf/make-elf.sh   (rewrites the .o / executable here)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/main.c" <<'C'
int foo(int);
int main(void) { return foo(3); }
C
cat >"$tmp/foo.c" <<'C'
int bar(int x) { return x + 1; }
int boo(int x) { return x * 2; }
int foo(int x) { return bar(x) + boo(x); }
C
gcc -O0 -g0 -c "$tmp/main.c" -o "$tmp/main.o"
gcc -O0 -g0 -c "$tmp/foo.c" -o "$tmp/foo.o"
objcopy --add-section .debug_PT=multifile-main.PT.txt --set-section-flags .debug_PT=readonly,debug "$tmp/main.o" main-pt.o
objcopy --add-section .debug_PT=multifile-foo.PT.txt --set-section-flags .debug_PT=readonly,debug "$tmp/foo.o" foo-pt.o
gcc -o multifile-pt.exe main-pt.o foo-pt.o
# an object without the section
cp "$tmp/main.o" no-pt.o
echo "built: main-pt.o foo-pt.o multifile-pt.exe no-pt.o"
