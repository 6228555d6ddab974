# The common options spell the same in every format (docs/cli.md): -n/--top, -s/--sort,
# -o/--output, -f/--force; XRay adds llvm-xray account's spellings (-p, -top=N, -sort=KEY,
# -sortorder=asc), which never take a common letter
x=tests/data/xray/pass/calltree.fdr
tracekit report -n 2 -s count $x
tracekit report -p 2 --sort count $x | cmp - <(tracekit report -n 2 -s count $x) && echo "-p 2 = -n 2"
tracekit report -top=2 -sort=count -sortorder=asc $x | cmp - <(tracekit report -n 2 -s count -r asc $x) && echo "-top=2 -sort=count -sortorder=asc = -n 2 -s count -r asc"
tracekit diff -n 1 $x tests/data/xray/pass/calltree.basic | sed -n 2p
tracekit report -n 2 -s self tests/data/folded/pass/mtpool-per-thread.folded | tail -2
tracekit report -n 1 -s name tests/data/corpus/csi-thirdparty/docs-examples/loop.debug_PT.txt | tail -2
tracekit report -n 1 -s Ir tests/data/callgrind/pass/demo-default.out | tail -2
tracekit report -n 1 tests/data/dcfg_trace/pass/gen11.level9.trace.json | sed -n 3p
