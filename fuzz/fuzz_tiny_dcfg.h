/* The DCFG of the DCFG-Trace harnesses' inputs (fuzz_dcfg_trace.c, fuzz_dcfg_trace_bbv.c):
 * one process, one image of five blocks, the edges their seed traces walk. */
#ifndef TK_FUZZ_TINY_DCFG_H
#define TK_FUZZ_TINY_DCFG_H

/* main() of the vectors: 29 -1690-> 31 -303-> 30 -306-> 31 -1193-> 32 -1905-> 9 */
static const char tiny_dcfg[] =
    "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
    "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"a.out\" ] ],\n"
    "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"ENTRY\" ], [ 4, "
    "\"DIRECT_CALL\" ],\n"
    "    [ 13, \"DIRECT_CONDITIONAL_BRANCH\" ], [ 18, \"FALL_THROUGH\" ] ],\n"
    "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ] ],\n"
    "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 29003,\n"
    "    {\n"
    "      \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
    "        [ 1, \"0x400000\", 4096, { \"FILE_NAME_ID\" : 1,\n"
    "          \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\", "
    "\"LAST_INSTR_OFFSET\" ],\n"
    "            [ 9, \"0x10\", 4, 1, 0 ], [ 29, \"0x20\", 20, 5, 16 ],\n"
    "            [ 30, \"0x40\", 12, 3, 8 ],\n"
    "            [ 31, \"0x50\", 16, 4, 12 ], [ 32, \"0x60\", 8, 2, 4 ] ] } ] ],\n"
    "      \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", "
    "\"COUNT_PER_THREAD\" ],\n"
    "        [ 1690, 29, 31, 18, [ 1000000, 1000000 ] ],\n"
    "        [ 303, 31, 30, 13, [ 1000000, 1000000 ] ],\n"
    "        [ 306, 30, 31, 18, [ 1000000, 1000000 ] ],\n"
    "        [ 1193, 31, 32, 18, [ 1000000, 1000000 ] ],\n"
    "        [ 1905, 32, 9, 4, [ 1000000, 1000000 ] ] ] } ] ] }\n";

#endif
