diff <(tracekit dump tests/data/xray/pass/calltree-typed.fdr | tail -n +2) <(tracekit dump tests/data/xray/pass/calltree-typed-be.fdr | tail -n +2) && echo 'big-endian dump equals little-endian dump'
