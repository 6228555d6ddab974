# info prints EDGE_COUNT, the first edge and one per transition as Intel's reader counts them, as
# "edge transitions recorded"; report counts the edges decoded: a transition of a multi-edge row
# (quirk_multi_edge_next: 1690, then [303, 306]) stands for two, so the numbers differ (2 and 3)
tracekit info tests/data/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json | grep thread
tracekit report tests/data/corpus/dcfg-thirdparty/trace-vectors/quirk_multi_edge_next.trace.json | sed -n 1,1p
