#!/usr/bin/env bash
# Builds the ELF test inputs the way csi-cc's driver embeds its coverage
# metadata: `objcopy --add-section .debug_CC=<info file>` (and .debug_FC,
# .debug_BBC) on each object, then a link that concatenates the sections of
# all objects. csi-cc itself is not needed: the metadata texts are the real
# csi-cc outputs of its "multifile" test (user.c holds main, definer.c foo,
# bar and boo), split per object and stored beside this script; the linked
# sections must equal csi-cc's expected extract-section outputs.
# Usage: tests/data/csi_cov/elf/make-elf.sh   (rewrites the .o / executable here)
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/user.c" <<'C'
int bar(int);
int boo(int);
int main(void) { return bar(1) + boo(2); }
C
cat >"$tmp/definer.c" <<'C'
int foo(int x) { return x + 1; }
int bar(int x) { return foo(x) * 2; }
int boo(int x) { return x - 1; }
C
gcc -O0 -g0 -c "$tmp/user.c" -o "$tmp/user.o"
gcc -O0 -g0 -c "$tmp/definer.c" -o "$tmp/definer.o"
for obj in user definer; do
    args=()
    for k in CC FC BBC; do
        args+=(--add-section ".debug_$k=$obj.$k.txt" --set-section-flags ".debug_$k=readonly,debug")
    done
    objcopy "${args[@]}" "$tmp/$obj.o" "$obj-cov.o"
done
gcc -o multifile-cov.exe user-cov.o definer-cov.o
echo "built: user-cov.o definer-cov.o multifile-cov.exe"
# an object without .debug_CC (read as its .debug_BBC) and one with .debug_FC
# only: what an ELF file is read as without --from
objcopy --remove-section .debug_CC definer-cov.o definer-bbc-fc.o
objcopy --remove-section .debug_CC --remove-section .debug_BBC definer-cov.o definer-fc.o
echo "built: definer-bbc-fc.o definer-fc.o"
# sections of 128 KiB and more (3000 functions of 3 sites or blocks each), which
# the library's allocator maps on their own: the command line must give them back
# with tk_free (free() aborted); compressed, as the tests read it
awk 'BEGIN { for (i = 0; i < 3000; i++) { printf "#f%d|__CC_arr_f%d\n", i, i;
     for (k = 0; k < 3; k++) printf "%d|CC%d|%d|callee_function_name_%d\n", k, k, 10 + k, k } }' \
    >"$tmp/big.CC.txt"
awk 'BEGIN { for (i = 0; i < 3000; i++) { printf "#f%d|__BBC_arr_f%d\n", i, i;
     for (k = 0; k < 3; k++) printf "%d|BBC%d|%d|%d\n", k, k, 10 + k, 11 + k } }' \
    >"$tmp/big.BBC.txt"
objcopy --add-section .debug_CC="$tmp/big.CC.txt" --add-section .debug_BBC="$tmp/big.BBC.txt" \
    "$tmp/definer.o" "$tmp/big-sections.o"
xz -9 -c "$tmp/big-sections.o" >big-sections.o.xz
echo "built: big-sections.o.xz"
