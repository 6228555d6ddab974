/* Reading the raw files tkrecord writes (one line a record; docs/record.md). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "core/num.h"
#include "record/record_internal.h"

/* An exit or a file line as read: their ids are dense (1..n, in any order), the tables by
 * id are made at the end, of the size the lines give (never of an id's). */
typedef struct pending {
    uint64_t line;
    uint32_t id;
    uint32_t name; /* a file's name */
    rec_exit e; /* an exit */
} pending;

typedef struct rd {
    rec_raw *r;
    tk_error *err;
    uint64_t line;
    char *s; /* the rest of the current line */
    const char *end; /* the line's end (its NUL) */
    TK_VEC(pending) exits, files;
} rd;

/* Superblocks of more instructions than VEX translates at once (at most 100) are not
 * tkrecord's. */
#define MAX_SB_INSTRS 1024
/* tracekit record's --threads-limit is at most this. */
#define MAX_THREADS 65536

static tk_status bad(rd *d, const char *what)
{
    return tk_error_set_at(d->err, TK_ERR_FORMAT, d->r->path, -1, d->line, 1,
                           "tkrecord raw file: %s", what);
}

static tk_status nomem(rd *d)
{
    return tk_error_set(d->err, TK_ERR_NOMEM, "out of memory reading a tkrecord raw file");
}

/* The next space-separated number of the line: decimal (base 10), or hex with or without
 * "0x" (base 16), through the scanner. */
static int num(rd *d, int base, uint64_t *out)
{
    const char *p = d->s;
    while (*p == ' ') p++;
    unsigned syntax = base == 16 ? TK_NUM_BARE_HEX | TK_NUM_HEX : TK_NUM_DEC;
    if (tk_num_scan(&p, d->end, syntax, out) != TK_OK) return 0;
    d->s += p - d->s;
    return *d->s == ' ' || *d->s == 0;
}

static int num32(rd *d, uint32_t *out)
{
    uint64_t v;
    if (!num(d, 10, &v) || v > UINT32_MAX) return 0;
    *out = (uint32_t)v;
    return 1;
}

/* The rest of the line as a name (\\ and \n unescaped) into the strings. */
static int name(rd *d, uint32_t *off)
{
    if (*d->s == ' ') d->s++;
    rec_raw *r = d->r;
    size_t len = strlen(d->s);
    if (TK_VEC_RESERVE(&r->strings, r->strings.len + len + 1) != 0) return -1;
    if (r->strings.len > UINT32_MAX - len - 1) return -1;
    *off = (uint32_t)r->strings.len;
    char *o = r->strings.data + r->strings.len;
    for (const char *p = d->s; *p; p++) {
        if (*p == '\\' && p[1] == 'n')
            *o++ = '\n', p++;
        else if (*p == '\\' && p[1] == '\\')
            *o++ = '\\', p++;
        else
            *o++ = *p;
    }
    *o++ = 0;
    r->strings.len = (size_t)(o - r->strings.data);
    return 1;
}

static const char *const kind_names[REC_KIND_COUNT] = {"start", "fall",  "cond", "jmp", "ijmp",
                                                       "call",  "icall", "ret",  "sys", "rep",
                                                       "other", "sig",   "fault"};

static tk_status rd_image(rd *d)
{
    rec_raw *r = d->r;
    uint32_t id, nm;
    rec_image im;
    if (!num32(d, &id) || !num(d, 16, &im.lo) || !num(d, 10, &im.size) || !num(d, 16, &im.bias))
        return bad(d, "malformed image line");
    if (id != r->images.len + 1) return bad(d, "image ids out of order");
    int ok = name(d, &nm);
    if (ok < 0) return nomem(d);
    im.name = nm;
    return TK_VEC_PUSH(&r->images, im) ? nomem(d) : TK_OK;
}

static tk_status rd_file(rd *d)
{
    pending f;
    memset(&f, 0, sizeof f);
    f.line = d->line;
    if (!num32(d, &f.id) || f.id == 0) return bad(d, "malformed file line");
    if (name(d, &f.name) < 0) return nomem(d);
    return TK_VEC_PUSH(&d->files, f) ? nomem(d) : TK_OK;
}

