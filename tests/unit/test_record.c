/* tk_record_read: the raw files of tkrecord into the cfg model (blocks made
 * from superblocks entered in their middle, typed edges, bypasses, routines
 * by symbol), without Valgrind: raw files written here by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_test.h"
#include "model/cfg_internal.h"
#include "record/record_internal.h"
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
        if (ed->src == src && ed->tgt == tgt && tk_cfg_stored_edge_kind(cfg, ed) == kind)
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
    TK_CHECK(tk_record_read(&cfg, dir, &err) == TK_OK);
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
        tk_status st = tk_record_read(&cfg, dir, &err);
        remove_raw();
        if (!TK_CHECK(st == TK_ERR_FORMAT)) fprintf(stderr, "  case %zu\n", i);
        TK_CHECK(strstr(err.message, "raw file") != NULL || strstr(err.message, "tkrecord"));
        tk_cfg_free(cfg);
    }
}

/* What the reader refuses since fuzzing (fuzz/fuzz_record.c): each with its message and the
 * line it is at (0: the file as a whole). Ids are dense, so that no table is sized by a
 * number of the file. */
static void test_bad_raw_ids(void)
{
#define HEAD "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 2\n"
    static const struct {
        const char *text, *message;
        uint64_t line;
    } bad[] = {
        {"TKRECORD 1\nsrc 0 0 0 0\n", "does not follow its superblock", 2},
        {HEAD "exit 199999999 1 0 jmp 1000\ndone\n", "beyond the number of exits", 5},
        {HEAD "exit 1 1 0 jmp 1000\nexit 1 1 0 jmp 1000\ndone\n", "exit id given twice", 6},
        {HEAD "file 100000000 /a.c\ndone\n", "beyond the number of files", 5},
        {HEAD "file 1 /a.c\nfile 1 /b.c\ndone\n", "file id given twice", 6},
        {HEAD "exit 1 1 0 jmp 1000\nthreads 1 0\nedge 9 1 1 0 0 1\nend 0 1 0\ndone\n",
         "beyond the number of edges", 0},
        {HEAD "exit 1 1 0 jmp 1000\nthreads 1 0\nedge 1 1 1 0 0 1\nedge 1 1 1 0 0 2\n"
              "end 0 1 0\ndone\n",
         "edge record id given twice", 0},
        {HEAD "threads 70000 0\ndone\n", "malformed threads", 5},
        {HEAD "exit 1 1 0 jmp 1000\nthreads 2 0\nedge 1 1 1 0 1 1\nend 0 1 0\ndone\n",
         "threads without their end", 0},
        {"TKRECORD 1\nsym 1 2 1000 f\nimage 1 1000 10 0 /x\ndone\n", "symbol of an unknown image",
         0},
        {"TKRECORD 1\npid 1\0\n", "a NUL byte", 2},
        {"", "an empty file", 0},
    };
#undef HEAD
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_raw(bad[i].text);
        if (i + 2 == sizeof bad / sizeof *bad) { /* the NUL: fputs stops there */
            char path[128];
            snprintf(path, sizeof path, "%s/p100.0.tkr", dir);
            FILE *f = fopen(path, "wb");
            if (TK_CHECK(f != NULL)) {
                fwrite(bad[i].text, 1, sizeof "TKRECORD 1\npid 1\0\n" - 1, f);
                fclose(f);
            }
        }
        tk_cfg *cfg = NULL;
        tk_error err;
        tk_error_clear(&err);
        tk_status st = tk_record_read(&cfg, dir, &err);
        remove_raw();
        if (!TK_CHECK(st == TK_ERR_FORMAT && strstr(err.message, bad[i].message) &&
                      err.line == bad[i].line))
            fprintf(stderr, "  case %zu: %s (line %llu)\n", i, err.message,
                    (unsigned long long)err.line);
        tk_cfg_free(cfg);
    }
    /* a superblock of 1,025 instructions */
    char big[4200] = "TKRECORD 1\npid 1\nimage 1 1000 10 0 /x\nsb 1 1 1000 ";
    for (int k = 0; k < 1025; k++) strcat(big, k ? ",1" : "1");
    strcat(big, "\ndone\n");
    write_raw(big);
    tk_cfg *cfg = NULL;
    tk_error err;
    TK_CHECK(tk_record_read(&cfg, dir, &err) == TK_ERR_FORMAT &&
             strstr(err.message, "too many instructions"));
    remove_raw();
    tk_cfg_free(cfg);
}

