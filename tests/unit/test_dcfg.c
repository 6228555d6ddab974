/* DCFG reader, cfg model, dominators and loops. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "graph/dominators.h"
#include "graph/loops.h"
#include "model/cfg_internal.h"
#include "tk_test.h"
#include "tracekit/tracekit.h"

/* ---- dominators and loops on small graphs ------------------------------- */

/* CSR from an edge list */
typedef struct graph {
    uint32_t n, start[32], adj[64];
} graph;

static void build(graph *g, uint32_t n, const uint32_t (*e)[2], size_t ne)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    for (size_t k = 0; k < ne; k++) g->start[e[k][0] + 1]++;
    for (uint32_t v = 0; v < n; v++) g->start[v + 1] += g->start[v];
    uint32_t fill[32];
    memcpy(fill, g->start, sizeof fill);
    for (size_t k = 0; k < ne; k++) g->adj[fill[e[k][0]]++] = e[k][1];
}

static void test_dominators_diamond_loop(void)
{
    /* 0 -> 1 -> {2,3} -> 4 -> 1 (back), 4 -> 5; 6 unreachable */
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 1}, {4, 5}, {6, 5}};
    graph g;
    build(&g, 7, e, sizeof e / sizeof e[0]);
    uint32_t idom[7];
    TK_CHECK(tk_dominators(g.n, g.start, g.adj, 0, idom) == TK_OK);
    TK_CHECK_EQ_U64(idom[0], 0);
    TK_CHECK_EQ_U64(idom[1], 0);
    TK_CHECK_EQ_U64(idom[2], 1);
    TK_CHECK_EQ_U64(idom[3], 1);
    TK_CHECK_EQ_U64(idom[4], 1);
    TK_CHECK_EQ_U64(idom[5], 4);
    TK_CHECK_EQ_U64(idom[6], TK_DOM_NONE);
    tk_loops L;
    TK_CHECK(tk_loops_find(&L, g.n, g.start, g.adj, idom) == TK_OK);
    TK_CHECK_EQ_U64(L.nloops, 1);
    TK_CHECK_EQ_U64(L.head[0], 1);
    TK_CHECK_EQ_U64(L.node_start[1] - L.node_start[0], 4); /* 1 2 3 4 */
    TK_CHECK_EQ_U64(L.back[0], 4);
    TK_CHECK_EQ_U64(L.inner[5], TK_DOM_NONE);
    TK_CHECK_EQ_U64(L.inner[3], 0);
    tk_loops_free(&L);
}

static void test_loops_nesting(void)
{
    /* 0 -> 1 (outer head) -> 2 (inner head) -> 3 -> 2 (inner back), 3 -> 4 -> 1 (outer back), 4 -> 5;
     * plus a self loop on 5 */
    static const uint32_t e[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 2}, {3, 4}, {4, 1}, {4, 5}, {5, 5}};
    graph g;
    build(&g, 6, e, sizeof e / sizeof e[0]);
    uint32_t idom[6];
    TK_CHECK(tk_dominators(g.n, g.start, g.adj, 0, idom) == TK_OK);
    tk_loops L;
    TK_CHECK(tk_loops_find(&L, g.n, g.start, g.adj, idom) == TK_OK);
    TK_CHECK_EQ_U64(L.nloops, 3);
    /* loops ordered by head: 1, 2, 5 */
    TK_CHECK_EQ_U64(L.head[0], 1);
    TK_CHECK_EQ_U64(L.head[1], 2);
    TK_CHECK_EQ_U64(L.head[2], 5);
    TK_CHECK_EQ_U64(L.parent[0], TK_DOM_NONE);
    TK_CHECK_EQ_U64(L.parent[1], 0);
    TK_CHECK_EQ_U64(L.depth[1], 1);
    TK_CHECK_EQ_U64(L.parent[2], TK_DOM_NONE);
    TK_CHECK_EQ_U64(L.node_start[3] - L.node_start[2], 1);
    TK_CHECK_EQ_U64(L.inner[3], 1);
    TK_CHECK_EQ_U64(L.inner[4], 0);
    tk_loops_free(&L);
}

static void test_dominators_deep_chain(void)
{
    /* a 200000-node chain with a back edge: iterative code, no stack growth */
    uint32_t n = 200000;
    uint32_t *start = malloc(sizeof *start * (n + 1)), *adj = malloc(sizeof *adj * n),
             *idom = malloc(sizeof *idom * n);
    TK_CHECK(start && adj && idom);
    if (!start || !adj || !idom) return;
    for (uint32_t v = 0; v <= n; v++) start[v] = v;
    for (uint32_t v = 0; v + 1 < n; v++) adj[v] = v + 1;
    adj[n - 1] = 1;
    TK_CHECK(tk_dominators(n, start, adj, 0, idom) == TK_OK);
    TK_CHECK_EQ_U64(idom[n - 1], n - 2);
    tk_loops L;
    TK_CHECK(tk_loops_find(&L, n, start, adj, idom) == TK_OK);
    TK_CHECK_EQ_U64(L.nloops, 1);
    TK_CHECK_EQ_U64(L.node_start[1], n - 1);
    tk_loops_free(&L);
    free(start);
    free(adj);
    free(idom);
}

/* Immediate dominators on random graphs against dominator sets computed by
 * the textbook data-flow iteration (dom(v) = {v} + the intersection of the
 * predecessors' sets), and on the chain-with-a-join shape that is the worst
 * case of Cooper-Harvey-Kennedy. */
