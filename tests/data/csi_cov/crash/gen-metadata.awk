# Writes csi-cc's coverage metadata for a source instrumented with the
# markers of cov.h: FC(f), BB(f, i), BBU(f), CALL(f, i, callee(...)),
# CALLV(f, i, callee(...)), CALLU(f, callee(...)).
#   awk -v out=DIR/NAME -f gen-metadata.awk SOURCE.c
# gives NAME.FC.txt, NAME.CC.txt, NAME.BBC.txt (the sections' texts, in the
# labelled form of csi-cc 1.3+) and NAME.arrays.h (the arrays' definitions).
# A block's lines: its marker's line and the following lines with code, up
# to the next block marker of the function or its closing brace.
function fn_seen(f) { if (!(f in order)) { order[f] = ++nf; names[nf] = f } }
function close_block(   k) {
    if (cur_fn == "") return
    k = cur_fn SUBSEP cur_blk
    if (blines[k] == "") blines[k] = "|NULL"
    cur_fn = ""
}
function code_line(s) {
    sub(/\/\*.*\*\//, "", s); sub(/\/\/.*/, "", s)
    return s !~ /^[ \t{}]*(else)?[ \t{}]*$/
}
/^#define COV_FILE / { key = $3 }
{
    line = $0
    if (match(line, /BBU?\([a-z_0-9]+/)) {
        close_block()
        m = substr(line, RSTART, RLENGTH); split(m, a, "("); f = a[2]; fn_seen(f)
        if (m ~ /^BBU/) { nbu[f]++; idx = -nbu[f] }
        else { match(line, /BB\([a-z_0-9]+, *[0-9]+/); m = substr(line, RSTART, RLENGTH)
               sub(/.*, */, "", m); idx = m + 0; if (idx + 1 > nbb[f]) nbb[f] = idx + 1 }
        cur_fn = f; cur_blk = idx; blk_list[f] = blk_list[f] " " idx
    } else if (line ~ /^}/) {
        close_block()
    }
    if (cur_fn != "" && code_line(line)) blines[cur_fn SUBSEP cur_blk] = blines[cur_fn SUBSEP cur_blk] "|" NR
    if (match(line, /FC\([a-z_0-9]+\)/)) { m = substr(line, RSTART + 3, RLENGTH - 4); fn_seen(m); fc[m] = 1 }
    rest = line
    while (match(rest, /CALL[VU]?\([a-z_0-9]+, *[^,]*,?/)) {
        m = substr(rest, RSTART, RLENGTH); rest = substr(rest, RSTART + RLENGTH)
        split(m, a, "("); split(a[2], b, ","); f = b[1]; fn_seen(f)
        if (m ~ /^CALLU/) { callee_src = substr(m, index(m, ",") + 1) rest; nsu[f]++; idx = -nsu[f] }
        else { idx = b[2] + 0; callee_src = rest; if (idx + 1 > ncc[f]) ncc[f] = idx + 1 }
        sub(/^ */, "", callee_src)
        callee = callee_src ~ /^[A-Za-z_][A-Za-z_0-9]* *\(/ ? callee_src : "?"
        sub(/ *\(.*/, "", callee)
        site_list[f] = site_list[f] " " idx; site_line[f, idx] = NR; site_callee[f, idx] = callee
    }
}
END {
    for (i = 1; i <= nf; i++) {
        f = names[i]
        if (fc[f]) {
            printf "#%s|__FC_arr_%s_%s\n", f, key, f > (out ".FC.txt")
            printf "unsigned char __FC_arr_%s_%s;\n", key, f > (out ".arrays.h")
        }
        if (site_list[f] != "") {
            printf "#%s|__CC_arr_%s_%s\n", f, key, f > (out ".CC.txt")
            printf "unsigned char __CC_arr_%s_%s[%d];\n", key, f, ncc[f] > (out ".arrays.h")
            n = split(site_list[f], s, " ")
            for (pass = 0; pass < 2; pass++)
                for (k = 1; k <= n; k++) {
                    x = s[k] + 0
                    if ((pass == 0) != (x >= 0)) continue
                    printf "%d|%s|%d|%s\n", x, (x >= 0 ? "CC" x : ""), site_line[f, x], site_callee[f, x] > (out ".CC.txt")
                }
        }
        if (blk_list[f] != "") {
            printf "#%s|__BBC_arr_%s_%s\n", f, key, f > (out ".BBC.txt")
            printf "unsigned char __BBC_arr_%s_%s[%d];\n", key, f, nbb[f] > (out ".arrays.h")
            n = split(blk_list[f], s, " ")
            for (pass = 0; pass < 2; pass++)
                for (k = 1; k <= n; k++) {
                    x = s[k] + 0
                    if ((pass == 0) != (x >= 0)) continue
                    printf "%d|%s%s\n", x, (x >= 0 ? "BBC" x : ""), blines[f SUBSEP x] > (out ".BBC.txt")
                }
        }
    }
}
