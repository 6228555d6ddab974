# diff --format svg A... --vs B... of XRay traces: the differential flame graph of the sets'
# folded diff, the SVG that convert --to svg draws of diff --format folded's lines (but for
# the unit: ns, where a folded file's counts are samples); -j 1 and -j 4 give the same bytes;
# --weight calls, --title, --width and --reverse; a well-formed XML document
t=$(mktemp -d); trap 'rm -rf $t' EXIT
D=tests/data/xray/pass
M="-m tests/data/xray/bin/mtpool"
A="$D/mtpool.basic $D/mtpool-wrapped.fdr"
B="$D/mtpool.fdr $D/mtpool.fdr $D/mtpool.basic"
tracekit diff --format svg -j 1 $M $A --vs $B -o $t/d.svg
tracekit diff --format svg -j 4 $M $A --vs $B | cmp - $t/d.svg && echo "-j 1 and -j 4: the same bytes"
tracekit diff --format folded $M $A --vs $B >$t/d.folded
tracekit convert --from folded --to svg $t/d.folded | sed 's/ samples/ ns/g' | cmp - $t/d.svg && echo "the flame graph of the folded diff"
grep -o '<title>[^<]*</title>' $t/d.svg | sed -n 1,4p
python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print("XML:", d.documentElement.tagName, len(d.getElementsByTagName("g")), "groups")' $t/d.svg
tracekit diff --format svg --weight calls --title "calls, A vs B" --width 800 --reverse $M $A --vs $B >$t/c.svg
tracekit diff --format folded --weight calls $M $A --vs $B >$t/c.folded
tracekit convert --from folded --to svg --title "calls, A vs B" --width 800 --reverse $t/c.folded | sed 's/ samples/ calls/g' | cmp - $t/c.svg && echo "--weight calls: the flame graph of the folded diff"
grep -o '<title>[^<]*</title>' $t/c.svg | sed -n 1,2p