/* The spill of a thread replays the raw file's records as often as it counts them: the
 * loop above (records 1 2 2 3 4 5 6 7 4 5, the last one a repeat) is a trace; a repeat
 * count beyond the counts (a crafted loop through the predictions, which ran without end)
 * and a spill that stops early are refused. */
static void test_spill_counts(void)
{
    static const struct {
        unsigned char bytes[32];
        size_t n;
        const char *message; /* NULL: accepted */
    } spills[] = {
        {{0, 1, 0, 2, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 4, 1, 0}, 20, NULL},
        {{0, 2, 0, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0},
         14,
         "more often than the raw file counts"},
        {{0, 1, 0, 0}, 4, "less often than the raw file counts"},
        {{0, 1, 0, 9}, 4, "edge record 9 is not in the raw file"},
        {{0, 1, 0x80}, 3, "cut short"},
    };
    char text[sizeof raw_loop + 16];
    snprintf(text, sizeof text, "%s", raw_loop);
    char *t = strstr(text, "trace 0"), *e = strstr(text, "end 0 5 0");
    t[6] = '1';
    e[8] = '1';
    for (size_t i = 0; i < sizeof spills / sizeof *spills; i++) {
        write_raw(text);
        char path[128];
        snprintf(path, sizeof path, "%s/p100.0.t0", dir);
        FILE *f = fopen(path, "wb");
        if (!TK_CHECK(f != NULL)) return;
        fwrite(spills[i].bytes, 1, spills[i].n, f);
        fclose(f);
        rec_set s;
        tk_cfg *cfg = NULL;
        tk_error err;
        tk_error_clear(&err);
        TK_CHECK(tk_rec_set_build(&s, dir, 1, 0, NULL, &cfg, &err) == TK_OK);
        FILE *null = fopen("/dev/null", "w");
        uint64_t edges = 0;
        tk_status st =
            cfg && null ? tk_rec_write_trace(cfg, &s, dir, -1, null, &edges, &err) : TK_ERR_IO;
        if (null) fclose(null);
        if (spills[i].message) {
            if (!TK_CHECK(st == TK_ERR_FORMAT && strstr(err.message, spills[i].message)))
                fprintf(stderr, "  spill %zu: %d %s\n", i, st, err.message);
        } else {
            TK_CHECK(st == TK_OK && edges > 0);
        }
        tk_rec_set_free(&s);
        tk_cfg_free(cfg);
        unlink(path);
        remove_raw();
    }
}

/* A process that wrote only its reservation (killed): nothing to load. */
static void test_reservation_only(void)
{
    write_raw("TKRECORD 1\nrunning\n");
    tk_cfg *cfg = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_record_read(&cfg, dir, &err) == TK_ERR_FORMAT);
    TK_CHECK(strstr(err.message, "no process wrote") != NULL);
    remove_raw();
    tk_cfg_free(cfg);
}

/* The recording's own files through tk_input: their bytes as written (a gzip magic is not
 * decoded), and a file that cannot be opened says so as these files always did. */
static void test_input_open(void)
{
    write_raw("TKRECORD 1\n"); /* (the folder) */
    char path[4200];
    snprintf(path, sizeof path, "%s/p1.0.wet", dir);
    tk_input *in = NULL;
    tk_error err;
    tk_error_clear(&err);
    TK_CHECK(tk_rec_input_open(&in, path, &err) == TK_ERR_IO && !in);
    char want[4400];
    snprintf(want, sizeof want, "cannot open %s: No such file or directory", path);
    if (!TK_CHECK(!strcmp(err.message, want))) fprintf(stderr, "  %s\n", err.message);
    FILE *f = fopen(path, "wb");
    TK_CHECK(f && fwrite("\x1f\x8b\x08\x00zz", 1, 6, f) == 6 && fclose(f) == 0);
    const uint8_t *data;
    size_t len = 0;
    TK_CHECK(tk_rec_input_open(&in, path, &err) == TK_OK);
    TK_CHECK(in && tk_input_chunk(in, &data, &len, &err) == TK_OK && len == 6 &&
             !memcmp(data, "\x1f\x8b", 2));
    tk_input_free(in);
    unlink(path);
    remove_raw();
}

TK_TEST_MAIN(TK_CASE(test_blocks_and_edges), TK_CASE(test_bad_raw), TK_CASE(test_bad_raw_ids),
             TK_CASE(test_spill_counts), TK_CASE(test_reservation_only), TK_CASE(test_input_open))
