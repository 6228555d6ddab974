#!/bin/sh
# The one style of the C sources: .clang-format (Debian 12's clang-format 14).
#   scripts/format-check.sh        lists every file clang-format would change; exit 1 if any
#   scripts/format-check.sh --fix  reformats them in place (make format)
# The programs under tests/data/ and examples/ are test inputs whose line numbers
# the tests and docs quote: they keep their own layout.
set -eu
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null 2>&1 || {
    echo "format-check: clang-format is not installed (make deps installs it)" >&2
    exit 1
}
if [ -d .git ] || git rev-parse --git-dir >/dev/null 2>&1; then
    files=$(git ls-files --cached --others --exclude-standard '*.c' '*.h' | grep -v -E '^(tests/data|examples)/')
else
    files=$(find . -name '*.[ch]' -not -path './tests/data/*' -not -path './examples/*' \
        -not -path './build*' -not -path './node_modules/*' | sed 's|^\./||' | sort)
fi
if [ "${1:-}" = --fix ]; then
    # shellcheck disable=SC2086
    clang-format -i $files
    exit 0
fi
# one clang-format for all the files; its messages name each file it would change
# shellcheck disable=SC2086
out=$(clang-format --dry-run -Werror $files 2>&1) && exit 0
printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u |
    sed 's/$/: not in the style of .clang-format (make format rewrites it)/'
exit 1
