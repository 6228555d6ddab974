#!/usr/bin/env bash
# Runs every libFuzzer harness for SECONDS each, starting from its committed seed
# corpus (and the format's test data); new inputs go to BUILD/corpus-NAME, not
# into the repository. Crashes are saved under BUILD/crashes-NAME.
#   scripts/fuzz-run.sh BUILD SECONDS [NAME...]
set -uo pipefail
build=$1 secs=$2; shift 2
cd "$(dirname "$0")/.."
status=0
for f in "$build"/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=${f##*/fuzz_}
    if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
    work="$build/corpus-$name" crashes="$build/crashes-$name"
    mkdir -p "$work" "$crashes"
    seeds=()
    for d in "fuzz/corpus/$name" "tests/data/$name/pass" "tests/data/$name/fail"; do [ -d "$d" ] && seeds+=("$d"); done
    echo "== fuzz $name for ${secs}s" >&2
    if ! "$f" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
            -artifact_prefix="$crashes/" "$work" "${seeds[@]}" 2>"$build/fuzz-$name.log"; then
        echo "fuzz $name: FAILED (see $build/fuzz-$name.log and $crashes/)" >&2
        tail -40 "$build/fuzz-$name.log" >&2
        status=1
    else
        echo "fuzz $name: clean ($(grep -c . "$build/fuzz-$name.log") log lines; $(grep -o 'exec/s: [0-9]*' "$build/fuzz-$name.log" | tail -1))" >&2
    fi
done
exit $status