static tk_status rd_sym(rd *d)
{
    rec_sym s;
    uint32_t id;
    if (!num32(d, &id) || !num32(d, &s.image) || !num(d, 16, &s.addr))
        return bad(d, "malformed sym line");
    if (id != d->r->syms.len + 1) return bad(d, "symbol ids out of order");
    if (name(d, &s.name) < 0) return nomem(d);
    return TK_VEC_PUSH(&d->r->syms, s) ? nomem(d) : TK_OK;
}

static tk_status rd_sb(rd *d)
{
    rec_raw *r = d->r;
    uint32_t id;
    rec_sb sb;
    memset(&sb, 0, sizeof sb);
    if (!num32(d, &id) || !num32(d, &sb.image) || !num(d, 16, &sb.addr))
        return bad(d, "malformed sb line");
    if (id != r->sbs.len + 1) return bad(d, "superblock ids out of order");
    sb.lens = (uint32_t)r->lens.len;
    while (*d->s == ' ' || *d->s == ',') {
        d->s++;
        const char *p = d->s;
        uint64_t v;
        if (tk_num_scan_dec(&p, d->end, &v) != TK_OK || v == 0 || v > 255)
            return bad(d, "bad instruction length");
        d->s += p - d->s;
        if (TK_VEC_PUSH(&r->lens, (uint8_t)v)) return nomem(d);
        if (++sb.ninstrs > MAX_SB_INSTRS) return bad(d, "a superblock of too many instructions");
    }
    if (*d->s || !sb.ninstrs) return bad(d, "malformed instruction lengths");
    sb.src = (uint32_t)r->srcs.len;
    sb.fn = (uint32_t)r->fns.len;
    return TK_VEC_PUSH(&r->sbs, sb) ? nomem(d) : TK_OK;
}

/* src SB INDEX FILE LINE, fn SB INDEX SYMBOL: runs of the superblock just read. */
static tk_status rd_run(rd *d, int fn)
{
    rec_raw *r = d->r;
    uint32_t sb;
    rec_src s;
    memset(&s, 0, sizeof s);
    if (!num32(d, &sb) || !num32(d, &s.index) || !num32(d, &s.file) || (!fn && !num32(d, &s.line)))
        return bad(d, fn ? "malformed fn line" : "malformed src line");
    if (sb == 0 || sb != r->sbs.len || s.index >= r->sbs.data[sb - 1].ninstrs)
        return bad(d, "a src or fn line that does not follow its superblock");
    if (fn && s.file > r->syms.len) return bad(d, "a fn line of an unknown symbol");
    rec_src_vec *v = fn ? &r->fns : &r->srcs;
    if (TK_VEC_PUSH(v, s)) return nomem(d);
    if (fn)
        r->sbs.data[sb - 1].nfn++;
    else
        r->sbs.data[sb - 1].nsrc++;
    return TK_OK;
}

static tk_status rd_exit(rd *d)
{
    rec_raw *r = d->r;
    pending p;
    memset(&p, 0, sizeof p);
    p.line = d->line;
    rec_exit *e = &p.e;
    if (!num32(d, &p.id) || !num32(d, &e->sb) || !num32(d, &e->instr) || p.id == 0)
        return bad(d, "malformed exit line");
    while (*d->s == ' ') d->s++;
    size_t k = 0;
    for (; k < REC_KIND_COUNT; k++) {
        size_t n = strlen(kind_names[k]);
        if (strncmp(d->s, kind_names[k], n) == 0 && d->s[n] == ' ') break;
    }
    if (k == REC_KIND_COUNT || k == REC_START) return bad(d, "unknown exit kind");
    e->kind = (uint8_t)k;
    d->s += strlen(kind_names[k]);
    if (strcmp(d->s, " -") == 0) {
        d->s += 2;
    } else {
        if (!num(d, 16, &e->dst)) return bad(d, "malformed exit target");
        e->has_dst = 1;
    }
    if (e->sb == 0 || e->sb > r->sbs.len || e->instr >= r->sbs.data[e->sb - 1].ninstrs)
        return bad(d, "an exit of an unknown superblock or instruction");
    return TK_VEC_PUSH(&d->exits, p) ? nomem(d) : TK_OK;
}

