/* wet_gen: simulate a small program (registers, memory, branches, a loop, a
 * call) and write the WET traces a tracer would produce for it: the
 * comprehensive form and the matching limited-history form.
 *
 * It also answers slices with a deliberately naive method (repeat "add every
 * neighbour of the set" until nothing changes), the oracle that tracekit's
 * breadth-first slicer is compared with.
 *
 * usage: wet_gen [--iterations N] [--seed S] [--no-debug] [-o TRACE]
 *                [--history FILE] [--history-limit N]
 *                [--slice ID:INSTANCE [--forward] [--deps all|data|control] [--depth N]]
 *
 * Standalone C11 (no tracekit code), so it is an independent oracle. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op { CONST, ADD, ADDI, MULI, XOR, ANDI, LOAD, STORE, BGE, BODD, BLT, JMP, CALL, RET, HALT };

#define CTRL_NONE (-1)
#define CTRL_CALLER (-2)
#define NREGS 8
#define MEMSIZE 64

typedef struct instr {
    enum op op;
    int rd, ra, rb;
    uint64_t imm;
    int target; /* branch/jump/call target (static index) */
    int ctrl; /* static controlling branch, CTRL_NONE or CTRL_CALLER */
    int line;
    int in_f; /* 1: function f in util.c, else main in prog.c */
} instr;

/* The program (see the comment of each line for the C it stands for). */
static instr prog[] = {
    /* main */
    {CONST, 0, -1, -1, 0, 0, CTRL_NONE, 10, 0}, /* 0  i = 0 */
    {CONST, 1, -1, -1, 0, 0, CTRL_NONE, 11, 0}, /* 1  s = 0 */
    {CONST, 7, -1, -1, 0, 0, CTRL_NONE, 12, 0}, /* 2  n = ITERATIONS (imm patched) */
    {CONST, 6, -1, -1, 5, 0, CTRL_NONE, 13, 0}, /* 3  x = seed (imm patched) */
    {BGE, -1, 0, 7, 0, 18, CTRL_NONE, 14, 0}, /* 4  while (i < n) */
    {MULI, 6, 6, -1, 6364136223846793005ull, 0, 4, 15, 0}, /* 5  x = x * a */
    {ADDI, 6, 6, -1, 1442695040888963407ull, 0, 4, 15, 0}, /* 6  x = x + c */
    {LOAD, 2, 0, -1, 0, 0, 4, 16, 0}, /* 7  t = a[i % 64] */
    {XOR, 2, 2, 6, 0, 0, 4, 16, 0}, /* 8  t ^= x */
    {BODD, -1, 2, -1, 0, 12, 4, 17, 0}, /* 9  if (t is even) */
    {ADD, 1, 1, 2, 0, 0, 9, 18, 0}, /* 10   s += t */
    {JMP, -1, -1, -1, 0, 14, 9, 18, 0}, /* 11 else */
    {CALL, -1, -1, -1, 0, 20, 9, 20, 0}, /* 12   r3 = f(t) */
    {XOR, 1, 1, 3, 0, 0, 9, 20, 0}, /* 13   s ^= r3 */
    {MULI, 4, 0, -1, 7, 0, 4, 22, 0}, /* 14 k = i * 7 */
    {STORE, -1, 4, 1, 0, 0, 4, 22, 0}, /* 15 a[k % 64] = s */
    {ADDI, 0, 0, -1, 1, 0, 4, 23, 0}, /* 16 i++ */
    {JMP, -1, -1, -1, 0, 4, 4, 23, 0}, /* 17 } */
    {STORE, -1, 7, 1, 0, 0, CTRL_NONE, 25, 0}, /* 18 a[n % 64] = s */
    {HALT, -1, -1, -1, 0, 0, CTRL_NONE, 26, 0}, /* 19 */
    /* f */
    {MULI, 3, 2, -1, 3, 0, CTRL_CALLER, 3, 1}, /* 20 r = t * 3 */
    {ANDI, 3, 3, -1, 0xffff, 0, CTRL_CALLER, 3, 1}, /* 21 r &= 0xffff */
    {CONST, 5, -1, -1, 30000, 0, CTRL_CALLER, 4, 1}, /* 22 lim = 30000 */
    {BLT, -1, 3, 5, 0, 25, CTRL_CALLER, 4, 1}, /* 23 if (r >= lim) */
    {ANDI, 3, 3, -1, 1023, 0, 23, 5, 1}, /* 24   r &= 1023 */
    {RET, -1, -1, -1, 0, 0, CTRL_CALLER, 6, 1}, /* 25 return r */
};
#define NPROG ((int)(sizeof prog / sizeof prog[0]))

