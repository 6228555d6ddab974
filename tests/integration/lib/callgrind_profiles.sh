# Sourced by the callgrind integration tests: sets `profiles` to every
# callgrind test profile (ours and the third-party corpus, without its notes).
profiles=(tests/data/callgrind/pass/*)
for f in tests/data/corpus/callgrind-thirdparty/*/*; do
    case "$f" in *.md|*.exp|*.expectf) continue ;; esac
    [ -f "$f" ] && profiles+=("$f")
done

# annotate_can_read F: whether callgrind_annotate can be the oracle for F (it
# reads one part only and dies on the bb position column).
annotate_can_read() {
    [ "$(grep -c '^events:' "$1")" = 1 ] && ! grep -q '^positions:.*bb' "$1"
}