/* The exits and files by id, now that their lines are all read. */
static tk_status rd_tables(rd *d)
{
    rec_raw *r = d->r;
    size_t n = d->exits.len;
    if (TK_VEC_RESERVE(&r->exits, n + 1) || TK_VEC_RESERVE(&r->exit_seen, n + 1)) return nomem(d);
    memset(r->exits.data + 1, 0, sizeof *r->exits.data * n);
    memset(r->exit_seen.data + 1, 0, n);
    r->exits.len = r->exit_seen.len = n + 1;
    for (size_t i = 0; i < n; i++) {
        const pending *p = &d->exits.data[i];
        d->line = p->line;
        if (p->id > n) return bad(d, "an exit id beyond the number of exits");
        if (r->exit_seen.data[p->id]) return bad(d, "an exit id given twice");
        r->exits.data[p->id] = p->e;
        r->exit_seen.data[p->id] = 1;
    }
    n = d->files.len;
    if (tk_vec_reserve_zeroed_((void **)&r->files.data, &r->files.cap, n + 1,
                               sizeof *r->files.data))
        return nomem(d);
    for (size_t i = 0; i <= n; i++) r->files.data[i] = UINT32_MAX;
    r->files.len = n + 1;
    for (size_t i = 0; i < n; i++) {
        const pending *p = &d->files.data[i];
        d->line = p->line;
        if (p->id > n) return bad(d, "a file id beyond the number of files");
        if (r->files.data[p->id] != UINT32_MAX) return bad(d, "a file id given twice");
        r->files.data[p->id] = p->name;
    }
    return TK_OK;
}

static tk_status rd_edge(rd *d)
{
    rec_raw *r = d->r;
    rec_edge e;
    if (!num32(d, &e.id) || !num32(d, &e.exit) || !num32(d, &e.tgt) || !num32(d, &e.dyn) ||
        !num32(d, &e.thread) || !num(d, 10, &e.count) || e.id == 0 || e.dyn > 2)
        return bad(d, "malformed edge line");
    if (e.id > r->max_edge_id) r->max_edge_id = e.id;
    return TK_VEC_PUSH(&r->edges, e) ? nomem(d) : TK_OK;
}

static tk_status rd_end(rd *d)
{
    rec_end e;
    if (!num32(d, &e.thread) || !num32(d, &e.exit) || !num32(d, &e.traced))
        return bad(d, "malformed end line");
    return TK_VEC_PUSH(&d->r->ends, e) ? nomem(d) : TK_OK;
}

/* wi ID ADDR SB INDEX CTL NPORTS POINTS NAMES (POINTS: ports:venc,...) */
static tk_status rd_winsn(rd *d)
{
    rec_raw *r = d->r;
    rec_winsn w;
    memset(&w, 0, sizeof w);
    uint32_t id, nports;
    if (!num32(d, &id) || !num(d, 16, &w.addr) || !num32(d, &w.sb) || !num32(d, &w.index))
        return bad(d, "malformed wi line");
    if (id != r->winsns.len + 1) return bad(d, "WET instruction ids out of order");
    while (*d->s == ' ') d->s++;
    size_t k = 0;
    for (; k < REC_KIND_COUNT; k++) {
        size_t n = strlen(kind_names[k]);
        if (strncmp(d->s, kind_names[k], n) == 0 && d->s[n] == ' ') break;
    }
    if (k == REC_KIND_COUNT) return bad(d, "unknown exit kind of a WET instruction");
    w.ctl = (uint8_t)k;
    d->s += strlen(kind_names[k]);
    if (!num32(d, &nports) || nports > 255) return bad(d, "malformed wi ports");
    w.nports = (uint16_t)nports;
    w.pts = (uint32_t)r->wpts.len;
    while (*d->s == ' ') d->s++;
    if (*d->s == '-') {
        d->s++;
    } else {
        for (;;) {
            const char *p = d->s;
            uint64_t np, venc;
            if (tk_num_scan_dec(&p, d->end, &np) != TK_OK || *p != ':')
                return bad(d, "malformed wi point");
            p++;
            if (tk_num_scan_dec(&p, d->end, &venc) != TK_OK || np > nports ||
                (venc != 0 && venc != 1 && venc != 16 && venc != 32) || w.npoints == 255)
                return bad(d, "malformed wi point");
            if (TK_VEC_PUSH(&r->wpts, (uint8_t)np) || TK_VEC_PUSH(&r->wpts, (uint8_t)venc))
                return nomem(d);
            w.npoints++;
            d->s += p - d->s;
            if (*d->s != ',') break;
            d->s++;
        }
    }
    if (*d->s != ' ') return bad(d, "malformed wi line");
    if (name(d, &w.names) < 0) return nomem(d);
    return TK_VEC_PUSH(&r->winsns, w) ? nomem(d) : TK_OK;
}

