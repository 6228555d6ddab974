/* Ball–Larus numbering: fresh numberings of random CFGs are checked by
 * enumerating every path; loading checks; overflow; regeneration. */
#include <stdlib.h>
#include <string.h>

#include "tk_test.h"
#include "tracekit/ball_larus.h"

/* xorshift64*: deterministic random graphs */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

#define MAXN 14
#define MAXE 48
#define MAXPATHS 20000

typedef struct graph {
    uint32_t n, entry, exit;
    tk_bl_edge e[MAXE];
    size_t ne;
} graph;

/* A random CFG: node 0 is ENTRY, n-1 is EXIT; every other node gets 1..3
 * successors anywhere (loops included) and at least one forward edge so
 * EXIT stays reachable. */
static void random_graph(graph *g)
{
    memset(g, 0, sizeof *g);
    g->n = 3 + (uint32_t)(rnd() % (MAXN - 3));
    g->entry = 0;
    g->exit = g->n - 1;
    for (uint32_t v = 0; v + 1 < g->n && g->ne + 4 < MAXE; v++) {
        uint32_t fwd = v + 1 + (uint32_t)(rnd() % (g->n - 1 - v));
        tk_bl_edge a = {v, fwd, 0, 0, 0};
        g->e[g->ne++] = a;
        uint32_t extra = (uint32_t)(rnd() % 3);
        for (uint32_t k = 0; k < extra && g->ne < MAXE; k++) {
            uint32_t t = 1 + (uint32_t)(rnd() % (g->n - 1)); /* never back to ENTRY */
            tk_bl_edge b = {v, t, 0, 0, 0};
            g->e[g->ne++] = b;
        }
    }
}

typedef struct dag_arc {
    uint32_t from, to;
    uint64_t w;
    int kind; /* 0 real, 1 start after back edge, 2 end by back edge */
    uint32_t edge;
} dag_arc;

typedef struct enum_ctx {
    const tk_bl *bl;
    graph *g;
    dag_arc arcs[2 * MAXE];
    size_t narcs;
    uint8_t *seen; /* per path id */
    uint64_t total;
    uint64_t found;
    uint32_t nodes[MAXN + 2];
    size_t len;
    uint32_t start_edge, end_edge;
    int bad;
    uint32_t buf[MAXN + 2];
} enum_ctx;

static void check_decode(enum_ctx *c, uint64_t sum)
{
    tk_bl_path p;
    memset(&p, 0, sizeof p);
    p.nodes = c->buf;
    if (tk_bl_decode(c->bl, sum, &p, NULL) != TK_OK) {
        c->bad++;
        return;
    }
    if (p.len != c->len || memcmp(p.nodes, c->nodes, c->len * sizeof *c->nodes) != 0 ||
        p.start_edge != c->start_edge || p.end_edge != c->end_edge)
        c->bad++;
}

static void walk(enum_ctx *c, uint32_t v, uint64_t sum, int first)
{
    if (v == c->g->exit) {
        c->nodes[c->len++] = v;
        if (sum >= c->total || c->seen[sum])
            c->bad++;
        else {
            c->seen[sum] = 1;
            c->found++;
            check_decode(c, sum);
        }
        c->len--;
        return;
    }
    for (size_t k = 0; k < c->narcs; k++) {
        dag_arc *a = &c->arcs[k];
        if (a->from != v) continue;
        if (a->kind == 1) {
            if (!first) continue;
            c->start_edge = a->edge;
            walk(c, a->to, sum + a->w, 0);
            c->start_edge = TK_BL_NONE;
            continue;
        }
        c->nodes[c->len++] = v;
        if (a->kind == 2) {
            c->end_edge = a->edge;
            if (sum + a->w >= c->total || c->seen[sum + a->w])
                c->bad++;
            else {
                c->seen[sum + a->w] = 1;
                c->found++;
                check_decode(c, sum + a->w);
            }
            c->end_edge = TK_BL_NONE;
        } else {
            walk(c, a->to, sum + a->w, 0);
        }
        c->len--;
    }
}

static int issues_seen;
static void count_issue(void *ctx, const tk_bl_issue *is)
{
    (void)ctx;
    if (is->severity == TK_SEV_ERROR) issues_seen++;
}