typedef struct node {
    int instr;
    uint32_t inst;
} node;

typedef struct entry {
    uint32_t inst;
    int dep;
    uint32_t dep_inst;
} entry;

typedef struct elist {
    entry *data;
    size_t len, cap;
} elist;

typedef struct edge {
    node from, to;
    int port;
} edge;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "wet_gen: out of memory\n");
        exit(1);
    }
    return p;
}

static elist ports[NPROG][4];
static uint64_t *values[NPROG];
static size_t nvalues[NPROG], capvalues[NPROG];
static uint32_t count[NPROG];
static edge *edges;
static size_t nedges, capedges;
static int keep_edges;
static edge *ring;
static size_t ring_cap, ring_len, ring_head;

static int nports(const instr *in)
{
    switch (in->op) {
    case CONST:
    case JMP:
    case CALL:
    case RET:
    case HALT: return 1;
    case ADDI:
    case MULI:
    case ANDI:
    case BODD: return 2;
    case ADD:
    case XOR:
    case BGE:
    case BLT:
    case LOAD:
    case STORE: return 3;
    }
    return 1;
}

static int defines_value(const instr *in)
{
    switch (in->op) {
    case CONST:
    case ADD:
    case ADDI:
    case MULI:
    case XOR:
    case ANDI:
    case LOAD:
    case STORE: return 1;
    default: return 0;
    }
}

static uint64_t id_of(int i) { return 1000 + 7 * (uint64_t)i; }

static uint64_t addr_of(int i)
{
    uint64_t a = prog[i].in_f ? 0x8049000 : 0x8048000;
    for (int j = 0; j < i; j++)
        if (prog[j].in_f == prog[i].in_f) a += 2 + (uint64_t)(j % 4);
    return a;
}

static void add_dep(int i, uint32_t inst, int port, node def)
{
    if (def.instr < 0) return;
    elist *l = &ports[i][port];
    if (l->len == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->data = xrealloc(l->data, l->cap * sizeof *l->data);
    }
    l->data[l->len++] = (entry){inst, def.instr, def.inst};
    edge e = {{i, inst}, def, port};
    if (keep_edges) {
        if (nedges == capedges) {
            capedges = capedges ? 2 * capedges : 1024;
            edges = xrealloc(edges, capedges * sizeof *edges);
        }
        edges[nedges++] = e;
    }
    if (ring_cap) {
        ring[(ring_head + ring_len) % ring_cap] = e;
        if (ring_len < ring_cap)
            ring_len++;
        else
            ring_head = (ring_head + 1) % ring_cap;
    }
}

static void add_value(int i, uint64_t v)
{
    if (nvalues[i] == capvalues[i]) {
        capvalues[i] = capvalues[i] ? 2 * capvalues[i] : 16;
        values[i] = xrealloc(values[i], capvalues[i] * sizeof *values[i]);
    }
    values[i][nvalues[i]++] = v;
}

