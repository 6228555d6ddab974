# --thread: the rows of one thread are those of --per-thread for it, other threads are gone
diff <(tracekit report --all --per-thread tests/data/xray/pass/mtpool.fdr | awk '$1 == 6263' | sort) <(tracekit report --all --per-thread --thread 6263 tests/data/xray/pass/mtpool.fdr | awk 'NR > 2' | sort) && echo "same rows as --per-thread"
tracekit report --all --per-thread --thread 6263 --thread 0x1875 tests/data/xray/pass/mtpool.fdr | awk 'NR > 2 { print $1 }' | sort -u
tracekit convert --to folded --thread 6261 tests/data/xray/pass/mtpool.fdr | sed -n 1,3p
tracekit convert --to chrome --thread 6261 tests/data/xray/pass/mtpool.fdr | grep -o '"tid":[0-9]*' | sort -u
tracekit convert --to json --thread 6261 tests/data/xray/pass/mtpool.fdr | grep -o '"tid":[0-9]*' | sort -u