static tk_status rd_header(rd *d, const char *key)
{
    rec_raw *r = d->r;
    uint64_t v;
    if (!strcmp(key, "pid")) return num(d, 10, &r->pid) ? TK_OK : bad(d, "malformed pid");
    if (!strcmp(key, "ppid")) return num(d, 10, &r->ppid) ? TK_OK : bad(d, "malformed ppid");
    if (!strcmp(key, "gen")) return num32(d, &r->gen) ? TK_OK : bad(d, "malformed gen");
    if (!strcmp(key, "trace")) {
        if (!num(d, 10, &v)) return bad(d, "malformed trace");
        r->trace = v != 0;
        return TK_OK;
    }
    if (!strcmp(key, "threads"))
        return num32(d, &r->nthreads) && num32(d, &r->folded) && r->nthreads <= MAX_THREADS
                   ? TK_OK
                   : bad(d, "malformed threads");
    if (!strcmp(key, "exe")) return name(d, &r->exe) < 0 ? nomem(d) : TK_OK;
    if (!strcmp(key, "arg")) {
        uint32_t a;
        if (name(d, &a) < 0 || TK_VEC_PUSH(&r->args, a)) return nomem(d);
        return TK_OK;
    }
    if (!strcmp(key, "end-of-run")) {
        while (*d->s == ' ') d->s++;
        size_t n = strcspn(d->s, " ");
        if (n == 0 || n >= sizeof r->end_reason) return bad(d, "malformed end-of-run");
        memcpy(r->end_reason, d->s, n);
        r->end_reason[n] = 0;
        d->s += n;
        const char *p = d->s + (*d->s == ' ');
        int64_t st = 0;
        if (p < d->end && (tk_num_scan_signed(&p, d->end, TK_NUM_DEC | TK_NUM_SIGN, &st) != TK_OK ||
                           p != d->end || st < INT_MIN || st > INT_MAX))
            return bad(d, "malformed end-of-run status");
        r->end_status = (int)st;
        return TK_OK;
    }
    return TK_END;
}

static tk_status rd_line(rd *d, char *line)
{
    size_t len = strlen(line);
    char *sp = memchr(line, ' ', len);
    const char *key = line;
    if (sp) *sp = 0;
    d->end = line + len;
    d->s = sp ? sp + 1 : line + len;
    if (!strcmp(key, "sb")) return rd_sb(d);
    if (!strcmp(key, "src")) return rd_run(d, 0);
    if (!strcmp(key, "fn")) return rd_run(d, 1);
    if (!strcmp(key, "exit")) return rd_exit(d);
    if (!strcmp(key, "edge")) return rd_edge(d);
    if (!strcmp(key, "sym")) return rd_sym(d);
    if (!strcmp(key, "file")) return rd_file(d);
    if (!strcmp(key, "image")) return rd_image(d);
    if (!strcmp(key, "end")) return rd_end(d);
    if (!strcmp(key, "wi")) return rd_winsn(d);
    if (!strcmp(key, "wet")) {
        uint64_t n, values;
        d->r->wet = 1;
        if (!num(d, 10, &d->r->wet_history) || !num(d, 10, &n) || !num(d, 10, &values) ||
            values > 1)
            return bad(d, "malformed wet line");
        d->r->wet_values = (int)values;
        return TK_OK;
    }
    if (!strcmp(key, "done")) {
        d->r->done = 1;
        return TK_OK;
    }
    if (!strcmp(key, "running")) return TK_OK;
    tk_status st = rd_header(d, key);
    return st == TK_END ? TK_OK : st; /* unknown records: later versions' */
}

/* References between the records: every edge's exit and superblock, every
 * end's exit, every superblock's image exist. */