static void run(uint64_t iterations, uint64_t seed)
{
    uint64_t reg[NREGS] = {0}, mem[MEMSIZE] = {0};
    node regdef[NREGS], memdef[MEMSIZE], last[NPROG];
    node none = {-1, 0};
    for (int r = 0; r < NREGS; r++) regdef[r] = none;
    for (int m = 0; m < MEMSIZE; m++) memdef[m] = none;
    for (int i = 0; i < NPROG; i++) last[i] = none;
    prog[2].imm = iterations;
    prog[3].imm = seed;
    node call_site = none;
    int return_to = -1;
    int pc = 0;
    while (prog[pc].op != HALT) {
        const instr *in = &prog[pc];
        uint32_t k = count[pc]++;
        node me = {pc, k};
        node ctrl = in->ctrl == CTRL_NONE     ? none
                    : in->ctrl == CTRL_CALLER ? call_site
                                              : last[in->ctrl];
        add_dep(pc, k, 0, ctrl);
        int next = pc + 1;
        uint64_t v = 0;
        switch (in->op) {
        case CONST: v = in->imm; break;
        case ADD:
        case XOR:
            add_dep(pc, k, 1, regdef[in->ra]);
            add_dep(pc, k, 2, regdef[in->rb]);
            v = in->op == ADD ? reg[in->ra] + reg[in->rb] : reg[in->ra] ^ reg[in->rb];
            break;
        case ADDI:
        case MULI:
        case ANDI:
            add_dep(pc, k, 1, regdef[in->ra]);
            v = in->op == ADDI   ? reg[in->ra] + in->imm
                : in->op == MULI ? reg[in->ra] * in->imm
                                 : reg[in->ra] & in->imm;
            break;
        case LOAD: {
            uint64_t a = reg[in->ra] % MEMSIZE;
            add_dep(pc, k, 1, regdef[in->ra]);
            add_dep(pc, k, 2, memdef[a]);
            v = mem[a];
            break;
        }
        case STORE: {
            uint64_t a = reg[in->ra] % MEMSIZE;
            add_dep(pc, k, 1, regdef[in->ra]);
            add_dep(pc, k, 2, regdef[in->rb]);
            v = mem[a] = reg[in->rb];
            memdef[a] = me;
            break;
        }
        case BGE:
        case BLT:
            add_dep(pc, k, 1, regdef[in->ra]);
            add_dep(pc, k, 2, regdef[in->rb]);
            if (in->op == BGE ? reg[in->ra] >= reg[in->rb] : reg[in->ra] < reg[in->rb])
                next = in->target;
            break;
        case BODD:
            add_dep(pc, k, 1, regdef[in->ra]);
            if (reg[in->ra] & 1) next = in->target;
            break;
        case JMP: next = in->target; break;
        case CALL:
            call_site = me;
            return_to = pc + 1;
            next = in->target;
            break;
        case RET: next = return_to; break;
        case HALT: break;
        }
        if (defines_value(in)) {
            add_value(pc, v);
            if (in->rd >= 0) {
                reg[in->rd] = v;
                regdef[in->rd] = me;
            }
        }
        last[pc] = me;
        pc = next;
    }
    count[pc]++; /* HALT executes once, with no dependences */
}

static void write_trace(FILE *f, int no_debug)
{
    int executed = 0;
    for (int i = 0; i < NPROG; i++) executed += count[i] > 0;
    fprintf(f, "%d\n", executed); /* a tracer lists executed instructions only */
    for (int i = 0; i < NPROG; i++) {
        const instr *in = &prog[i];
        if (count[i] == 0) continue;
        int np = nports(in);
        fprintf(f, "%" PRIu64 " %d %" PRIx64, id_of(i), np, addr_of(i));
        if (!(no_debug && in->in_f))
            fprintf(f, " %s %s %d", in->in_f ? "util.c" : "prog.c", in->in_f ? "f" : "main",
                    in->line);
        fputc('\n', f);
        for (int p = 0; p < np; p++) {
            const elist *l = &ports[i][p];
            fprintf(f, "SIZE %zu\n", l->len);
            for (size_t j = 0; j < l->len; j++)
                fprintf(f, "    %" PRIu32 ":%" PRIu64 " %" PRIu32 "\n", l->data[j].inst,
                        id_of(l->data[j].dep), l->data[j].dep_inst);
        }
        if (!defines_value(in)) {
            fputs("NO VALUES\n", f);
            continue;
        }
        fprintf(f, "VALUES %zu\n", nvalues[i]);
        for (size_t v = 0; v < nvalues[i]; v++)
            fprintf(f, "    %zu:%" PRIx64 "\n", v, values[i][v]);
    }
}

static void write_history(FILE *f)
{
    for (size_t j = 0; j < ring_len; j++) {
        const edge *e = &ring[(ring_head + j) % ring_cap];
        fprintf(f, "0x%" PRIx64 "#%" PRIu32 " --> 0x%" PRIx64 "#%" PRIu32 "\n",
                addr_of(e->from.instr), e->from.inst, addr_of(e->to.instr), e->to.inst);
    }
}

