# What one would write without tracekit: read a WET comprehensive trace into
# an associative array and slice backward from CRIT ("ID INSTANCE") by BFS.
# Prints the number of instances in the slice.
BEGIN { state = 0 }
/^[0-9]+ [0-9]+ / && !/:/ { id = $1; next }
/^SIZE / { next }
/^ *[0-9]+:[0-9]+ [0-9]+ *$/ {
    split($1, a, ":"); key = id " " a[1]
    deps[key] = deps[key] SUBSEP a[2] " " $2
    next
}
END {
    q[0] = CRIT; seen[CRIT] = 1; head = 0; tail = 1
    while (head < tail) {
        n = q[head++]
        if (!(n in deps)) continue
        k = split(deps[n], d, SUBSEP)
        for (i = 2; i <= k; i++) if (!(d[i] in seen)) { seen[d[i]] = 1; q[tail++] = d[i] }
    }
    print tail
}