static tk_status rd_links(rd *d)
{
    rec_raw *r = d->r;
    d->line = 0;
    for (size_t i = 0; i < r->syms.len; i++)
        if (r->syms.data[i].image == 0 || r->syms.data[i].image > r->images.len)
            return bad(d, "a symbol of an unknown image");
    for (size_t i = 0; i < r->sbs.len; i++)
        if (r->sbs.data[i].image == 0 || r->sbs.data[i].image > r->images.len)
            return bad(d, "a superblock of an unknown image");
    for (size_t i = 0; i < r->edges.len; i++) {
        const rec_edge *e = &r->edges.data[i];
        if (e->exit && (e->exit >= r->exits.len || !r->exit_seen.data[e->exit]))
            return bad(d, "an edge of an unknown exit");
        if (e->tgt == 0 || e->tgt > r->sbs.len) return bad(d, "an edge into an unknown superblock");
        if (e->thread >= r->nthreads) return bad(d, "an edge of an unknown thread");
    }
    /* edge record ids are dense (every record of a raw file ran): the trace's tables are
     * indexed by them */
    if (r->max_edge_id > r->edges.len)
        return bad(d, "an edge record id beyond the number of edges");
    uint8_t *seen = tk_calloc(r->edges.len + 1, 1);
    if (!seen) return nomem(d);
    for (size_t i = 0; i < r->edges.len; i++) {
        if (seen[r->edges.data[i].id]++) {
            tk_free(seen);
            return bad(d, "an edge record id given twice");
        }
    }
    tk_free(seen);
    if (r->done && r->nthreads > r->ends.len) return bad(d, "threads without their end");
    for (size_t i = 0; i < r->winsns.len; i++) {
        const rec_winsn *w = &r->winsns.data[i];
        if (w->sb == 0 || w->sb > r->sbs.len || w->index >= r->sbs.data[w->sb - 1].ninstrs)
            return bad(d, "a WET instruction of an unknown superblock");
    }
    for (size_t i = 0; i < r->ends.len; i++) {
        const rec_end *e = &r->ends.data[i];
        if (e->exit && (e->exit >= r->exits.len || !r->exit_seen.data[e->exit]))
            return bad(d, "a thread end at an unknown exit");
        if (e->thread >= r->nthreads) return bad(d, "the end of an unknown thread");
    }
    return TK_OK;
}

/* Whether image name is the program's file exe: the same file (the program as the process
 * named it, relative to tracekit's folder: the recorded program's own), else the same file
 * name (a file since removed, a child's relative name). */
static int is_program(const char *exe, const char *name, const struct stat *exe_st)
{
    struct stat st;
    if (exe_st && stat(name, &st) == 0)
        return st.st_dev == exe_st->st_dev && st.st_ino == exe_st->st_ino;
    const char *a = strrchr(exe, '/'), *b = strrchr(name, '/');
    return !strcmp(a ? a + 1 : exe, b ? b + 1 : name);
}

/* The interpreter of a script (its "#!" line's first word, which Valgrind runs) into buf;
 * 0 when exe is not a script. */
