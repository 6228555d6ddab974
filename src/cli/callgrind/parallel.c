/* Callgrind profiles read on --jobs threads: each input read into a profile of its own
 * (what reading it noted kept aside), made into a result (report: its summary partial,
 * tk_prof_partial_open) and merged with the others' in input order as soon as the earlier
 * ones are merged, so that the result is the same with any number of jobs. Memory: the
 * profiles being read, at most twice --jobs results waiting for their merge, the merged
 * result. When anything fails, nothing has been printed: the caller reads the inputs one
 * after the other as tracekit always did, which says what failed, where, as it says it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "callgrind.h"
#include "team.h"

/* ---- notes kept as bytes ------------------------------------------------------------ */

static int note_put(cli_callgrind_noted *n, const void *data, size_t len)
{
    if (n->failed) return -1;
    if (n->size + len > n->cap) {
        size_t cap = n->cap ? n->cap : 256;
        while (cap < n->size + len) cap *= 2;
        uint8_t *d = realloc(n->data, cap);
        if (!d) {
            n->failed = 1;
            return -1;
        }
        n->data = d;
        n->cap = cap;
    }
    memcpy(n->data + n->size, data, len);
    n->size += len;
    return 0;
}

static void note_u64(cli_callgrind_noted *n, uint64_t v) { note_put(n, &v, sizeof v); }

static void note_str(cli_callgrind_noted *n, const char *s)
{
    uint64_t len = s ? strlen(s) : 0;
    note_u64(n, len);
    note_put(n, s ? s : "", (size_t)len);
}

static void encode_note(void *ctx, tk_severity sev, const tk_location *loc, const char *message)
{
    (void)sev;
    cli_callgrind_noted *n = ctx;
    note_str(n, loc->path);
    note_u64(n, (uint64_t)loc->offset);
    note_u64(n, loc->line);
    note_u64(n, loc->column);
    note_str(n, message);
}

void cli_callgrind_noted_sink(tk_diag *d, cli_callgrind_noted *n)
{
    tk_diag_init(d, encode_note, n);
}

void cli_callgrind_noted_append(cli_callgrind_noted *to, const cli_callgrind_noted *from)
{
    if (from->failed) to->failed = 1;
    if (from->size) note_put(to, from->data, from->size);
}

void cli_callgrind_noted_free(cli_callgrind_noted *n)
{
    free(n->data);
    memset(n, 0, sizeof *n);
}

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static int get_u64(reader *r, uint64_t *v)
{
    if ((size_t)(r->end - r->p) < sizeof *v) return -1;
    memcpy(v, r->p, sizeof *v);
    r->p += sizeof *v;
    return 0;
}

/* A string of the notes into buf (NUL-terminated, cut to size). */
static int get_str(reader *r, char *buf, size_t size)
{
    uint64_t n;
    if (get_u64(r, &n) != 0 || n > (uint64_t)(r->end - r->p)) return -1;
    size_t keep = n < size - 1 ? (size_t)n : size - 1;
    memcpy(buf, r->p, keep);
    buf[keep] = 0;
    r->p += n;
    return 0;
}

void cli_callgrind_noted_say(const uint8_t *data, size_t size, cli_callgrind_notes *notes)
{
    reader r = {data, size ? data + size : data}; /* (NULL + 0 is undefined) */
    char path[TK_ERROR_PATH_MAX], message[TK_ERROR_MSG_MAX];
    tk_diag sink;
    cli_callgrind_notes_sink(&sink, notes);
    while (r.p < r.end) {
        uint64_t offset, line, column;
        if (get_str(&r, path, sizeof path) || get_u64(&r, &offset) || get_u64(&r, &line) ||
            get_u64(&r, &column) || get_str(&r, message, sizeof message))
            return; /* not what encode_note wrote: cannot happen */
        tk_location loc = {path, (int64_t)offset, line, column};
        sink.fn(sink.ctx, TK_SEV_WARNING, &loc, message);
    }
}

