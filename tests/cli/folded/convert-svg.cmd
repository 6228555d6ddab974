tracekit convert --to svg --title 'handwritten <stacks>' tests/data/folded/pass/handwritten.folded | grep -o 'data-name="[^"]*"\|>handwritten[^<]*<\|data-total="[^"]*"' | sort | uniq -c