static int script_interpreter(const char *exe, char *buf, size_t size)
{
    struct stat st;
    if (stat(exe, &st) != 0 || !S_ISREG(st.st_mode)) return 0; /* never a FIFO's read */
    int fd = open(exe, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t got = read(fd, buf, size - 1); /* a regular file: all of it, or up to its end */
    close(fd);
    size_t n = got > 0 ? (size_t)got : 0;
    buf[n] = 0;
    if (n < 3 || buf[0] != '#' || buf[1] != '!') return 0;
    char *p = buf + 2;
    while (*p == ' ' || *p == '\t') p++;
    size_t len = strcspn(p, " \t\r\n");
    if (!len) return 0;
    memmove(buf, p, len);
    buf[len] = 0;
    return 1;
}

/* The id of the image of the program (exe, or the interpreter when exe is a script); 0
 * when no image is. */
static uint32_t program_image(const rec_raw *r, const char *exe)
{
    char interp[256];
    for (int pass = 0; pass < 2; pass++) {
        struct stat st;
        int have = *exe && stat(exe, &st) == 0;
        for (size_t i = 0; i < r->images.len; i++)
            if (is_program(exe, rec_str(r, r->images.data[i].name), have ? &st : NULL))
                return (uint32_t)i + 1;
        if (pass || !script_interpreter(exe, interp, sizeof interp)) break;
        exe = interp;
    }
    return 0;
}

/* The program's image first, as in SDE's files (Valgrind maps the loader's code before
 * the program's runs: its image would be image 2 or 3); the others keep their order. A
 * script's program is its interpreter, as Valgrind runs it. */
static void program_first(rec_raw *r)
{
    if (!r->exe || r->images.len < 2) return;
    uint32_t main = program_image(r, rec_str(r, r->exe));
    if (main <= 1) return;
    rec_image im = r->images.data[main - 1];
    memmove(r->images.data + 1, r->images.data, sizeof *r->images.data * (main - 1));
    r->images.data[0] = im;
    /* id main becomes 1, ids 1..main-1 move up by one */
    for (size_t i = 0; i < r->sbs.len; i++) {
        uint32_t *id = &r->sbs.data[i].image;
        *id = *id == main ? 1 : *id < main ? *id + 1 : *id;
    }
    for (size_t i = 0; i < r->syms.len; i++) {
        uint32_t *id = &r->syms.data[i].image;
        *id = *id == main ? 1 : *id < main ? *id + 1 : *id;
    }
}

tk_status tk_rec_input_open(tk_input **out, const char *path, tk_error *err)
{
    tk_input_options io = TK_INPUT_OPTIONS_INIT;
    io.no_decompress = 1; /* tkrecord's own files, read as written */
    tk_error e;
    tk_error_clear(&e);
    *out = NULL;
    tk_status st = tk_input_open(out, path, &io, &e);
    if (st == TK_OK) return TK_OK;
    if (st != TK_ERR_IO) {
        if (err) *err = e;
        return st;
    }
    static const char opening[] = "cannot open: "; /* tk_input's words before the reason */
    const char *why = e.message;
    if (!strncmp(why, opening, sizeof opening - 1)) why += sizeof opening - 1;
    return tk_error_set(err, TK_ERR_IO, "cannot open %s: %s", path, why);
}

tk_status tk_rec_raw_read(rec_raw *r, const char *path, tk_error *err)
{
    memset(r, 0, sizeof *r);
    r->path = tk_strdup(path);
    rd d;
    memset(&d, 0, sizeof d);
    d.r = r;
    d.err = err;
    if (!r->path) return nomem(&d);
    tk_input_options io = {0};
    io.no_decompress = 1; /* tkrecord's own files, read as written */
    tk_input *in = NULL;
    tk_status st = tk_input_open(&in, path, &io, err);
    if (st != TK_OK) return st;
    tk_bytes_out line = {0}; /* the line, NUL-terminated for rd_line */
    rec_exit start;
    memset(&start, 0, sizeof start);
    if (TK_VEC_PUSH(&r->exits, start) || TK_VEC_PUSH(&r->exit_seen, (uint8_t)1) ||
        TK_VEC_PUSH(&r->strings, '\0'))
        st = nomem(&d);
    const char *s;
    size_t n;
    while (st == TK_OK && (st = tk_input_getline(in, &s, &n, err)) == TK_OK) {
        d.line++;
        line.len = 0;
        tk_bytes_put(&line, s, n);
        if (!tk_bytes_cstr(&line)) {
            st = nomem(&d);
        } else if (n && memchr(s, 0, n)) {
            st = bad(&d, "a NUL byte in a line");
        } else if (d.line == 1 && strncmp((char *)line.p, "TKRECORD 1", 10) != 0) {
            st = bad(&d, "not a tkrecord raw file of version 1");
        } else if (d.line > 1) {
            st = rd_line(&d, (char *)line.p);
        }
    }
    if (st == TK_END) st = TK_OK;
    if (st == TK_OK && d.line == 0) st = bad(&d, "an empty file, not a tkrecord raw file");
    tk_free(line.p);
    tk_input_free(in);
    if (st == TK_OK) st = rd_tables(&d);
    if (st == TK_OK) st = rd_links(&d);
    if (st == TK_OK) program_first(r);
    TK_VEC_FREE(&d.exits);
    TK_VEC_FREE(&d.files);
    return st;
}

void tk_rec_raw_free(rec_raw *r)
{
    tk_free(r->path);
    TK_VEC_FREE(&r->strings);
    TK_VEC_FREE(&r->args);
    TK_VEC_FREE(&r->images);
    TK_VEC_FREE(&r->files);
    TK_VEC_FREE(&r->syms);
    TK_VEC_FREE(&r->sbs);
    TK_VEC_FREE(&r->lens);
    TK_VEC_FREE(&r->srcs);
    TK_VEC_FREE(&r->fns);
    TK_VEC_FREE(&r->exits);
    TK_VEC_FREE(&r->exit_seen);
    TK_VEC_FREE(&r->edges);
    TK_VEC_FREE(&r->ends);
    TK_VEC_FREE(&r->winsns);
    TK_VEC_FREE(&r->wpts);
    memset(r, 0, sizeof *r);
}
