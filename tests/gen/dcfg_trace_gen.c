/* Test and benchmark generator for DCFG + DCFG-Trace.
 *
 * Builds a random program (routines of basic blocks with conditional
 * branches, loops, switch-like indirect branches, and calls that form a DAG)
 * and random walks over it, one per thread (a call stack picks the return
 * edges). Edge counts of the DCFG are the counts of the walks, so a trace of
 * the walks and the DCFG agree exactly.
 *
 *   dcfg_trace_gen [options] --dcfg OUT.dcfg.json --edges OUT.edges
 *       writes the DCFG and the edge list ("PID THREAD EDGE" lines)
 *   dcfg_trace_gen [options] --dcfg OUT.dcfg.json --encode OUT.trace.json
 *       [--level N] [--compat] [--chunk-instrs N]
 *       (built with -DWITH_TRACEKIT) encodes the walks directly with
 *       libtracekit (two passes regenerate the walks from the seed, nothing
 *       is stored) and prints the encoding speed
 *   options: --seed S --routines R --threads T --edges-per-thread N
 *       --walk-seed W (the walks' seed, default S: one program, S, run otherwise)
 *       --executed-only (the DCFG has only the blocks and edges the walks ran, as
 *       Pin's have: runs of one program that took other paths have other graphs)
 *
 * Deterministic: same options, same output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef WITH_TRACEKIT
#include "tracekit/dcfg_trace.h"
#endif

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r)
{
    /* splitmix64 */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t below(rng *r, uint32_t n) { return (uint32_t)(next(r) % n); }

/* Edge types (ids as in Intel's table). */
enum {
    ET_ENTRY = 1,
    ET_DIRECT_CALL = 4,
    ET_RETURN = 6,
    ET_CALL_BYPASS = 7,
    ET_DIRECT_COND = 13,
    ET_INDIRECT_UNCOND = 16,
    ET_FALL = 18,
    ET_DIRECT_UNCOND = 15
};

typedef struct edge {
    uint32_t id, src, tgt, type;
    uint64_t *counts; /* per thread */
} gen_edge;

typedef struct block {
    uint32_t id;
    uint32_t routine;
    uint32_t num_instrs;
    uint64_t addr;
    /* successors: edge indexes */
    uint32_t succ[6];
    uint32_t nsucc;
    uint32_t weight[6]; /* choice weights */
    uint32_t period; /* deterministic pattern: the choice repeats every `period` visits */
    int32_t callee; /* routine called at the end of this block, -1 none */
    uint32_t call_edge, bypass_edge;
    int is_exit;
} block;

typedef struct routine {
    uint32_t first, n; /* block indexes */
} routine;

typedef struct prog {
    block *b;
    uint32_t nb;
    gen_edge *e;
    uint32_t ne, cap_e;
    routine *r;
    uint32_t nr;
    uint32_t nthreads;
    uint32_t entry_edge; /* START -> main entry */
    uint32_t *last; /* the node each thread's counting walk ended in */
    /* return edges: from exit block of callee to return site: looked up */
} prog;

static uint32_t add_edge(prog *p, uint32_t src, uint32_t tgt, uint32_t type)
{
    if (p->ne == p->cap_e) {
        p->cap_e = p->cap_e ? p->cap_e * 2 : 1024;
        p->e = realloc(p->e, p->cap_e * sizeof *p->e);
        if (!p->e) exit(3);
    }
    gen_edge *e = &p->e[p->ne];
    e->id = p->ne + 1;
    e->src = src;
    e->tgt = tgt;
    e->type = type;
    e->counts = calloc(p->nthreads, sizeof *e->counts);
    if (!e->counts) exit(3);
    return p->ne++;
}

#define NODE_START 1
#define NODE_END 2
#define FIRST_BLOCK_ID 10

static uint32_t node_of(const prog *p, uint32_t b) { return p->b[b].id; }

/* Find or create the return edge exit->site. */
static uint32_t return_edge(prog *p, uint32_t exit_b, uint32_t site_b)
{
    for (uint32_t i = 0; i < p->ne; i++)
        if (p->e[i].type == ET_RETURN && p->e[i].src == node_of(p, exit_b) &&
            p->e[i].tgt == node_of(p, site_b))
            return i;
    return add_edge(p, node_of(p, exit_b), node_of(p, site_b), ET_RETURN);
}

