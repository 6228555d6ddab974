# Sourced by the callgrind integration tests: sets `profiles` to every
# callgrind test profile (ours and the third-party corpus, without its notes).
profiles=(tests/data/callgrind/pass/*)
for f in ../shared/corpus/callgrind-thirdparty/*/*; do
    case "$f" in *.md|*.exp|*.expectf) continue ;; esac
    [ -f "$f" ] && profiles+=("$f")
done