static void test_dominators_random_against_sets(void)
{
    uint64_t seed = 12345;
    for (int round = 0; round < 400; round++) {
        uint32_t n = 1 + (uint32_t)(round % 60);
        uint32_t ne = 0, cap = 4 * n + 4;
        uint32_t(*e)[2] = malloc(sizeof *e * cap);
        uint32_t *start = calloc(n + 1, sizeof *start), *adj = malloc(sizeof *adj * cap);
        uint32_t *idom = malloc(sizeof *idom * n);
        TK_CHECK(e && start && adj && idom);
        if (!e || !start || !adj || !idom) return;
        for (uint32_t k = 0; k < cap; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if ((seed >> 60) < 3) continue; /* a few edges fewer */
            e[ne][0] = (uint32_t)(seed >> 33) % n;
            e[ne][1] = (uint32_t)(seed >> 13) % n;
            ne++;
        }
        for (uint32_t k = 0; k < ne; k++) start[e[k][0] + 1]++;
        for (uint32_t v = 0; v < n; v++) start[v + 1] += start[v];
        uint32_t fill[64];
        memcpy(fill, start, sizeof *start * n);
        for (uint32_t k = 0; k < ne; k++) adj[fill[e[k][0]]++] = e[k][1];
        TK_CHECK(tk_dominators(n, start, adj, 0, idom) == TK_OK);
        /* reachability, then dominator sets */
        uint64_t reach = 1, dom[64];
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t k = 0; k < ne; k++)
                if ((reach >> e[k][0] & 1) && !(reach >> e[k][1] & 1))
                    reach |= 1ull << e[k][1], changed = 1;
        }
        for (uint32_t v = 0; v < n; v++) dom[v] = v == 0 ? 1 : ~0ull;
        for (int changed = 1; changed;) {
            changed = 0;
            for (uint32_t v = 1; v < n; v++) {
                if (!(reach >> v & 1)) continue;
                uint64_t d = ~0ull;
                for (uint32_t k = 0; k < ne; k++)
                    if (e[k][1] == v && (reach >> e[k][0] & 1)) d &= dom[e[k][0]];
                d |= 1ull << v;
                if (d != dom[v]) dom[v] = d, changed = 1;
            }
        }
        for (uint32_t v = 0; v < n; v++) {
            uint32_t want = TK_DOM_NONE;
            if (v == 0)
                want = 0;
            else if (reach >> v & 1)
                for (uint32_t d = 0; d < n;
                     d++) /* the strict dominator dominated by all the others */
                    if (d != v && (dom[v] >> d & 1) && (dom[d] | (1ull << v)) == dom[v]) want = d;
            TK_CHECK_EQ_U64(idom[v], want);
        }
        free(e);
        free(start);
        free(adj);
        free(idom);
    }
    /* 0 -> 1 -> ... -> n-2, each also -> n-1 (the join): every idom is the chain predecessor,
     * the join's is 0 */
    enum { N = 20000 };
    uint32_t *start = calloc(N + 1, sizeof *start), *adj = malloc(sizeof *adj * 2 * N),
             *idom = malloc(sizeof *idom * N);
    TK_CHECK(start && adj && idom);
    if (!start || !adj || !idom) return;
    uint32_t m = 0;
    for (uint32_t v = 0; v < N; v++) {
        start[v] = m;
        if (v + 2 < N) adj[m++] = v + 1;
        if (v + 1 < N) adj[m++] = N - 1;
    }
    start[N] = m;
    TK_CHECK(tk_dominators(N, start, adj, 0, idom) == TK_OK);
    int bad = 0;
    for (uint32_t v = 1; v + 1 < N; v++) bad += idom[v] != v - 1;
    TK_CHECK_EQ_I64(bad, 0);
    TK_CHECK_EQ_U64(idom[N - 1], 0);
    free(start);
    free(adj);
    free(idom);
}

/* ---- reader ----------------------------------------------------------------- */

static tk_status read_text(const char *text, tk_cfg **cfg, tk_error *err)
{
    tk_input *in;
    tk_error_clear(err);
    tk_status st = tk_input_open_memory(&in, text, strlen(text), "mem.json", NULL, err);
    if (st != TK_OK) return st;
    st = tk_dcfg_read(cfg, in, NULL, err);
    tk_input_free(in);
    return st;
}

/* Shuffled columns, hex strings, short rows, unknown keys and columns, no
 * ROUTINES (computed), two images at the same address. */
static const char *const hard_dcfg =
    "{ \"X_NEW\" : { \"a\" : [ 1, { \"b\" : null } ] },\n"
    "  \"PROCESSES\" : [ [ \"PROCESS_DATA\", \"PROCESS_ID\" ],\n"
    "    [ { \"EDGES\" : [ [ \"COUNT_PER_THREAD\", \"EDGE_TYPE_ID\", \"TARGET_NODE_ID\", "
    "\"SOURCE_NODE_ID\", \"EDGE_ID\" ],\n"
    "          [ [ 1, \"0x2\" ], 11, 10, 1, 1 ],\n"
    "          [ [ 1, 2 ], 13, 11, 10, 2 ],\n"
    "          [ [ 4, 6 ], 13, 11, 11, 3 ],\n"
    "          [ [ 1, 2 ], 13, 12, 11, 4 ],\n"
    "          [ [ 1, 2 ], 12, 2, 12, 5 ] ],\n"
    "        \"IMAGES\" : [ [ \"IMAGE_DATA\", \"SIZE\", \"IMAGE_ID\", \"LOAD_ADDR\", \"X_COL\" ],\n"
    "          [ { \"BASIC_BLOCKS\" : [ [ \"COUNT\", \"NODE_ID\", \"ADDR_OFFSET\", \"NUM_INSTRS\", "
    "\"SIZE\" ],\n"
    "              [ \"0X3\", 10, \"0x10\", 2, 8 ], [ 13, 11, 24, 1, 4 ], [ 3, 12, \"0x1c\", 3 ] ] "
    "},\n"
    "            \"0x100\", 0, \"0x400000\", \"ignored\" ],\n"
    "          [ { \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"NUM_INSTRS\" ], [ 20, "
    "16, 1 ] ] }, 256, 7, 4194304 ] ] },\n"
    "      29003 ] ],\n"
    "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE\", \"EDGE_TYPE_ID\" ], [ \"ENTRY\", 11 ], [ \"EXIT\", 12 "
    "], [ \"FALL_THROUGH\", 13 ] ],\n"
    "  \"SPECIAL_NODES\" : [ [ \"NODE_NAME\", \"NODE_ID\" ], [ \"START\", 1 ], [ \"END\", 2 ] ],\n"
    "  \"MINOR_VERSION\" : 0, \"MAJOR_VERSION\" : \"0x1\" }\n";