static void build(prog *p, rng *r, uint32_t nroutines)
{
    p->nr = nroutines;
    p->r = calloc(nroutines, sizeof *p->r);
    uint32_t total = 0;
    for (uint32_t i = 0; i < nroutines; i++) {
        p->r[i].first = total;
        p->r[i].n = i == 0 ? 16 + below(r, 16) : 4 + below(r, 12);
        total += p->r[i].n;
    }
    p->nb = total;
    p->b = calloc(total, sizeof *p->b);
    uint64_t addr = 0x1000;
    for (uint32_t i = 0; i < nroutines; i++) {
        for (uint32_t k = 0; k < p->r[i].n; k++) {
            block *b = &p->b[p->r[i].first + k];
            b->id = FIRST_BLOCK_ID + p->r[i].first + k;
            b->routine = i;
            b->num_instrs = 1 + below(r, 12);
            b->addr = addr;
            addr += b->num_instrs * 4;
            b->callee = -1;
            b->period = 2 + below(r, 14);
        }
    }
    /* intra-routine edges */
    for (uint32_t i = 0; i < nroutines; i++) {
        routine *R = &p->r[i];
        for (uint32_t k = 0; k < R->n; k++) {
            uint32_t bi = R->first + k;
            block *b = &p->b[bi];
            if (k == R->n - 1) {
                if (i == 0) {
                    /* main loops forever: back to its entry */
                    b->succ[b->nsucc] = add_edge(p, b->id, p->b[R->first].id, ET_DIRECT_UNCOND);
                    b->weight[b->nsucc++] = 1;
                } else {
                    b->is_exit = 1;
                }
                continue;
            }
            uint32_t kind = below(r, 10);
            /* main calls from every other block, anywhere in the program; the
             * others call later routines (the call graph is a DAG) */
            if (i + 1 < nroutines && (kind < 2 || (i == 0 && k % 2 == 1))) {
                /* a call to a later routine, returning to the next block */
                uint32_t span =
                    i == 0 ? nroutines - 1 : (nroutines - i - 1 < 8 ? nroutines - i - 1 : 8);
                b->callee = (int32_t)(i + 1 + below(r, span));
                b->call_edge = add_edge(p, b->id, p->b[p->r[b->callee].first].id, ET_DIRECT_CALL);
                b->bypass_edge = add_edge(p, b->id, p->b[bi + 1].id, ET_CALL_BYPASS);
                continue;
            }
            /* fall through */
            b->succ[b->nsucc] = add_edge(p, b->id, p->b[bi + 1].id, ET_FALL);
            b->weight[b->nsucc++] = 4;
            if (kind < 6) {
                /* a backward branch: a loop (taken often) */
                uint32_t to = R->first + below(r, k + 1);
                b->succ[b->nsucc] = add_edge(p, b->id, p->b[to].id, ET_DIRECT_COND);
                b->weight[b->nsucc++] = 12 + below(r, 20);
            } else if (kind < 8 && k + 2 < R->n) {
                /* a forward branch: an if */
                uint32_t to = bi + 2 + below(r, R->n - k - 2);
                b->succ[b->nsucc] = add_edge(p, b->id, p->b[to].id, ET_DIRECT_COND);
                b->weight[b->nsucc++] = 1 + below(r, 6);
            } else {
                /* an indirect branch with a few targets */
                uint32_t n = 2 + below(r, 3);
                for (uint32_t j = 0; j < n && b->nsucc < 6; j++) {
                    uint32_t to = R->first + below(r, R->n);
                    int dup = 0;
                    for (uint32_t q = 0; q < b->nsucc; q++)
                        if (p->e[b->succ[q]].tgt == p->b[to].id) dup = 1;
                    if (dup) continue;
                    b->succ[b->nsucc] = add_edge(p, b->id, p->b[to].id, ET_INDIRECT_UNCOND);
                    b->weight[b->nsucc++] = 1 + below(r, 4);
                }
            }
        }
    }
    p->entry_edge = add_edge(p, NODE_START, p->b[0].id, ET_ENTRY);
    /* return edges: created for every (exit block of callee, return site) */
    for (uint32_t bi = 0; bi < p->nb; bi++) {
        if (p->b[bi].callee < 0) continue;
        routine *C = &p->r[p->b[bi].callee];
        for (uint32_t k = 0; k < C->n; k++)
            if (p->b[C->first + k].is_exit) return_edge(p, C->first + k, bi + 1);
    }
}

