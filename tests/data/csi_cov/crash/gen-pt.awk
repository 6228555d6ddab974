# Fills the path-tracing metadata template (pt.PT.in: the CFG, increments and
# weights) with the source lines of each block: the lines of SOURCE marked
# with a comment "PT n" replace "@n".
#   awk -f gen-pt.awk SOURCE.c TEMPLATE.in > NAME.PT.txt
FNR == NR { if (match($0, /\/\* PT [0-9]+ \*\//)) { m = substr($0, RSTART + 6, RLENGTH - 9); l[m + 0] = l[m + 0] (l[m + 0] == "" ? "" : "|") FNR } next }
{ while (match($0, /@[0-9]+/)) { b = substr($0, RSTART + 1, RLENGTH - 1) + 0; $0 = substr($0, 1, RSTART - 1) l[b] substr($0, RSTART + RLENGTH) } print }