static void test_random_fresh_numbering_enumerated(void)
{
    tk_bl *bl;
    TK_CHECK(tk_bl_open(&bl, NULL) == TK_OK);
    int graphs = 0;
    for (int round = 0; round < 400; round++) {
        graph g;
        random_graph(&g);
        issues_seen = 0;
        tk_status st = tk_bl_number(bl, g.n, g.entry, g.exit, g.e, g.ne, count_issue, NULL, NULL);
        TK_CHECK(st == TK_OK);
        TK_CHECK(issues_seen == 0);
        uint64_t total = tk_bl_total(bl);
        if (st != TK_OK || total == 0 || total > MAXPATHS) continue;
        graphs++;
        enum_ctx c;
        memset(&c, 0, sizeof c);
        c.bl = bl;
        c.g = &g;
        c.total = total;
        c.start_edge = c.end_edge = TK_BL_NONE;
        c.seen = calloc(total, 1);
        for (size_t i = 0; i < g.ne; i++) {
            if (!g.e[i].back) {
                dag_arc a = {g.e[i].src, g.e[i].dst, g.e[i].weight, 0, (uint32_t)i};
                c.arcs[c.narcs++] = a;
            } else {
                uint64_t xw = 0;
                TK_CHECK(tk_bl_exit_weight(bl, i, &xw, NULL) == TK_OK);
                dag_arc s = {g.entry, g.e[i].dst, g.e[i].weight, 1, (uint32_t)i};
                dag_arc x = {g.e[i].src, g.exit, xw, 2, (uint32_t)i};
                c.arcs[c.narcs++] = s;
                c.arcs[c.narcs++] = x;
            }
        }
        walk(&c, g.entry, 0, 1);
        /* every number 0..total-1 is exactly one path, and decodes back to it */
        TK_CHECK_EQ_U64(c.found, total);
        TK_CHECK_EQ_U64(c.bad, 0);
        /* the numbering reloads as given weights without any issue */
        issues_seen = 0;
        TK_CHECK(tk_bl_load(bl, g.n, g.entry, g.exit, g.e, g.ne, count_issue, NULL, NULL) == TK_OK);
        TK_CHECK(issues_seen == 0);
        free(c.seen);
    }
    TK_CHECK(graphs > 100);
    tk_bl_free(bl);
}

static void test_collision_detected(void)
{
    tk_bl *bl;
    TK_CHECK(tk_bl_open(&bl, NULL) == TK_OK);
    /* 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3: two paths */
    tk_bl_edge e[4] = {{0, 1, 0, 0, 0}, {0, 2, 0, 0, 0}, {1, 3, 0, 0, 0}, {2, 3, 0, 0, 0}};
    TK_CHECK(tk_bl_number(bl, 4, 0, 3, e, 4, NULL, NULL, NULL) == TK_OK);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 2);
    e[1].weight = 0; /* both branches numbered 0 */
    e[1].inc = 0;
    issues_seen = 0;
    TK_CHECK(tk_bl_load(bl, 4, 0, 3, e, 4, count_issue, NULL, NULL) == TK_ERR_CHECK);
    TK_CHECK(issues_seen >= 1);
    tk_bl_free(bl);
}

static tk_bl_issue_kind last_kind;
static void keep_kind(void *ctx, const tk_bl_issue *is)
{
    (void)ctx;
    last_kind = is->kind;
}