static uint32_t block_index(const prog *p, uint32_t node)
{
    (void)p;
    return node - FIRST_BLOCK_ID;
}

/* Walk of one thread: calls emit(edge id) for n edges. */
typedef void (*emit_fn)(void *ctx, uint32_t edge);

/* Return edges by (exit node, site node): open addressing. */
static uint64_t *ret_keys;
static uint32_t *ret_vals;
static size_t ret_cap;

static size_t ret_slot(uint64_t key)
{
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (ret_cap - 1);
    while (ret_keys[i] && ret_keys[i] != key) i = (i + 1) & (ret_cap - 1);
    return i;
}

static void index_returns(const prog *p)
{
    ret_cap = 16;
    while (ret_cap < (size_t)p->ne * 2) ret_cap *= 2;
    ret_keys = calloc(ret_cap, sizeof *ret_keys);
    ret_vals = calloc(ret_cap, sizeof *ret_vals);
    for (uint32_t i = 0; i < p->ne; i++)
        if (p->e[i].type == ET_RETURN) {
            uint64_t key = ((uint64_t)p->e[i].src << 32) | p->e[i].tgt;
            size_t s = ret_slot(key);
            ret_keys[s] = key;
            ret_vals[s] = i;
        }
}

static uint32_t find_return(const prog *p, uint32_t exit_node, uint32_t site_node)
{
    (void)p;
    return ret_vals[ret_slot(((uint64_t)exit_node << 32) | site_node)];
}

static void walk(prog *p, uint64_t seed, uint32_t thread, uint64_t n, emit_fn emit, void *ctx,
                 int count)
{
    rng r = {seed * 1000003u + thread * 7919u + 17};
    uint32_t stack[64];
    uint32_t depth = 0;
    uint64_t done = 0;
    uint32_t cur = p->entry_edge;
    uint32_t *visits = calloc(p->nb, sizeof *visits);
    if (!visits) exit(3);
    /* return-edge lookup: per callee-exit block x return site, cached in a small table */
    while (done < n) {
        gen_edge *e = &p->e[cur];
        if (count) {
            e->counts[thread]++;
            p->last[thread] = e->tgt;
        }
        emit(ctx, e->id);
        done++;
        uint32_t bi = block_index(p, e->tgt);
        block *b = &p->b[bi];
        if (b->callee >= 0) {
            if (depth < 64) {
                stack[depth++] = bi + 1;
                cur = b->call_edge;
            } else {
                cur = b->bypass_edge; /* too deep: skip the call */
            }
            continue;
        }
        if (b->is_exit) {
            uint32_t site = stack[--depth];
            cur = find_return(p, b->id, p->b[site].id);
            continue;
        }
        /* program-like choices: a fixed pattern per block (loops with fixed trip
         * counts, ifs taken every k-th time, switches cycling), with a rare
         * random choice */
        uint32_t c = visits[bi]++;
        uint32_t i;
        if ((next(&r) & 63) == 0) {
            uint32_t total = 0;
            for (i = 0; i < b->nsucc; i++) total += b->weight[i];
            uint32_t x = below(&r, total);
            i = 0;
            while (x >= b->weight[i]) {
                x -= b->weight[i];
                i++;
            }
        } else if (b->nsucc == 2 && p->e[b->succ[1]].type == ET_DIRECT_COND &&
                   p->e[b->succ[1]].tgt <= b->id) {
            i = (c % b->period) != b->period - 1; /* loop: back edge period-1 times */
        } else if (b->nsucc == 2) {
            i = (c % b->period) < b->period / 3; /* if: taken a third of the time */
        } else {
            i = (c / 2) % b->nsucc; /* switch: cycles */
        }
        cur = b->succ[i];
    }
    free(visits);
}

static uint64_t edge_total(const prog *p, uint32_t i)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < p->nthreads; t++) n += p->e[i].counts[t];
    return n;
}