static void test_read_hard(void)
{
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(read_text(hard_dcfg, &cfg, &err) == TK_OK);
    if (!cfg) {
        fprintf(stderr, "  %s\n", err.message);
        return;
    }
    TK_CHECK_EQ_U64(cfg->major_version, 1);
    TK_CHECK_EQ_U64(cfg->nprocesses, 1);
    const tk_cfg_process *p = &cfg->processes[0];
    TK_CHECK_EQ_U64(p->pid, 29003);
    TK_CHECK_EQ_U64(p->nthreads, 2);
    TK_CHECK_EQ_U64(p->nimages, 2);
    TK_CHECK_EQ_U64(p->images[0].id, 0); /* IMAGE_ID 0 is allowed */
    TK_CHECK_EQ_U64(p->images[0].load_addr, 0x400000);
    uint32_t b11 = tk_cfg_find_block(p, 11);
    TK_CHECK(b11 != TK_CFG_NONE);
    if (b11 == TK_CFG_NONE) goto out;
    TK_CHECK_EQ_U64(p->blocks[b11].count, 13);
    TK_CHECK_EQ_U64(p->blocks[b11].addr_offset, 24);
    TK_CHECK_EQ_U64(tk_cfg_block_count_thread(p, b11, 0), 5);
    TK_CHECK_EQ_U64(tk_cfg_block_count_thread(p, b11, 1), 8);
    /* short row: block 12 has no SIZE cell */
    uint32_t b12 = tk_cfg_find_block(p, 12);
    TK_CHECK_EQ_U64(cfg_block_size(p, b12), 0);
    TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}),
                    3 * 2 + 13 * 1 + 3 * 3);
    TK_CHECK_EQ_U64(tk_cfg_scope_instr_count_thread(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, 1),
                    2 * 2 + 8 + 2 * 3);
    /* block 20 has no COUNT: derived from in-edges (none) */
    TK_CHECK_EQ_U64(p->blocks[tk_cfg_find_block(p, 20)].count, 0);
    /* computed routines: 10 (ENTRY target) holds 10, 11, 12; 20 is alone */
    TK_CHECK(p->routines_computed);
    TK_CHECK_EQ_U64(p->nroutines, 2);
    TK_CHECK_EQ_U64(p->blocks[b11].routine, p->blocks[tk_cfg_find_block(p, 10)].routine);
    TK_CHECK_EQ_U64(p->blocks[b11].idom, tk_cfg_find_block(p, 10));
    /* loop: self loop on 11 */
    uint32_t l = tk_cfg_find_loop(p, b11);
    TK_CHECK(l != TK_CFG_NONE);
    if (l != TK_CFG_NONE) {
        TK_CHECK_EQ_U64(tk_cfg_loop_iteration_count(p, l), 13);
        TK_CHECK_EQ_U64(tk_cfg_loop_entry_count(cfg, p, l), 3);
        TK_CHECK_EQ_U64(p->blocks[b11].loop, l);
        TK_CHECK(tk_cfg_loop_is_back_edge(p, l, tk_cfg_find_edge(p, 3)));
    }
    /* overlapping images: address 0x400010 is in block 10 and block 20 */
    uint32_t hits[4];
    TK_CHECK_EQ_U64(tk_cfg_blocks_at(p, 0x400010, hits, 4), 2);
    TK_CHECK_EQ_U64(tk_cfg_blocks_at(p, 0x400019, hits, 4), 1);
    TK_CHECK_EQ_U64(p->blocks[hits[0]].id, 11);
    /* edges: internal edges of the process exclude ENTRY/EXIT */
    uint32_t *ids = NULL;
    size_t n = 0, cap = 0;
    TK_CHECK(tk_cfg_scope_edges(cfg, p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, TK_EDGES_INTERNAL,
                                &ids, &n, &cap, NULL) == TK_OK);
    TK_CHECK_EQ_U64(n, 3);
    n = 0;
    TK_CHECK(tk_cfg_scope_edges(cfg, p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, TK_EDGES_INBOUND, &ids,
                                &n, &cap, NULL) == TK_OK);
    TK_CHECK_EQ_U64(n, 1);
    if (n == 1) TK_CHECK(tk_cfg_stored_edge_kind(cfg, &p->edges[ids[0]]) == TK_EDGE_ENTRY);
    tk_free(ids);
    TK_CHECK_EQ_U64(tk_cfg_find_edge_between(p, tk_cfg_find_block(p, 10), b11),
                    tk_cfg_find_edge(p, 2));
    /* lookups of images, routines, special nodes; dominators and loop visits per thread */
    TK_CHECK_EQ_U64(tk_cfg_find_image(p, 0), 0);
    TK_CHECK_EQ_U64(tk_cfg_find_image(p, 7), 1);
    TK_CHECK_EQ_U64(tk_cfg_find_image(p, 3), TK_CFG_NONE);
    uint32_t b10 = tk_cfg_find_block(p, 10), b20 = tk_cfg_find_block(p, 20);
    uint32_t r10 = tk_cfg_find_routine(p, b10);
    TK_CHECK(r10 != TK_CFG_NONE && r10 == p->blocks[b10].routine);
    TK_CHECK_EQ_U64(tk_cfg_find_routine(p, b11), TK_CFG_NONE); /* not an entry */
    TK_CHECK_EQ_U64(tk_cfg_find_routine(p, b20), p->blocks[b20].routine);
    if (r10 != TK_CFG_NONE) {
        TK_CHECK_EQ_U64(tk_cfg_routine_idom(p, r10, b10), b10); /* the entry's is itself */
        TK_CHECK_EQ_U64(tk_cfg_routine_idom(p, r10, b11), b10);
        TK_CHECK_EQ_U64(tk_cfg_routine_idom(p, r10, b12), b11);
        TK_CHECK_EQ_U64(tk_cfg_routine_idom(p, r10, b20), TK_CFG_NONE); /* another routine */
        TK_CHECK_EQ_U64(tk_cfg_scope_block_count(p, (tk_cfg_scope){TK_SCOPE_ROUTINE, r10}), 3);
    }
    TK_CHECK_EQ_U64(tk_cfg_scope_block_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}), 4);
    TK_CHECK_EQ_U64(tk_cfg_scope_block_count(p, (tk_cfg_scope){TK_SCOPE_IMAGE, 1}), 1);
    uint32_t start = tk_cfg_special_node(cfg, p, TK_SPECIAL_START);
    uint32_t end = tk_cfg_special_node(cfg, p, TK_SPECIAL_END);
    TK_CHECK(start != TK_CFG_NONE && end != TK_CFG_NONE && start != end);
    TK_CHECK(!cfg_is_block(p, start));
    TK_CHECK_EQ_U64(tk_cfg_node_id(cfg, p, start), 1);
    TK_CHECK_EQ_U64(tk_cfg_node_id(cfg, p, end), 2);
    TK_CHECK_EQ_U64(p->edges[tk_cfg_find_edge(p, 1)].src, start);
    TK_CHECK_EQ_U64(tk_cfg_special_node(cfg, p, TK_SPECIAL_UNKNOWN), TK_CFG_NONE); /* not listed */
    if (l != TK_CFG_NONE) {
        /* the one entry edge 10 -> 11 ran [1, 2] times */
        TK_CHECK_EQ_U64(tk_cfg_loop_entry_count_thread(cfg, p, l, 0), 1);
        TK_CHECK_EQ_U64(tk_cfg_loop_entry_count_thread(cfg, p, l, 1), 2);
    }
