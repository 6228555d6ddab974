#!/usr/bin/env bash
# The generic commands parse their options against the union of every format's
# option tables to find the FILE arguments, so a short option letter must mean
# the same long option, with or without a value, in every table of every command.
cd "$(dirname "$0")/../.."
grep -ho "{\"[a-z0-9-]*\", '[a-zA-Z0-9]', [^,]*" src/cli/*.c src/cli/*/*.c |
    sed "s/{\"\([a-z0-9-]*\)\", '\(.\)', \(.*\)/\2 \1 \3/" |
    awk '{ arg = ($3 == "NULL") ? "flag" : "value"; key = $1; val = $2 " " arg
           if (key in seen && seen[key] != val) { print "-" key ": " seen[key] " and " val; bad = 1 }
           seen[key] = val }
         END { exit bad }'
status=$?
[ $status -eq 0 ] && echo "short options consistent across $(ls src/cli/*.c src/cli/*/*.c | wc -l) files"
exit $status