static void write_dcfg(const prog *p, const char *path, uint64_t pid, int executed_only)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fprintf(
        f,
        "{ \"MAJOR_VERSION\" : 1,\n  \"MINOR_VERSION\" : 0,\n"
        "  \"FILE_NAMES\" : [ [ \"FILE_NAME_ID\", \"FILE_NAME\" ], [ 1, \"gen.bin\" ] ],\n"
        "  \"EDGE_TYPES\" : [ [ \"EDGE_TYPE_ID\", \"EDGE_TYPE\" ],\n"
        "    [ 1, \"ENTRY\" ], [ 2, \"EXIT\" ], [ 4, \"DIRECT_CALL\" ], [ 6, \"RETURN\" ],\n"
        "    [ 7, \"CALL_BYPASS\" ], [ 13, \"DIRECT_CONDITIONAL_BRANCH\" ],\n"
        "    [ 15, \"DIRECT_UNCONDITIONAL_BRANCH\" ], [ 16, \"INDIRECT_UNCONDITIONAL_BRANCH\" ],\n"
        "    [ 18, \"FALL_THROUGH\" ] ],\n"
        "  \"SPECIAL_NODES\" : [ [ \"NODE_ID\", \"NODE_NAME\" ], [ 1, \"START\" ], [ 2, \"END\" ], "
        "[ 3, \"UNKNOWN\" ] ],\n"
        "  \"PROCESSES\" : [ [ \"PROCESS_ID\", \"PROCESS_DATA\" ],\n    [ %llu,\n",
        (unsigned long long)pid);
    /* instruction counts per thread: sum over edges of source instrs */
    uint64_t *per = calloc(p->nthreads, sizeof *per);
    uint64_t total = 0;
    for (uint32_t i = 0; i < p->ne; i++) {
        if (p->e[i].src < FIRST_BLOCK_ID) continue;
        for (uint32_t t = 0; t < p->nthreads; t++)
            per[t] += p->e[i].counts[t] * p->b[block_index(p, p->e[i].src)].num_instrs;
    }
    fprintf(f, "      { \"INSTR_COUNT_PER_THREAD\" : [");
    for (uint32_t t = 0; t < p->nthreads; t++) {
        fprintf(f, "%s %llu", t ? "," : "", (unsigned long long)per[t]);
        total += per[t];
    }
    fprintf(f, " ],\n        \"INSTR_COUNT\" : %llu,\n", (unsigned long long)total);
    fprintf(f,
            "        \"IMAGES\" : [ [ \"IMAGE_ID\", \"LOAD_ADDR\", \"SIZE\", \"IMAGE_DATA\" ],\n"
            "          [ 1, \"0x400000\", %llu,\n            { \"FILE_NAME_ID\" : 1,\n"
            "              \"SYMBOLS\" : [ [ \"NAME\", \"ADDR_OFFSET\", \"SIZE\" ]",
            (unsigned long long)(p->b[p->nb - 1].addr + 64));
    for (uint32_t i = 0; i < p->nr; i++) {
        const block *b0 = &p->b[p->r[i].first], *bl = &p->b[p->r[i].first + p->r[i].n - 1];
        fprintf(f, ",\n                [ \"%s%u\", \"0x%llx\", %llu ]", i == 0 ? "main" : "f", i,
                (unsigned long long)b0->addr,
                (unsigned long long)(bl->addr + bl->num_instrs * 4 - b0->addr));
    }
    fprintf(f, " ],\n              \"BASIC_BLOCKS\" : [ [ \"NODE_ID\", \"ADDR_OFFSET\", \"SIZE\", "
               "\"NUM_INSTRS\", \"LAST_INSTR_OFFSET\", \"COUNT\" ]");
    /* block count = sum of in-edge counts */
    uint64_t *bc = calloc(p->nb, sizeof *bc);
    for (uint32_t i = 0; i < p->ne; i++)
        if (p->e[i].tgt >= FIRST_BLOCK_ID)
            for (uint32_t t = 0; t < p->nthreads; t++)
                bc[block_index(p, p->e[i].tgt)] += p->e[i].counts[t];
    for (uint32_t i = 0; i < p->nb; i++)
        if (!executed_only || bc[i])
            fprintf(f, ",\n                [ %u, \"0x%llx\", %u, %u, %u, %llu ]", p->b[i].id,
                    (unsigned long long)p->b[i].addr, p->b[i].num_instrs * 4, p->b[i].num_instrs,
                    (p->b[i].num_instrs - 1) * 4, (unsigned long long)bc[i]);
    fprintf(
        f,
        " ] } ] ],\n        \"EDGES\" : [ [ \"EDGE_ID\", \"SOURCE_NODE_ID\", \"TARGET_NODE_ID\", "
        "\"EDGE_TYPE_ID\", \"COUNT_PER_THREAD\" ]");
    for (uint32_t i = 0; i < p->ne; i++) {
        if (executed_only && !edge_total(p, i)) continue;
        fprintf(f, ",\n          [ %u, %u, %u, %u, [", p->e[i].id, p->e[i].src, p->e[i].tgt,
                p->e[i].type);
        for (uint32_t t = 0; t < p->nthreads; t++)
            fprintf(f, "%s %llu", t ? "," : "", (unsigned long long)p->e[i].counts[t]);
        fprintf(f, " ] ]");
    }
    fprintf(f, " ] } ] ] }\n");
    free(per);
    free(bc);
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