/* ---- the reading ------------------------------------------------------------------------ */

typedef struct input {
    void *result;
    cli_callgrind_noted notes;
    int failed, done;
} input;

typedef struct run {
    cli_ctx *ctx;
    const tk_callgrind_read_options *how;
    const cli_callgrind_each *each;
    input *in;
    int next, merged, merging, failed;
    int window; /* inputs read ahead of the merge at most */
    void *acc;
    pthread_mutex_t lock;
    pthread_cond_t moved;
} run;

/* Input i read and made into its result (in->failed when either fails). */
static void read_input(run *r, int i, input *in)
{
    tk_profile *p = NULL;
    tk_diag sink;
    cli_callgrind_noted_sink(&sink, &in->notes);
    tk_callgrind_read_options o = *r->how;
    o.path = r->ctx->paths[i];
    o.notes = &sink;
    tk_input *file = r->ctx->inputs[i]; /* closed by the dispatcher (lazy): opened here */
    in->failed =
        (!file && tk_input_open(&file, r->ctx->paths[i], &r->ctx->input_opt, NULL) != TK_OK) ||
        tk_profile_open(&p, NULL) != TK_OK || tk_callgrind_read_input(p, file, &o, NULL) != TK_OK;
    if (!in->failed) {
        in->failed = r->each->make(r->each->arg, p, &in->result) != 0;
        p = NULL; /* taken over */
    }
    tk_profile_free(p);
    tk_input_free(file); /* read once: its buffers and mapping go */
    r->ctx->inputs[i] = NULL;
}

/* The results done, in order, into acc, by one worker at a time (the lock held on entry and
 * exit, not while merging). */
static void merge_ready(run *r)
{
    if (r->merging) return;
    r->merging = 1;
    while (r->merged < r->ctx->hi && r->in[r->merged].done) {
        input *in = &r->in[r->merged];
        void *res = in->result;
        in->result = NULL;
        int bad = in->failed || r->failed;
        pthread_mutex_unlock(&r->lock);
        if (!bad) { /* the merge takes res over */
            bad = r->each->merge(r->each->arg, &r->acc, res) != 0;
            res = NULL;
        }
        if (res) r->each->free(res);
        pthread_mutex_lock(&r->lock);
        if (bad) r->failed = 1;
        r->merged++;
        pthread_cond_broadcast(&r->moved);
    }
    r->merging = 0;
}

static void *worker(void *arg)
{
    run *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (r->next < r->ctx->hi && !r->failed && r->next - r->merged >= r->window)
            pthread_cond_wait(&r->moved, &r->lock);
        if (r->next >= r->ctx->hi || r->failed) break;
        int i = r->next++;
        pthread_mutex_unlock(&r->lock);
        read_input(r, i, &r->in[i]);
        pthread_mutex_lock(&r->lock);
        r->in[i].done = 1;
        merge_ready(r);
    }
    pthread_cond_broadcast(&r->moved);
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* The workers (this thread one of them), until every input is merged or one failed. */
static void run_workers(run *r, unsigned jobs)
{
    pthread_t th[256];
    unsigned started = 0, n = (unsigned)(r->ctx->hi - r->ctx->lo);
    if (jobs > n) jobs = n ? n : 1;
    for (unsigned k = 1; k < jobs; k++)
        if (pthread_create(&th[started], NULL, worker, r) == 0) started++;
    worker(r);
    for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
    pthread_mutex_lock(&r->lock); /* the inputs read when one failed, and not merged */
    for (int i = r->merged; i < r->ctx->hi; i++)
        if (r->in[i].result) r->each->free(r->in[i].result);
    pthread_mutex_unlock(&r->lock);
}

