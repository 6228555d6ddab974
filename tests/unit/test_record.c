/* tk_record_read: the raw files of tkrecord into the cfg model (blocks made
 * from superblocks entered in their middle, typed edges, bypasses, routines
 * by symbol), without Valgrind: raw files written here by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_test.h"
#include "model/cfg_internal.h"
#include "tracekit/tracekit.h"

static char dir[64];

static void write_raw(const char *text)
{
    snprintf(dir, sizeof dir, "/tmp/tk_test_record.XXXXXX");
    TK_CHECK(mkdtemp(dir) != NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/p100.0.tkr", dir);
    FILE *f = fopen(path, "w");
    TK_CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void remove_raw(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/p100.0.tkr", dir);
    unlink(path);
    rmdir(dir);
}

/* A loop (A: 0x1000-0x1005 ending in a jcc back to 0x1000), a call (B) of f
 * (C) returning to D, which jumps into the middle of A (E: 0x1004): the
 * thread ends after D's second run. */
static const char raw_loop[] =
    "TKRECORD 1\npid 100\nppid 1\ngen 0\ntrace 0\nexe /prog\narg x\n"
    "image 1 1000 4096 1000 /prog\n"
    "file 1 /src/prog.c\n"
    "sym 1 1 1000 main\nsym 2 1 1100 f\n"
    "sb 1 1 1000 4,2\nsrc 1 0 1 10\nsrc 1 1 1 11\nfn 1 0 1\n"
    "exit 1 1 1 cond 1000\nexit 2 1 1 cond 1006\n"
    "sb 2 1 1006 5\nsrc 2 0 1 12\nfn 2 0 1\nexit 3 2 0 call 1100\n"
    "sb 3 1 1100 1,1\nsrc 3 0 1 20\nfn 3 0 2\nexit 4 3 1 ret -\n"
    "sb 4 1 100b 3,2\nsrc 4 0 1 13\nfn 4 0 1\nexit 5 4 1 jmp 1004\n"
    "sb 5 1 1004 2\nsrc 5 0 1 11\nfn 5 0 1\nexit 6 5 0 cond 1000\nexit 7 5 0 cond 1006\n"
    "threads 1 0\n"
    "edge 1 0 1 0 0 1\nedge 2 1 1 0 0 2\nedge 3 2 2 0 0 1\nedge 4 3 3 0 0 2\n"
    "edge 5 4 4 0 0 2\nedge 6 5 5 0 0 1\nedge 7 7 2 0 0 1\n"
    "end 0 5 0\nend-of-run exit 0\ndone\n";

static uint32_t block_at(const tk_cfg_process *p, uint64_t off)
{
    for (uint32_t b = 0; b < p->nblocks; b++)
        if (p->blocks[b].addr_offset == off) return b;
    return TK_CFG_NONE;
}

static uint64_t edge_count(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t src, uint32_t tgt,
                           tk_edge_kind kind)
{
    for (uint32_t e = 0; e < p->nedges; e++) {
        const tk_cfg_edge *ed = &p->edges[e];
        if (ed->src == src && ed->tgt == tgt && cfg_edge_kind(cfg, ed) == kind)
            return cfg_edge_count(p, ed) + 1; /* + 1: present with count 0 too */
    }
    return 0;
}

static void count_problem(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    (void)loc;
    fprintf(stderr, "  %s\n", msg);
    if (sev >= TK_SEV_WARNING) (*(int *)ctx)++;
}