out:
    tk_cfg_free(cfg);
}

static void test_read_errors_located(void)
{
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(read_text("{ \"MAJOR_VERSION\" : 1,\n  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", "
                       "\"FILE_NAME\" ], [ \"x\", \"y\" ] ] }",
                       &cfg, &err) == TK_ERR_FORMAT);
    TK_CHECK_EQ_U64(err.line, 2);
    TK_CHECK_EQ_U64(err.column, 55);
    TK_CHECK(strstr(err.message, "FILE_NAME_ID") != NULL);
    TK_CHECK(cfg == NULL);
    TK_CHECK(read_text("{ \"PROCESSES\" : [ [ \"PROCESS_ID\" ], [ -1 ] ] }", &cfg, &err) ==
             TK_ERR_FORMAT);
    TK_CHECK(
        read_text("{ \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\", \"EDGE_TYPE\" ] ] }",
                  &cfg, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "duplicate column") != NULL);
}

/* Per-thread counts are kept in 32 bits until one does not fit: then the
 * whole pool moves to 64 bits (fast row path and token path alike). */
static void test_wide_counts(void)
{
    static const char *const head =
        "{ \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"FALL_THROUGH\" ] ],\n"
        "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 1, {\n"
        "    \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ], [ 1, 0, 64, "
        "{\n"
        "      \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"NUM_INSTRS\" ], [ 5, 0, 1 ], "
        "[ 6, 4, 1 ], [ 7, 8, 1 ] ] } ] ],\n"
        "    \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", "
        "\"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],\n"
        "      [ 1, 5, 6, 1, [ 4294967295, 3 ] ],\n"
        "      [ 2, 6, 7, 1, [ 2, ";
    static const char *const tail = " ] ],\n"
                                    "      [ 3, 7, 5, 1, [ \"0x7\", 1 ] ] ] } ] ] }\n";
    /* the big count as a JSON integer (fast path) and as a hex string (token path) */
    const char *const big[] = {"8589934592", "\"0x200000000\""};
    for (int k = 0; k < 2; k++) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s%s%s", head, big[k], tail);
        tk_cfg *cfg = NULL;
        tk_error err;
        TK_CHECK(read_text(buf, &cfg, &err) == TK_OK);
        if (!cfg) {
            fprintf(stderr, "  %s\n", err.message);
            continue;
        }
        const tk_cfg_process *p = &cfg->processes[0];
        TK_CHECK(p->counts32 == NULL && p->counts64 != NULL);
        TK_CHECK_EQ_U64(cfg_edge_count_thread(p, &p->edges[tk_cfg_find_edge(p, 1)], 0),
                        4294967295u);
        TK_CHECK_EQ_U64(cfg_edge_count(p, &p->edges[tk_cfg_find_edge(p, 1)]), 4294967298u);
        TK_CHECK_EQ_U64(cfg_edge_count_thread(p, &p->edges[tk_cfg_find_edge(p, 2)], 1),
                        8589934592u);
        TK_CHECK_EQ_U64(cfg_edge_count(p, &p->edges[tk_cfg_find_edge(p, 3)]), 8);
        TK_CHECK_EQ_U64(cfg_edge_count_thread(p, &p->edges[tk_cfg_find_edge(p, 3)], 2), 0);
        TK_CHECK_EQ_U64(p->blocks[tk_cfg_find_block(p, 7)].count, 8589934594u);
        tk_cfg_free(cfg);
    }
    /* COUNT_PER_THREAD of different lengths (and none): positions kept per edge */
    {
        static const char *const uneven =
            "{ \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"FALL_THROUGH\" ] ],\n"
            "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 1, {\n"
            "    \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ], [ 1, 0, "
            "64, {\n"
            "      \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"NUM_INSTRS\" ], [ 5, 0, "
            "1 ], [ 6, 4, 2 ], [ 7, 8, 3 ] ] } ] ],\n"
            "    \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", "
            "\"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],\n"
            "      [ 1, 5, 6, 1, [ 4, 3 ] ], [ 2, 6, 7, 1, [ 2, 5 ] ], [ 3, 7, 5, 1, [ 9 ] ],\n"
            "      [ 4, 5, 7, 1, [ 1, 2, \"0x3\" ] ], [ 5, 6, 5, 1 ], [ 6, 7, 6, 1, [ 8, 0 ] ] ] } "
            "] ] }\n";
        tk_cfg *u = NULL;
        tk_error uerr;
        TK_CHECK(read_text(uneven, &u, &uerr) == TK_OK);
        if (u) {
            const tk_cfg_process *p = &u->processes[0];
            static const uint32_t n[] = {2, 2, 1, 3, 0, 2};
            static const uint64_t c[][3] = {{4, 3, 0}, {2, 5, 0}, {9, 0, 0},
                                            {1, 2, 3}, {0, 0, 0}, {8, 0, 0}};
            TK_CHECK(p->edge_counts != NULL);
            TK_CHECK_EQ_U64(p->nthreads, 3);
            for (uint32_t id = 1; id <= 6; id++) {
                uint32_t e = tk_cfg_find_edge(p, id);
                TK_CHECK(e != TK_CFG_NONE);
                if (e == TK_CFG_NONE) continue;
                TK_CHECK_EQ_U64(cfg_edge_nthreads(p, e), n[id - 1]);
                for (uint32_t t = 0; t < 4; t++)
                    TK_CHECK_EQ_U64(cfg_edge_count_thread(p, &p->edges[e], t),
                                    t < 3 ? c[id - 1][t] : 0);
                TK_CHECK_EQ_U64(cfg_edge_count(p, &p->edges[e]),
                                c[id - 1][0] + c[id - 1][1] + c[id - 1][2]);
            }
            tk_cfg_free(u);
        }
    }
    /* all small: 32-bit pool */
    tk_cfg *cfg = NULL;
    tk_error err;
    char buf[2048];
    snprintf(buf, sizeof buf, "%s4%s", head, tail);
    TK_CHECK(read_text(buf, &cfg, &err) == TK_OK);
    if (cfg) {
        const tk_cfg_process *p = &cfg->processes[0];
        TK_CHECK(p->counts32 != NULL && p->counts64 == NULL);
        TK_CHECK(p->edge_counts == NULL && p->edge_stride == 2); /* every edge has 2 counts */
        TK_CHECK_EQ_U64(cfg_edge_count(p, &p->edges[tk_cfg_find_edge(p, 2)]), 6);
        tk_cfg_free(cfg);
    }
}