int cli_callgrind_read_parallel(cli_ctx *ctx, const tk_callgrind_read_options *how, unsigned jobs,
                                const cli_callgrind_each *each, void **acc,
                                cli_callgrind_noted *notes)
{
    *acc = NULL;
    memset(notes, 0, sizeof *notes);
    run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.how = how;
    r.each = each;
    r.next = r.merged = ctx->lo;
    r.window = each->window ? each->window : 2 * (int)(jobs ? jobs : 1);
    r.in = calloc((size_t)ctx->ninputs + 1, sizeof *r.in);
    if (!r.in || pthread_mutex_init(&r.lock, NULL) != 0) {
        free(r.in);
        return -1;
    }
    pthread_cond_init(&r.moved, NULL);
    run_workers(&r, jobs);
    for (int i = ctx->lo; i < ctx->hi; i++) {
        cli_callgrind_noted_append(notes, &r.in[i].notes);
        cli_callgrind_noted_free(&r.in[i].notes);
    }
    pthread_cond_destroy(&r.moved);
    pthread_mutex_destroy(&r.lock);
    free(r.in);
    if (r.failed || notes->failed) {
        if (r.acc) each->free(r.acc);
        cli_callgrind_noted_free(notes);
        return -1;
    }
    *acc = r.acc;
    return 0;
}

/* ---- the summary partials of a report ------------------------------------------------ */

static int make_partial(void *arg, tk_profile *p, void **out)
{
    tk_prof_partial *pp = NULL;
    tk_status st = tk_prof_partial_take(&pp, p, arg, NULL);
    *out = pp;
    return st == TK_OK ? 0 : -1;
}

static int merge_partial(void *arg, void **acc, void *later)
{
    (void)arg;
    if (!*acc) {
        *acc = later;
        return 0;
    }
    tk_status st = tk_prof_partial_merge(*acc, later, NULL);
    tk_prof_partial_free(later);
    return st == TK_OK ? 0 : -1;
}

static void free_partial(void *x) { tk_prof_partial_free(x); }

int cli_callgrind_own_partial(cli_ctx *ctx, const tk_callgrind_read_options *how,
                              const tk_prof_partial_options *po, unsigned jobs,
                              tk_prof_partial **out, cli_callgrind_noted *notes)
{
    cli_callgrind_each each = {(void *)(uintptr_t)po, make_partial, merge_partial, free_partial, 0};
    void *acc = NULL;
    *out = NULL;
    if (cli_callgrind_read_parallel(ctx, how, jobs, &each, &acc, notes) != 0) return -1;
    if (acc && tk_prof_partial_check(acc, NULL) != TK_OK) {
        tk_prof_partial_free(acc);
        cli_callgrind_noted_free(notes);
        return -1;
    }
    *out = acc;
    return 0;
}

int cli_callgrind_load_summary(cli_ctx *ctx, const tk_callgrind_read_options *how,
                               const tk_prof_partial_options *po, unsigned jobs,
                               cli_callgrind_notes *notes, tk_prof_partial **pp, tk_profile **p)
{
    *pp = NULL;
    *p = NULL;
    if (ctx->team) return cli_callgrind_team_summary(ctx, how, po, jobs, notes, pp, p);
    cli_callgrind_noted noted;
    if (cli_callgrind_own_partial(ctx, how, po, jobs, pp, &noted) != 0) {
        /* what failed, said as tracekit says it: every input read anew, one after the other */
        int rc = cli_team_reopen_all(ctx);
        return rc == CLI_EXIT_OK ? cli_callgrind_load_range(ctx, how, notes, p) : rc;
    }
    cli_callgrind_noted_say(noted.data, noted.size, notes);
    cli_callgrind_noted_free(&noted);
    return CLI_EXIT_OK;
}

/* ---- the profiles of a merge ------------------------------------------------------------ */

static int keep_profile(void *arg, tk_profile *p, void **out)
{
    (void)arg;
    *out = p;
    return 0;
}

static int merge_profile(void *arg, void **acc, void *later)
{
    (void)acc; /* the merger, arg, is the result */
    tk_status st = tk_profile_merger_add(arg, later, NULL);
    tk_profile_free(later);
    return st == TK_OK ? 0 : -1;
}