typedef struct text_ctx {
    FILE *f;
    uint64_t pid;
    uint32_t thread;
} text_ctx;

static void emit_text(void *ctx, uint32_t edge)
{
    text_ctx *t = ctx;
    fprintf(t->f, "%llu %u %u\n", (unsigned long long)t->pid, t->thread, edge);
}

static void emit_none(void *ctx, uint32_t edge)
{
    (void)ctx;
    (void)edge;
}

#ifdef WITH_TRACEKIT
static uint64_t gen_instrs(void *ctx, uint64_t pid, uint32_t edge)
{
    (void)pid;
    const prog *p = ctx;
    uint32_t src = p->e[edge - 1].src;
    return src >= FIRST_BLOCK_ID ? p->b[block_index(p, src)].num_instrs : 0;
}

static int write_file(void *ctx, const void *data, size_t n)
{
    return fwrite(data, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

typedef struct membuf_t {
    uint32_t *v;
    size_t n, cap;
} membuf_t;

static void emit_mem(void *ctx, uint32_t edge)
{
    membuf_t *m = ctx;
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 1 << 20;
        m->v = realloc(m->v, m->cap * sizeof *m->v);
        if (!m->v) exit(3);
    }
    m->v[m->n++] = edge;
}
#endif

/* The command line's options. */
typedef struct gen_args {
    uint64_t seed, walk_seed, per_thread, pid, chunk_instrs;
    uint32_t routines, threads;
    int level, compat, executed_only;
    const char *dcfg, *edges, *encode;
} gen_args;

/* Returns 0, or 2 (usage error, said). */
static int parse_args(int argc, char **argv, gen_args *g)
{
    *g = (gen_args){
        .seed = 1, .per_thread = 1000, .pid = 4242, .routines = 20, .threads = 2, .level = 9};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--compat") || !strcmp(a, "--executed-only")) {
            *(a[2] == 'c' ? &g->compat : &g->executed_only) = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "%s needs a value\n", a);
            return 2;
        }
        i++;
        if (!strcmp(a, "--seed"))
            g->seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--walk-seed"))
            g->walk_seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--routines"))
            g->routines = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--threads"))
            g->threads = (uint32_t)strtoul(v, NULL, 10);
        else if (!strcmp(a, "--edges-per-thread"))
            g->per_thread = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--pid"))
            g->pid = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--dcfg"))
            g->dcfg = v;
        else if (!strcmp(a, "--edges"))
            g->edges = v;
        else if (!strcmp(a, "--encode"))
            g->encode = v;
        else if (!strcmp(a, "--level"))
            g->level = atoi(v);
        else if (!strcmp(a, "--chunk-instrs"))
            g->chunk_instrs = strtoull(v, NULL, 10);
        else {
            fprintf(stderr, "unknown option %s\n", a);
            return 2;
        }
    }
    if (!g->walk_seed) g->walk_seed = g->seed;
    if (g->routines < 1 || g->threads < 1 || g->threads > 256) {
        fprintf(stderr, "bad sizes\n");
        return 2;
    }
    return 0;
}

/* Every thread's edges as text, one line each. Returns 0, or 2 (said). */
static int write_edges(prog *p, const gen_args *g)
{
    FILE *f = fopen(g->edges, "w");
    if (!f) {
        perror(g->edges);
        return 2;
    }
    for (uint32_t t = 0; t < g->threads; t++) {
        text_ctx c = {f, g->pid, t};
        walk(p, g->walk_seed, t, g->per_thread, emit_text, &c, 0);
    }
    if (fclose(f) != 0) {
        perror(g->edges);
        return 2;
    }
    return 0;
}