static void test_blocks_and_edges(void)
{
    write_raw(raw_loop);
    tk_cfg *cfg = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_record_read(dir, &cfg, &err) == TK_OK);
    remove_raw();
    if (!cfg) return;
    TK_CHECK_EQ_U64(cfg->nprocesses, 1);
    const tk_cfg_process *p = &cfg->processes[0];
    TK_CHECK_EQ_U64(p->pid, 100);
    TK_CHECK_EQ_U64(p->nblocks, 5); /* A split where E enters it */
    uint32_t a = block_at(p, 0), e = block_at(p, 4), b = block_at(p, 6), d = block_at(p, 0xb),
             c = block_at(p, 0x100);
    TK_CHECK(a != TK_CFG_NONE && e != TK_CFG_NONE && b != TK_CFG_NONE && d != TK_CFG_NONE &&
             c != TK_CFG_NONE);
    if (a == TK_CFG_NONE || e == TK_CFG_NONE || b == TK_CFG_NONE || d == TK_CFG_NONE ||
        c == TK_CFG_NONE) {
        tk_cfg_free(cfg);
        return;
    }
    TK_CHECK_EQ_U64(p->blocks[d].num_instrs, 2);
    TK_CHECK_EQ_U64(cfg_block_size(p, d), 5);
    TK_CHECK_EQ_U64(cfg_block_last_instr_offset(p, d), 3);
    uint32_t start = p->nblocks + 0, end = p->nblocks + 1;
    TK_CHECK_EQ_U64(edge_count(cfg, p, start, a, TK_EDGE_ENTRY), 1 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, a, e, TK_EDGE_FALL_THROUGH), 3 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, e, a, TK_EDGE_DIRECT_CONDITIONAL_BRANCH), 2 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, e, b, TK_EDGE_FALL_THROUGH), 2 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, b, c, TK_EDGE_DIRECT_CALL), 2 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, b, d, TK_EDGE_CALL_BYPASS), 0 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, c, d, TK_EDGE_RETURN), 2 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, d, e, TK_EDGE_DIRECT_UNCONDITIONAL_BRANCH), 1 + 1);
    TK_CHECK_EQ_U64(edge_count(cfg, p, d, end, TK_EDGE_EXIT), 1 + 1);
    TK_CHECK_EQ_U64(p->nedges, 9);
    /* counts: A 3, E 4, B 2, C 2, D 2; 3 + 4 + 2 + 2*2 + 2*2 instructions */
    TK_CHECK_EQ_U64(p->blocks[a].count, 3);
    TK_CHECK_EQ_U64(p->blocks[e].count, 4);
    TK_CHECK_EQ_U64(p->blocks[d].count, 2);
    TK_CHECK_EQ_U64(p->file_instr_count, 17);
    TK_CHECK_EQ_U64(tk_cfg_scope_instr_count(p, (tk_cfg_scope){TK_SCOPE_PROCESS, 0}), 17);
    /* routines by symbol: main (entered at its start, D and E reached in it), f */
    TK_CHECK_EQ_U64(p->nroutines, 2);
    TK_CHECK(p->blocks[a].routine == p->blocks[d].routine);
    TK_CHECK(p->blocks[c].routine != p->blocks[a].routine);
    TK_CHECK_EQ_U64(p->routines[p->blocks[a].routine].entry, a);
    TK_CHECK_EQ_U64(p->nloops, 2); /* A-E, and E-B-D */
    uint64_t off;
    TK_CHECK_STR(tk_cfg_block_symbol(cfg, p, c, &off), "f");
    const char *file;
    TK_CHECK_EQ_U64(tk_cfg_block_source(cfg, p, d, &file), 13);
    TK_CHECK_STR(file, "/src/prog.c");
    /* written and read again, `check` finds nothing */
    char path[128];
    snprintf(path, sizeof path, "/tmp/tk_test_record.%d.json", (int)getpid());
    FILE *f = fopen(path, "w");
    TK_CHECK(f && tk_dcfg_write(cfg, TK_TEST_WRITER(f), &err) == TK_OK);
    if (f) fclose(f);
    int problems = 0;
    tk_diag diag;
    tk_diag_init(&diag, count_problem, &problems);
    tk_dcfg_read_options o = TK_DCFG_READ_OPTIONS_INIT;
    o.diag = &diag;
    tk_cfg *again = NULL;
    TK_CHECK(tk_dcfg_read_path(&again, path, &o, &err) == TK_OK);
    if (again) tk_dcfg_check(again, path, &diag, NULL);
    TK_CHECK_EQ_U64(problems, 0);
    unlink(path);
    tk_cfg_free(again);
    tk_cfg_free(cfg);
}

static void test_bad_raw(void)
{
    static const char *const bad[] = {
        "not a raw file\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 0\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 2 0 jmp 1000\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 1 0 hop 1000\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 1 0 jmp 1000\n"
        "threads 1 0\nedge 1 9 1 0 0 1\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 1 0 jmp 1000\n"
        "threads 1 0\nedge 1 1 1 0 3 1\ndone\n",
        /* numbers over 64 bits (the scanner's TK_ERR_LIMIT), a length after a blank */
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 10000000000000000 2\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 1 0 jmp 1000\n"
        "threads 1 0\nedge 1 1 1 0 0 18446744073709551616\ndone\n",
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2, 3\ndone\n",
        /* an end-of-run status that is not a number */
        "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\nexit 1 1 0 jmp 1000\n"
        "threads 1 0\nedge 1 1 1 0 0 1\nend 0 1 0\nend-of-run exit 0x\ndone\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_raw(bad[i]);
        tk_cfg *cfg = NULL;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_record_read(dir, &cfg, &err);
        remove_raw();
        if (!TK_CHECK(st == TK_ERR_FORMAT)) fprintf(stderr, "  case %zu\n", i);
        TK_CHECK(strstr(err.message, "raw file") != NULL || strstr(err.message, "tkrecord"));
        tk_cfg_free(cfg);
    }
}

/* A process that wrote only its reservation (killed): nothing to load. */
static void test_reservation_only(void)
{
    write_raw("TKRECORD 1\nrunning\n");
    tk_cfg *cfg = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_record_read(dir, &cfg, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "no process wrote") != NULL);
    remove_raw();
    tk_cfg_free(cfg);
}

TK_TEST_MAIN(TK_CASE(test_blocks_and_edges), TK_CASE(test_bad_raw), TK_CASE(test_reservation_only))