static void free_profile(void *x) { tk_profile_free(x); }

int cli_callgrind_load_merged(cli_ctx *ctx, const tk_profile_merge_options *mo, unsigned jobs,
                              tk_profile **out)
{
    *out = NULL;
    tk_callgrind_read_options how = TK_CALLGRIND_READ_OPTIONS_INIT;
    tk_profile_merger *m = NULL;
    tk_error err;
    tk_error_clear(&err);
    if (tk_profile_merger_open(&m, mo, &err) != TK_OK) return cli_error(&err);
    /* whole profiles wait for their turn: no more than one per job */
    cli_callgrind_each each = {m, keep_profile, merge_profile, free_profile, (int)jobs};
    void *acc = NULL;
    cli_callgrind_noted noted;
    int read = cli_callgrind_read_parallel(ctx, &how, jobs, &each, &acc, &noted) == 0;
    if (!read)
        tk_profile_merger_free(m);
    else if (tk_profile_merger_finish(m, out, NULL) == TK_OK) { /* (which frees m) */
        cli_callgrind_noted_say(noted.data, noted.size, NULL);
        cli_callgrind_noted_free(&noted);
        return CLI_EXIT_OK;
    } else
        cli_callgrind_noted_free(&noted);
    /* what failed, said as tracekit says it: every input read anew, one after the other */
    tk_profile *src = NULL;
    int rc = cli_team_reopen_all(ctx);
    if (rc == CLI_EXIT_OK) rc = cli_callgrind_load_range(ctx, &how, NULL, &src);
    if (rc == CLI_EXIT_OK && tk_profile_merged(out, src, mo, &err) != TK_OK) rc = cli_error(&err);
    tk_profile_free(src);
    return rc;
}

/* ---- the profiles of report --part, annotate and convert -------------------------------- */

static int append_profile(void *arg, void **acc, void *later)
{
    (void)arg;
    if (!*acc) {
        *acc = later;
        return 0;
    }
    tk_status st = tk_profile_append(*acc, later, NULL);
    tk_profile_free(later);
    return st == TK_OK ? 0 : -1;
}

/* Whether every input can be read again by its path (a regular file: not standard input or a
 * pipe), as the fallback reads it. */
static int reopenable(const cli_ctx *ctx)
{
    for (int k = ctx->lo; k < ctx->hi; k++) {
        struct stat st;
        if (strcmp(ctx->paths[k], "-") == 0 || stat(ctx->paths[k], &st) != 0 ||
            !S_ISREG(st.st_mode))
            return 0;
    }
    return 1;
}

int cli_callgrind_load_jobs(cli_ctx *ctx, const tk_callgrind_read_options *how, unsigned jobs,
                            cli_callgrind_notes *notes, tk_profile **out)
{
    *out = NULL;
    if (ctx->team || jobs <= 1 || ctx->hi - ctx->lo < 2 || !reopenable(ctx))
        return cli_callgrind_load_with(ctx, how, notes, out);
    /* whole profiles wait for their turn: no more than one per job */
    cli_callgrind_each each = {NULL, keep_profile, append_profile, free_profile, (int)jobs};
    void *acc = NULL;
    cli_callgrind_noted noted;
    if (cli_callgrind_read_parallel(ctx, how, jobs, &each, &acc, &noted) == 0 && acc) {
        cli_callgrind_noted_say(noted.data, noted.size, notes);
        cli_callgrind_noted_free(&noted);
        *out = acc;
        return CLI_EXIT_OK;
    }
    if (acc) tk_profile_free(acc);
    /* what failed, said as tracekit says it: every input read anew, one after the other */
    int rc = cli_team_reopen_all(ctx);
    return rc == CLI_EXIT_OK ? cli_callgrind_load_range(ctx, how, notes, out) : rc;
}
