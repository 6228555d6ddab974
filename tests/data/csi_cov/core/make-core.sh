#!/usr/bin/env bash
# Builds the fixtures of the CLI and fuzz tests of `tracekit coverage`: tiny.c
# (no C library, csi-cc's coverage arrays written by hand) linked at a fixed
# address (tiny.bin) and position-independent (tiny-pie.bin), each with the
# .debug_FC/.debug_CC/.debug_BBC texts beside this script added by objcopy,
# and small core files make-core.py writes the way the kernel lays them out,
# with the bytes work(2) would have set when it crashed at line 29: FC of all
# three functions, blocks work 0 and 2, idle 0, _start 0; no call returned but
# the uninstrumented idle() at line 28. The damaged variants give the errors.
# The real crashes (gdb, kernel, self-written cores) are in
# tests/integration/csi_cov_core.sh.
# Usage: tests/data/csi_cov/core/make-core.sh   (rewrites the files here)
set -eu
cd "$(dirname "$0")"
root=$(cd ../../../.. && pwd)
sections=()
for k in FC CC BBC; do
    sections+=(--add-section ".debug_$k=tiny.$k.txt" --set-section-flags ".debug_$k=readonly,debug")
done
common=(-O0 -g -nostdlib -ffreestanding -fno-stack-protector -fcf-protection=none
        -fdebug-prefix-map="$root"=. -Wl,--build-id -Wl,-z,noexecstack)
gcc "${common[@]}" -static -fno-pie -no-pie -o tiny.tmp tiny.c
objcopy "${sections[@]}" tiny.tmp tiny.bin
gcc "${common[@]}" -fpie -pie -Wl,--no-dynamic-linker -o tiny.tmp tiny.c
objcopy "${sections[@]}" tiny.tmp tiny-pie.bin
# with path-tracing metadata too (tiny.PT.txt: work's CFG; work has no
# path-tracing locals, so its frame is listed, not decoded)
objcopy --add-section .debug_PT=tiny.PT.txt --set-section-flags .debug_PT=readonly,debug \
    tiny-pie.bin tiny-pt.bin
rm -f tiny.tmp
# where work crashes (the first instruction of line 29) and where _start resumes
crash_pc=0x$(objdump -d -l tiny-pt.bin | sed -n '/<work>:/,/<_start>:/p' |
    awk '/tiny\.c:29$/ { getline; sub(/:.*/, ""); gsub(/ /, ""); print; exit }')
call_ret=$(objdump -d tiny-pt.bin | awk '/call.*<work>/ { getline; sub(/:.*/, ""); gsub(/ /, ""); print; exit }')
start=$(nm tiny-pt.bin | awk '$3 == "_start" { print $1 }')
set_bytes=(--set __FC_arr_tiny_c_work=1 --set __FC_arr_tiny_c_idle=1 --set __FC_arr_tiny_c__start=1
           --set __BBC_arr_tiny_c_work=1 --set __BBC_arr_tiny_c_work+2=1
           --set __BBC_arr_tiny_c_idle=1 --set __BBC_arr_tiny_c__start=1)
bias=0x7f1234560000
./make-core.py tiny.bin tiny.core "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie.core --bias $bias "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie-noauxv.core --bias $bias --no-auxv "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie-otherid.core --bias $bias --other-id "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie-nohead.core --bias $bias --no-head "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie-nodata.core --bias $bias --no-data "${set_bytes[@]}"
./make-core.py tiny-pie.bin tiny-pie-truncated.core --bias $bias --truncate 5000 "${set_bytes[@]}"
./make-core.py tiny.bin tiny.img --raw tiny.img.address "${set_bytes[@]}"
./make-core.py tiny-pt.bin tiny-pt.core --bias $bias --crash-pc "$crash_pc" \
    --caller "_start+$((0x$call_ret - 0x$start))" "${set_bytes[@]}"
zstd -q -19 -f tiny-pie.core -o tiny-pie.core.zst # as systemd-coredump keeps cores
ls -l tiny*.bin tiny*.core tiny.img tiny-pie.core.zst