static void test_overflow_reported(void)
{
    /* 70 diamonds in a row: 2^70 paths */
    enum { D = 70 };
    uint32_t n = 3 * D + 1;
    tk_bl_edge *e = calloc(4 * D, sizeof *e);
    size_t ne = 0;
    for (uint32_t d = 0; d < D; d++) {
        uint32_t a = 3 * d, l = a + 1, r = a + 2, z = a + 3;
        tk_bl_edge x[4] = {{a, l, 0, 0, 0}, {a, r, 0, 0, 0}, {l, z, 0, 0, 0}, {r, z, 0, 0, 0}};
        memcpy(e + ne, x, sizeof x);
        ne += 4;
    }
    tk_bl *bl;
    TK_CHECK(tk_bl_open(&bl, NULL) == TK_OK);
    TK_CHECK(tk_bl_number(bl, n, 0, n - 1, e, ne, keep_kind, NULL, NULL) == TK_ERR_LIMIT);
    TK_CHECK(last_kind == TK_BL_ISSUE_OVERFLOW);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 0);
    /* 63 diamonds: 2^63 paths count in 64 bits, but are too many for the
     * signed increments of a fresh numbering */
    TK_CHECK(tk_bl_number(bl, 3 * 63 + 1, 0, 3 * 63, e, 4 * 63, keep_kind, NULL, NULL) ==
             TK_ERR_LIMIT);
    TK_CHECK(last_kind == TK_BL_ISSUE_TOO_MANY);
    /* 62 diamonds: numbered; the last path decodes, one past it does not */
    TK_CHECK(tk_bl_number(bl, 3 * 62 + 1, 0, 3 * 62, e, 4 * 62, NULL, NULL, NULL) == TK_OK);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 1ULL << 62);
    uint32_t nodes[3 * 62 + 2];
    tk_bl_path p = {nodes, NULL, 0, 0, 0, 0};
    TK_CHECK(tk_bl_decode(bl, (1ULL << 62) - 1, &p, NULL) == TK_OK);
    TK_CHECK_EQ_U64(p.len, 2 * 62 + 1);
    TK_CHECK(tk_bl_decode(bl, 1ULL << 62, &p, NULL) == TK_ERR_ARG);
    /* the 2^63 numbering loads (weights given) and counts */
    for (uint32_t d = 0; d < 63; d++) {
        for (int k = 0; k < 4; k++)
            e[4 * d + k].back = 0, e[4 * d + k].weight = 0, e[4 * d + k].inc = 0;
        e[4 * d + 1].weight = 1ULL << (62 - d);
        e[4 * d + 1].inc = (int64_t)(1ULL << (62 - d));
    }
    TK_CHECK(tk_bl_load(bl, 3 * 63 + 1, 0, 3 * 63, e, 4 * 63, NULL, NULL, NULL) == TK_OK);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 1ULL << 63);
    uint32_t nodes63[3 * 63 + 2];
    tk_bl_path p63 = {nodes63, NULL, 0, 0, 0, 0};
    TK_CHECK(tk_bl_decode(bl, (1ULL << 63) - 1, &p63, NULL) == TK_OK);
    tk_bl_free(bl);
    free(e);
}

static void test_cycle_without_back_edge(void)
{
    tk_bl *bl;
    TK_CHECK(tk_bl_open(&bl, NULL) == TK_OK);
    tk_bl_edge e[3] = {{0, 1, 0, 0, 0}, {1, 2, 0, 0, 0}, {2, 1, 0, 0, 0}};
    last_kind = TK_BL_ISSUE_OVERFLOW;
    TK_CHECK(tk_bl_load(bl, 4, 0, 3, e, 3, keep_kind, NULL, NULL) == TK_ERR_CHECK);
    TK_CHECK(last_kind == TK_BL_ISSUE_CYCLE);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 0);
    /* DFS finds the back edge and numbers the loop */
    /* an endless loop: its paths end by the back edge only */
    TK_CHECK(tk_bl_number(bl, 4, 0, 3, e, 3, NULL, NULL, NULL) == TK_OK);
    TK_CHECK_EQ_U64(tk_bl_total(bl), 2);
    tk_bl_edge f[4] = {{0, 1, 0, 0, 0}, {1, 2, 0, 0, 0}, {2, 1, 0, 0, 0}, {2, 3, 0, 0, 0}};
    TK_CHECK(tk_bl_number(bl, 4, 0, 3, f, 4, NULL, NULL, NULL) == TK_OK);
    TK_CHECK(f[2].back == 1);
    /* paths: 0 1 2 3, 0 1 2 ~>, ~> 1 2 3, ~> 1 2 ~> */
    TK_CHECK_EQ_U64(tk_bl_total(bl), 4);
    tk_bl_free(bl);
}

TK_TEST_MAIN(TK_CASE(test_random_fresh_numbering_enumerated), TK_CASE(test_collision_detected),
             TK_CASE(test_overflow_reported), TK_CASE(test_cycle_without_back_edge))
