# "017" would be octal in C: refused rather than guessed
sed 's/\[ 0, 17, 3, 1690, "A" \]/[ 0, "017", 3, 1690, "A" ]/' tests/data/corpus/dcfg-thirdparty/trace-vectors/ok_multi_row.trace.json | tracekit check -