/* tk_cfg_sort_by_addr against a plain stable sort: runs that do not overlap
 * (the usual file order), overlapping runs, ties across runs, shuffles, and
 * addresses above 32 bits; records of 16 bytes with the address at 8. */
typedef struct addr_rec {
    uint64_t other, addr;
} addr_rec;

static const addr_rec *sort_ref_base;
static int cmp_ref(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t ax = sort_ref_base[x].addr, ay = sort_ref_base[y].addr;
    if (ax != ay) return ax < ay ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void test_sort_by_addr(void)
{
    enum { N = 3000 };
    static addr_rec rec[N];
    static uint32_t ord[N], ref[N];
    uint64_t seed = 12345;
    for (int round = 0; round < 40; round++) {
        uint32_t n = 1 + (uint32_t)(round * 977 % N);
        int kind = round % 5;
        uint64_t a = 0;
        for (uint32_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t rnd = (uint32_t)(seed >> 33);
            if (kind == 0) { /* runs of 20 ascending, runs placed anywhere (no overlap) */
                if (i % 20 == 0) a = (uint64_t)(rnd % 1000) * 1000;
                a += rnd % 3; /* ties inside a run */
            } else if (kind == 1) { /* overlapping runs */
                if (i % 20 == 0) a = rnd % 5000;
                a += rnd % 50;
            } else if (kind == 2) { /* shuffled, many ties */
                a = rnd % 64;
            } else if (kind == 3) { /* above 32 bits */
                a = ((uint64_t)(rnd % 7) << 33) | (rnd % 100);
            } else { /* runs whose ends touch: equal addresses across runs */
                if (i % 10 == 0)
                    a = (uint64_t)(rnd % 8) * 9;
                else
                    a += 1;
            }
            rec[i].addr = a;
            rec[i].other = i;
        }
        for (int pairs = 0; pairs < 2; pairs++) {
            for (uint32_t i = 0; i < n; i++) ord[i] = ref[i] = i;
            sort_ref_base = rec;
            qsort(ref, n, sizeof *ref, cmp_ref);
            TK_CHECK(
                tk_cfg_sort_by_addr(ord, n, rec, sizeof *rec, offsetof(addr_rec, addr), pairs));
            TK_CHECK(memcmp(ord, ref, sizeof *ord * n) == 0);
        }
    }
}

static void test_edge_kinds(void)
{
    TK_CHECK(tk_edge_kind_from_name("DIRECT_CALL", 11) == TK_EDGE_DIRECT_CALL);
    TK_CHECK(tk_edge_kind_from_name("INTERRUPT", 9) == TK_EDGE_OTHER);
    TK_CHECK_STR(tk_edge_kind_name(TK_EDGE_EXCLUDED_CODE_BYPASS), "EXCLUDED_CODE_BYPASS");
    TK_CHECK(tk_edge_kind_is_any_call(TK_EDGE_INDIRECT_CALL));
    TK_CHECK(!tk_edge_kind_is_any_call(TK_EDGE_CALL_BYPASS));
    TK_CHECK(tk_edge_kind_is_any_bypass(TK_EDGE_CALL_BYPASS));
    TK_CHECK(tk_edge_kind_is_any_return(TK_EDGE_SYSTEM_RETURN));
    TK_CHECK(tk_edge_kind_is_any_branch(TK_EDGE_INDIRECT_CONDITIONAL_BRANCH));
    TK_CHECK(!tk_edge_kind_is_any_branch(TK_EDGE_FALL_THROUGH));
    TK_CHECK(tk_edge_kind_is_any_inter_routine(TK_EDGE_ENTRY));
    TK_CHECK(!tk_edge_kind_is_any_inter_routine(TK_EDGE_REP));
}

/* Symbols of a block: the one starting last at or before it, the first in
 * file order among aliases at one address; rows in any order. Source lines:
 * the line starting last at or before the block when its SIZE covers it (block
 * 12 is past line 20's end: no line, though line 10's range holds it). */
static void test_block_symbol_and_source(void)
{
    static const char text[] =
        "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
        "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"a.out\" ], [ 2, \"a.c\" "
        "] ],\n"
        "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"FALL_THROUGH\" ] ],\n"
        "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ] ],\n"
        "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 1, {\n"
        "    \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ], [ 1, "
        "\"0x1000\", 256, {\n"
        "      \"FILE_NAME_ID\" : 1,\n"
        "      \"SYMBOLS\" : [ [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ], [ \"late\", 64, 8 ],\n"
        "                   [ \"first_alias\", 16, 8 ], [ \"second_alias\", 16, 8 ], [ \"start\", "
        "0, 8 ] ],\n"
        "      \"SOURCE_DATA\" : [ [ \"FILE_NAME_ID\", \"LINE_NUM\", \"ADDR_OFFSET\", \"SIZE\", "
        "\"NUM_INSTRS\" ],\n"
        "                       [ 2, 30, 64, 4, 1 ], [ 2, 10, 0, 32, 4 ], [ 2, 20, 16, 8, 2 ] ],\n"
        "      \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\" ],\n"
        "                        [ 10, 0, 4, 1 ], [ 11, 20, 4, 1 ], [ 12, 28, 4, 1 ], [ 13, 70, 4, "
        "1 ] ] } ] ],\n"
        "    \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\" "
        "] ] } ] ] }\n";
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(read_text(text, &cfg, &err) == TK_OK);
    if (!cfg) {
        fprintf(stderr, "  %s\n", err.message);
        return;
    }
    const tk_cfg_process *p = &cfg->processes[0];
    static const struct {
        uint32_t id;
        const char *sym;
        uint64_t off;
        uint32_t line;
    } want[] = {{10, "start", 0, 10},
                {11, "first_alias", 4, 20},
                {12, "first_alias", 12, 0},
                {13, "late", 6, 0}};
    uint32_t blocks[4], lines[4];
    const char *files[4];
    for (int i = 0; i < 4; i++) {
        uint32_t b = blocks[i] = tk_cfg_find_block(p, want[i].id);
        uint64_t off = 99;
        TK_CHECK_STR(tk_cfg_block_symbol(cfg, p, b, &off), want[i].sym);
        TK_CHECK_EQ_U64(off, want[i].off);
        const char *file = NULL;
        TK_CHECK_EQ_U64(tk_cfg_block_source(cfg, p, b, &file), want[i].line);
        if (want[i].line) TK_CHECK_STR(file, "a.c");
    }
    TK_CHECK(tk_cfg_blocks_source(cfg, p, blocks, 4, lines, files, NULL) == TK_OK);
    for (int i = 0; i < 4; i++) TK_CHECK_EQ_U64(lines[i], want[i].line);
    tk_cfg_free(cfg);
}

/* The caches built on first use (adjacency, edge-id map, blocks by address)
 * may be asked for by several threads at once: all see the same answers. */
typedef struct cache_user {
    const tk_cfg_process *p;
    uint32_t out_total, edge3, at;
} cache_user;

static void *use_caches(void *arg)
{
    cache_user *u = arg;
    for (uint32_t n = 0; n < u->p->nnodes; n++) {
        uint32_t k;
        (void)cfg_out_edges(u->p, n, &k);
        u->out_total += k;
    }
    u->edge3 = tk_cfg_find_edge(u->p, 3);
    uint32_t hits[4];
    u->at = (uint32_t)tk_cfg_blocks_at(u->p, 0x400010, hits, 4);
    return NULL;
}

static void test_caches_from_threads(void)
{
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(read_text(hard_dcfg, &cfg, &err) == TK_OK);
    if (!cfg) return;
    enum { N = 4 };
    pthread_t th[N];
    cache_user u[N];
    for (int i = 0; i < N; i++) {
        u[i] = (cache_user){&cfg->processes[0], 0, 0, 0};
        TK_CHECK(pthread_create(&th[i], NULL, use_caches, &u[i]) == 0);
    }
    for (int i = 0; i < N; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) {
        TK_CHECK_EQ_U64(u[i].out_total, 5);
        TK_CHECK_EQ_U64(cfg->processes[0].edges[u[i].edge3].id, 3);
        TK_CHECK_EQ_U64(u[i].at, 2);
    }
    tk_cfg_free(cfg);
}


/* Nested loops computed from the edges (no ROUTINES): A (head 11) holds B
 * (head 12, which holds D, the self loop on 13) and C (the self loop on 14);
 * E (the self loop on 16) is apart.  cfg_loop_encloses and the loop
 * scopes follow the nesting. */
static const char *const nested_loops_dcfg =
    "{\"MAJOR_VERSION\": 1, \"MINOR_VERSION\": 0,\n"
    " \"EDGE_TYPES\": [[\"EDGE_TYPE_ID\", \"EDGE_TYPE\"], [1, \"ENTRY\"], [2, \"EXIT\"], [3, "
    "\"FALL_THROUGH\"]],\n"
    " \"SPECIAL_NODES\": [[\"NODE_ID\", \"NODE_NAME\"], [1, \"START\"], [2, \"END\"]],\n"
    " \"PROCESSES\": [[\"PROCESS_ID\", \"PROCESS_DATA\"], [1, {\n"
    "  \"IMAGES\": [[\"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\"], [1, 4096, 64, {\n"
    "    \"BASIC_BLOCKS\": [[\"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", \"NUM_INSTRS\"],\n"
    "      [10, 0, 4, 1], [11, 4, 4, 1], [12, 8, 4, 1], [13, 12, 4, 1], [14, 16, 4, 1],\n"
    "      [15, 20, 4, 1], [16, 24, 4, 1], [17, 28, 4, 1]]}]],\n"
    "  \"EDGES\": [[\"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", \"EDGE_TYPE_ID\", "
    "\"COUNT_PER_THREAD\"],\n"
    "    [1, 1, 10, 1, [1]], [2, 10, 11, 3, [1]], [3, 11, 12, 3, [2]], [4, 12, 13, 3, [3]],\n"
    "    [5, 13, 13, 3, [4]], [6, 13, 12, 3, [1]], [7, 12, 14, 3, [2]], [8, 14, 14, 3, [5]],\n"
    "    [9, 14, 11, 3, [1]], [10, 11, 15, 3, [1]], [11, 15, 16, 3, [1]], [12, 16, 16, 3, [6]],\n"
    "    [13, 16, 17, 3, [1]], [14, 17, 2, 2, [1]]]}]]}\n";

static void test_loop_nesting_queries(void)
{
    tk_cfg *cfg;
    tk_error err;
    TK_CHECK(read_text(nested_loops_dcfg, &cfg, &err) == TK_OK);
    if (!cfg) return;
    const tk_cfg_process *p = &cfg->processes[0];
    TK_CHECK_EQ_U64(p->nloops, 5);
    uint32_t a = tk_cfg_find_loop(p, tk_cfg_find_block(p, 11)),
             b = tk_cfg_find_loop(p, tk_cfg_find_block(p, 12));
    uint32_t d = tk_cfg_find_loop(p, tk_cfg_find_block(p, 13)),
             c = tk_cfg_find_loop(p, tk_cfg_find_block(p, 14));
    uint32_t e = tk_cfg_find_loop(p, tk_cfg_find_block(p, 16));
    TK_CHECK(a != TK_CFG_NONE && b != TK_CFG_NONE && c != TK_CFG_NONE && d != TK_CFG_NONE &&
             e != TK_CFG_NONE);
    if (a == TK_CFG_NONE || b == TK_CFG_NONE || c == TK_CFG_NONE || d == TK_CFG_NONE ||
        e == TK_CFG_NONE) {
        tk_cfg_free(cfg);
        return;
    }
    TK_CHECK_EQ_U64(p->loops[d].depth, 2);
    const uint32_t all[5] = {a, b, c, d, e};
    /* encloses[i][j]: all[i] encloses all[j] */
    static const int encloses[5][5] = {
        {1, 1, 1, 1, 0}, /* A: itself, B, C, D */
        {0, 1, 0, 1, 0}, /* B: itself, D */
        {0, 0, 1, 0, 0}, /* C */
        {0, 0, 0, 1, 0}, /* D */
        {0, 0, 0, 0, 1}, /* E */
    };
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            TK_CHECK_EQ_U64(cfg_loop_encloses(p, all[i], all[j]), encloses[i][j]);
    TK_CHECK(!cfg_loop_encloses(p, a, p->nloops));
    /* blocks 10..17 in each loop's scope */
    static const char *const in_scope[5] = {"01111000", "00110000", "00001000", "00010000",
                                            "00000010"};
    for (int i = 0; i < 5; i++)
        for (uint32_t id = 10; id <= 17; id++)
            TK_CHECK_EQ_U64(tk_cfg_scope_contains(p, (tk_cfg_scope){TK_SCOPE_LOOP, all[i]},
                                                  tk_cfg_find_block(p, id)),
                            in_scope[i][id - 10] == '1');
    /* visits: B is entered once per iteration of A (11 -> 12), D once per visit of B (12 -> 13) */
    TK_CHECK_EQ_U64(tk_cfg_loop_entry_count(cfg, p, b), 2);
    TK_CHECK_EQ_U64(tk_cfg_loop_entry_count(cfg, p, d), 3);
    TK_CHECK_EQ_U64(tk_cfg_loop_entry_count(cfg, p, a), 1);
    tk_cfg_free(cfg);
}

/* ---- sums never wrap ------------------------------------------------------------ */

typedef struct msgs {
    char text[4096];
    size_t n;
    int errors;
} msgs;

static void keep_msg(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    msgs *m = ctx;
    if (sev != TK_SEV_ERROR) return;
    m->errors++;
    m->n += (size_t)snprintf(m->text + m->n, sizeof m->text - m->n, "%llu:%llu %s\n",
                             (unsigned long long)loc->line, (unsigned long long)loc->column, msg);
    if (m->n >= sizeof m->text) m->n = sizeof m->text - 1;
}

/* 5 -> 6 -> 6 (self loop) -> 7; the block rows, the counts of edges 10..14
 * (START->5, 5->6, 6->6, 6->7, 7->END), LOOP_NODE_IDS and INSTR_COUNT_PER_THREAD. */
static void sums_doc(char *buf, size_t size, const char *const b[3], const char *const e[5],
                     const char *loop_nodes, const char *per_thread)
{
    snprintf(buf, size,
             "{ \"MAJOR_VERSION\" : 1, \"MINOR_VERSION\" : 0,\n"
             "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ], [ 1, \"ENTRY\" ],"
             " [ 2, \"EXIT\" ], [ 3, \"FALL_THROUGH\" ] ],\n"
             "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ],"
             " [ 2, \"END\" ] ],\n"
             "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ], [ 9, {\n"
             "    \"INSTR_COUNT_PER_THREAD\" : %s,\n"
             "    \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],"
             " [ 1, 0, 64, {\n"
             "      \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"NUM_INSTRS\","
             " \"COUNT\" ],\n"
             "        [ 5, 0, %s ],\n        [ 6, 8, %s ],\n        [ 7, 16, %s ] ],\n"
             "      \"ROUTINES\" : [ [ \"ENTRY_NODE_ID\", \"EXIT_NODE_IDS\", \"NODES\","
             " \"LOOPS\" ],\n"
             "        [ 5, [ 7 ], [ [ \"NODE_ID\" ], [ 5 ], [ 6 ], [ 7 ] ],\n"
             "          [ [ \"LOOP_HEAD_NODE_ID\", \"LOOP_BACK_EDGE_SOURCE_NODE_IDS\","
             " \"LOOP_NODE_IDS\" ], [ 6, [ 6 ], %s ] ] ] ] } ] ],\n"
             "    \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\","
             " \"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ],\n"
             "      [ 10, 1, 5, 1, %s ], [ 11, 5, 6, 3, %s ], [ 12, 6, 6, 3, %s ],\n"
             "      [ 13, 6, 7, 3, %s ], [ 14, 7, 2, 2, %s ] ] } ] ] }\n",
             per_thread, b[0], b[1], b[2], loop_nodes, e[0], e[1], e[2], e[3], e[4]);
}

/* Sums of counts that overflow 64 bits: the strict read refuses, check locates. */
#define P63 "9223372036854775808"
#define P62 "4611686018427387904"
static const struct sums_case {
    const char *b[3], *e[5], *loop, *per_thread;
    int strict_fails; /* the strict read (report, convert, dump) refuses */
    const char *needle; /* in the error of both modes (NULL: no error) */
    const char *line_col; /* where check reports it */
} sums_cases[] = {
    /* fits */
    {{"1, 1", "1, 3", "1, 1"},
     {"[1]", "[1]", "[2]", "[1]", "[1]"},
     "[ 6 ]",
     "[ 6 ]",
     0,
     NULL,
     NULL},
    /* a block's in-edges (6: 5->6 and 6->6) */
    {{"1, 1", "1", "1"},
     {"[1]", "[" P63 "]", "[" P63 "]", "[1]", "[1]"},
     "[ 6 ]",
     "[ 1 ]",
     1,
     "block 6: the sum of its in-edge counts overflows 64 bits",
     "9:9"},
    /* its out-edges (6->6 and 6->7) */
    {{"1, 1", "1", "1"},
     {"[1]", "[1]", "[" P63 "]", "[" P63 "]", "[1]"},
     "[ 6 ]",
     "[ 1 ]",
     1,
     "block 6: the sum of its out-edge counts overflows 64 bits",
     "9:9"},
    /* COUNT x NUM_INSTRS of a block */
    {{"8, " P62, "1", "1"},
     {"[1]", "[1]", "[1]", "[1]", "[1]"},
     "[ 6 ]",
     "[ 1 ]",
     1,
     "block 5: COUNT x NUM_INSTRS (4611686018427387904 x 8) overflows 64 bits",
     "8:9"},
    /* the process's block executions and instructions */
    {{"1, " P63, "1, " P63, "1"},
     {"[1]", "[1]", "[1]", "[1]", "[1]"},
     "[ 6 ]",
     "[ 1 ]",
     1,
     "process 9: the sum of its blocks' execution counts overflows 64 bits",
     "4:53"},
    /* a thread's instructions: 6 runs 2^62 + 1 times x 8, its COUNT cell says 1 */
    {{"1, 1", "8, 1", "1"},
     {"[1]", "[1]", "[" P62 "]", "[1]", "[1]"},
     "[ 6 ]",
     "[ 1 ]",
     1,
     "process 9: the instruction count of thread 0",
     "4:53"},
    /* a loop listing a node twice (its sums would count it twice) */
    {{"1, 1", "1, 3", "1, 1"},
     {"[1]", "[1]", "[2]", "[1]", "[1]"},
     "[ 6, 6 ]",
     "[ 6 ]",
     1,
     "node 6 is listed twice in loop 6",
     "13:89"},
    /* INSTR_COUNT_PER_THREAD: only check sums it (against INSTR_COUNT) */
    {{"1, 1", "1, 3", "1, 1"},
     {"[1]", "[1]", "[2]", "[1]", "[1]"},
     "[ 6 ]",
     "[ " P63 ", " P63 " ]",
     0,
     "process 9: the sum of INSTR_COUNT_PER_THREAD overflows 64 bits",
     "4:53"},
};

static void test_sums_never_wrap(void)
{
    for (size_t i = 0; i < sizeof sums_cases / sizeof sums_cases[0]; i++) {
        char doc[4096];
        sums_doc(doc, sizeof doc, sums_cases[i].b, sums_cases[i].e, sums_cases[i].loop,
                 sums_cases[i].per_thread);
        tk_cfg *cfg = NULL;
        tk_error err;
        tk_status st = read_text(doc, &cfg, &err);
        if (!TK_CHECK((st != TK_OK) == sums_cases[i].strict_fails) ||
            (sums_cases[i].strict_fails &&
             !TK_CHECK(strstr(err.message, sums_cases[i].needle) != NULL)))
            fprintf(stderr, "    case %zu: strict: %s\n", i, st == TK_OK ? "ok" : err.message);
        tk_cfg_free(cfg);
        /* check mode: the same error, located, among the checker's */
        msgs m;
        memset(&m, 0, sizeof m);
        tk_diag diag;
        tk_diag_init(&diag, keep_msg, &m);
        tk_input *in;
        TK_CHECK(tk_input_open_memory(&in, doc, strlen(doc), "mem.json", NULL, &err) == TK_OK);
        tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
        o.diag = &diag;
        cfg = NULL;
        if (tk_dcfg_read(&cfg, in, &o, &err) == TK_OK)
            (void)tk_dcfg_check(cfg, "mem.json", &diag, NULL);
        tk_input_free(in);
        tk_cfg_free(cfg);
        if (!sums_cases[i].needle) {
            if (!TK_CHECK(m.errors == 0)) fprintf(stderr, "    case %zu: check:\n%s", i, m.text);
            continue;
        }
        char want[512];
        snprintf(want, sizeof want, "%s %s", sums_cases[i].line_col, sums_cases[i].needle);
        if (!TK_CHECK(strstr(m.text, want) != NULL))
            fprintf(stderr, "    case %zu: check wants \"%s\":\n%s", i, want, m.text);
    }
}

/* a bound that does not fit while every sum does: the exact sums find nothing */
static void test_sums_bound_fits(void)
{
    const char *b[3] = {"8, 1", "1", "1"}, *e[5] = {"[1]", "[1]", "[" P62 "]", "[1]", "[1]"};
    char doc[4096];
    sums_doc(doc, sizeof doc, b, e, "[ 6 ]", "[ 1 ]");
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(read_text(doc, &cfg, &err) == TK_OK);
    if (cfg) {
        const tk_cfg_process *p = &cfg->processes[0];
        uint64_t t0 = 0;
        tk_cfg_scope_instr_count_threads(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}, &t0, 1);
        /* 5: 1 x 8, 6: (2^62 + 1) x 1, 7: 1 x 1 */
        TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}),
                        4611686018427387904ull + 10);
        TK_CHECK_EQ_U64(t0, 4611686018427387904ull + 10);
        tk_cfg_free(cfg);
    }
}
#undef P63
#undef P62

TK_TEST_MAIN(TK_CASE(test_dominators_diamond_loop), TK_CASE(test_loops_nesting),
             TK_CASE(test_dominators_deep_chain), TK_CASE(test_dominators_random_against_sets),
             TK_CASE(test_read_hard), TK_CASE(test_read_errors_located), TK_CASE(test_wide_counts),
             TK_CASE(test_sort_by_addr), TK_CASE(test_edge_kinds),
             TK_CASE(test_caches_from_threads), TK_CASE(test_block_symbol_and_source),
             TK_CASE(test_loop_nesting_queries), TK_CASE(test_sums_never_wrap),
             TK_CASE(test_sums_bound_fits))