#ifdef WITH_TRACEKIT
/* The walks encoded by libtracekit into g->encode, timed. Returns 0, or 1 or 2 (said). */
static int encode(prog *p, const gen_args *g)
{
    tk_dcfg_trace_encode_options opt = TK_DCFG_TRACE_ENCODE_OPTIONS_INIT;
    opt.level = g->level ? g->level : TK_DCFG_TRACE_PLAIN;
    opt.compat_intel = g->compat;
    opt.chunk_instrs = g->chunk_instrs ? g->chunk_instrs : 1000000;
    opt.source_instrs = gen_instrs;
    opt.ctx = p;
    opt.expected_edges = g->per_thread * g->threads;
    struct {
        tk_dcfg_trace_encoder *enc;
    } c;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_trace_encoder_open(&c.enc, &opt, &err) != TK_OK) return 1;
    FILE *f = fopen(g->encode, "w");
    if (!f) {
        perror(g->encode);
        return 2;
    }
    /* each thread's walk goes to memory first; only the encoder calls are
     * timed, in CPU time (the machine may be shared) */
    membuf_t mb = {NULL, 0, 0};
    double enc_time = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 &&
            tk_dcfg_trace_encoder_start(c.enc, &(tk_writer){write_file, f}, &err) != TK_OK)
            return 1;
        for (uint32_t t = 0; t < g->threads; t++) {
            mb.n = 0;
            walk(p, g->walk_seed, t, g->per_thread, emit_mem, &mb, 0);
            double t0 = cpu_now();
            tk_status st = pass ? tk_dcfg_trace_encoder_encode(c.enc, g->pid, t, mb.v, mb.n, &err)
                                : tk_dcfg_trace_encoder_observe(c.enc, g->pid, t, mb.v, mb.n, &err);
            enc_time += cpu_now() - t0;
            if (st != TK_OK) {
                fprintf(stderr, "encode: %s\n", err.message);
                return 1;
            }
        }
    }
    free(mb.v);
    double t0 = cpu_now();
    if (tk_dcfg_trace_encoder_finish(c.enc, &err) != TK_OK) {
        fprintf(stderr, "encode: %s\n", err.message);
        return 1;
    }
    enc_time += cpu_now() - t0;
    if (fclose(f) != 0) return 2;
    tk_dcfg_trace_encoder_free(c.enc);
    uint64_t total = g->per_thread * g->threads;
    printf("encoded %llu edges in %.3f s of CPU (walk generation excluded): %.1f M edges/s\n",
           (unsigned long long)total, enc_time, enc_time > 0 ? total / enc_time / 1e6 : 0.0);
    return 0;
}
#endif

/* --executed-only: each thread's walk, cut where it stopped, leaves its last block by an EXIT
 * edge to END, as a run's last block does, so that every block's count is the sum of its
 * out-edges' and the instruction counts are those of the blocks. */
static void end_walks(prog *p)
{
    for (uint32_t t = 0; t < p->nthreads; t++) {
        uint32_t i = 0;
        while (i < p->ne && !(p->e[i].src == p->last[t] && p->e[i].tgt == NODE_END)) i++;
        if (i == p->ne) i = add_edge(p, p->last[t], NODE_END, 2);
        p->e[i].counts[t]++;
    }
}

int main(int argc, char **argv)
{
    gen_args g;
    int rc = parse_args(argc, argv, &g);
    if (rc != 0) return rc;
    prog p;
    memset(&p, 0, sizeof p);
    p.nthreads = g.threads;
    rng r = {g.seed};
    build(&p, &r, g.routines);
    index_returns(&p);
    p.last = calloc(g.threads, sizeof *p.last);
    if (!p.last) exit(3);
    /* counts: one counting walk per thread */
    for (uint32_t t = 0; t < g.threads; t++)
        walk(&p, g.walk_seed, t, g.per_thread, emit_none, NULL, 1);
    if (g.executed_only) end_walks(&p);
    if (g.dcfg) write_dcfg(&p, g.dcfg, g.pid, g.executed_only);
    if (g.edges && (rc = write_edges(&p, &g)) != 0) return rc;
    if (g.encode) {
#ifdef WITH_TRACEKIT
        if ((rc = encode(&p, &g)) != 0) return rc;
#else
        fprintf(stderr, "built without libtracekit: --encode is not available\n");
        return 2;
#endif
    }
    for (uint32_t i = 0; i < p.ne; i++) free(p.e[i].counts);
    free(p.e);
    free(p.b);
    free(p.r);
    free(p.last);
    free(ret_keys);
    free(ret_vals);
    return 0;
}