/* The naive slice: rounds of "add every allowed neighbour of the set". */
static void naive_slice(node crit, int forward, const char *deps, unsigned long depth)
{
    uint8_t *in_set[NPROG];
    for (int i = 0; i < NPROG; i++) in_set[i] = calloc(count[i] + 1, 1);
    in_set[crit.instr][crit.inst] = 1;
    for (unsigned long round = 0; depth == 0 || round < depth; round++) {
        uint8_t *before[NPROG];
        for (int i = 0; i < NPROG; i++) {
            before[i] = malloc(count[i] + 1);
            memcpy(before[i], in_set[i], count[i] + 1);
        }
        int changed = 0;
        for (size_t j = 0; j < nedges; j++) {
            const edge *e = &edges[j];
            if ((strcmp(deps, "data") == 0 && e->port == 0) ||
                (strcmp(deps, "control") == 0 && e->port != 0))
                continue;
            node a = forward ? e->to : e->from, b = forward ? e->from : e->to;
            if (before[a.instr][a.inst] && !in_set[b.instr][b.inst]) {
                in_set[b.instr][b.inst] = 1;
                changed = 1;
            }
        }
        for (int i = 0; i < NPROG; i++) free(before[i]);
        if (!changed) break;
    }
    for (int i = 0; i < NPROG; i++) {
        for (uint32_t k = 0; k < count[i]; k++)
            if (in_set[i][k]) printf("%" PRIu64 " %" PRIu32 "\n", id_of(i), k);
        free(in_set[i]);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: wet_gen [--iterations N] [--seed S] [--no-debug] [-o TRACE] "
                    "[--history FILE] [--history-limit N] [--slice ID:INSTANCE [--forward] "
                    "[--deps all|data|control] [--depth N]]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    uint64_t iterations = 10, seed = 5;
    const char *out = NULL, *history = NULL, *slice = NULL, *deps = "all";
    unsigned long depth = 0;
    size_t history_limit = 100000;
    int no_debug = 0, forward = 0;
    for (int a = 1; a < argc; a++) {
        const char *s = argv[a];
        int more = a + 1 < argc;
        if (!strcmp(s, "--iterations") && more)
            iterations = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(s, "--seed") && more)
            seed = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(s, "-o") && more)
            out = argv[++a];
        else if (!strcmp(s, "--history") && more)
            history = argv[++a];
        else if (!strcmp(s, "--history-limit") && more)
            history_limit = strtoull(argv[++a], NULL, 10);
        else if (!strcmp(s, "--slice") && more)
            slice = argv[++a];
        else if (!strcmp(s, "--deps") && more)
            deps = argv[++a];
        else if (!strcmp(s, "--depth") && more)
            depth = strtoul(argv[++a], NULL, 10);
        else if (!strcmp(s, "--forward"))
            forward = 1;
        else if (!strcmp(s, "--no-debug"))
            no_debug = 1;
        else
            usage();
    }
    keep_edges = slice != NULL;
    if (history) {
        ring_cap = history_limit ? history_limit : 1;
        ring = xrealloc(NULL, ring_cap * sizeof *ring);
    }
    run(iterations, seed);
    if (slice) {
        unsigned long long id, inst;
        if (sscanf(slice, "%llu:%llu", &id, &inst) != 2 || id < 1000 || (id - 1000) % 7 ||
            (id - 1000) / 7 >= (unsigned long long)NPROG)
            usage();
        node crit = {(int)((id - 1000) / 7), (uint32_t)inst};
        if (inst >= count[crit.instr]) {
            fprintf(stderr, "wet_gen: no instance %llu\n", inst);
            return 1;
        }
        naive_slice(crit, forward, deps, depth);
        return 0;
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    if (!f) {
        perror(out);
        return 1;
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    write_trace(f, no_debug);
    if (out && fclose(f) != 0) {
        perror(out);
        return 1;
    }
    if (history) {
        FILE *h = fopen(history, "w");
        if (!h) {
            perror(history);
            return 1;
        }
        write_history(h);
        fclose(h);
    }
    return 0;
}
