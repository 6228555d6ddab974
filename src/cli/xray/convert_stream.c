/* convert --to chrome and --to json of XRay traces: every event in order, the traces chained
 * (one after the other, the threads of each after those of the traces before it). With -j N
 * and several traces, the next traces are made ahead on N threads (cli_run_ordered: each
 * trace's part, its events' text, at most N + 1 parts in memory at once) and written here in
 * the order of the traces: the bytes of the traces read one after the other as one stream,
 * with the same error (that of the first trace that fails, after what -j 1 writes before it). */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordered.h"
#include "xray.h"

/* ---- --to json: the events as JSON lines inside one object ---------------------------- */

static void json_head(const tk_event_source *src, FILE *f)
{
    fprintf(f,
            "{\"version\":1,\"clock\":{\"ticks_per_second\":%.0f,\"unit\":\"%s\"},"
            "\"events\":[",
            src->ticks_per_second, src->time_unit);
}

/* The events of src, each after a comma unless *first (cleared by the first). Returns TK_END
 * at the end of src, else its error. */
static tk_status json_events(const tk_event_source *src, FILE *f, int *first, tk_error *err)
{
    tk_event ev;
    tk_status st;
    char nb[64];
    while ((st = src->next(src->ctx, &ev, err)) == TK_OK) {
        fprintf(f,
                "%s\n{\"kind\":\"%s\",\"pid\":%" PRId64 ",\"tid\":%" PRId64 ",\"cpu\":%" PRIu32
                ",\"time\":%" PRIu64,
                *first ? "" : ",", tk_event_kind_name(ev.kind), ev.pid, ev.tid, ev.cpu, ev.time);
        *first = 0;
        if (ev.kind <= TK_EVENT_TAIL_EXIT) {
            fprintf(f, ",\"func\":%" PRIu64 ",\"name\":", ev.func);
            cli_put_json_string(f, tk_event_func_name(src, ev.func, nb, sizeof nb));
        }
        if (ev.nargs) {
            fputs(",\"args\":[", f);
            for (uint32_t i = 0; i < ev.nargs; i++)
                fprintf(f, "%s%" PRIu64, i ? "," : "", ev.args[i]);
            fputc(']', f);
        }
        if (ev.kind == TK_EVENT_TYPED) fprintf(f, ",\"type\":%" PRIu32, ev.type);
        if (ev.kind == TK_EVENT_CUSTOM || ev.kind == TK_EVENT_TYPED) {
            fputs(",\"data\":\"", f);
            for (size_t i = 0; i < ev.size; i++) fprintf(f, "%02x", ev.data[i]);
            fputc('"', f);
        }
        fputc('}', f);
    }
    return st;
}

tk_status cli_xray_write_json(const tk_event_source *src, FILE *f, tk_error *err)
{
    json_head(src, f);
    int first = 1;
    tk_status st = json_events(src, f, &first, err);
    if (st != TK_END) return st;
    fputs("\n]}\n", f);
    return TK_OK;
}

/* ---- several traces on -j threads ------------------------------------------------------ */

/* ---- a part's JSON text, in blocks that later parts take again ---------------------------- */

#define TEXT_BLOCK (1u << 16)

/* Blocks that parts no longer need (taken on the threads, given back here: under the lock). */
typedef struct text_pool {
    pthread_mutex_t lock;
    char **free;
    size_t n, cap;
} text_pool;

typedef struct text {
    text_pool *pool;
    char **data;
    size_t n, cap;
    size_t last; /* bytes in the last block (the others are full) */
} text;

static char *pool_get(text_pool *pool)
{
    char *b = NULL;
    pthread_mutex_lock(&pool->lock);
    if (pool->n) b = pool->free[--pool->n];
    pthread_mutex_unlock(&pool->lock);
    return b ? b : malloc(TEXT_BLOCK);
}

static void text_free(text *t)
{
    size_t k = 0;
    pthread_mutex_lock(&t->pool->lock);
    if (t->pool->n + t->n > t->pool->cap) {
        size_t ncap = t->pool->cap ? t->pool->cap : 64;
        while (ncap < t->pool->n + t->n) ncap *= 2;
        char **nf = realloc(t->pool->free, ncap * sizeof *nf);
        if (nf) {
            t->pool->free = nf;
            t->pool->cap = ncap;
        }
    }
    for (; k < t->n && t->pool->n < t->pool->cap; k++) t->pool->free[t->pool->n++] = t->data[k];
    pthread_mutex_unlock(&t->pool->lock);
    for (; k < t->n; k++) free(t->data[k]);
    free(t->data);
    t->data = NULL;
    t->n = t->cap = t->last = 0;
}

/* The stream's bytes appended (fopencookie's write): size, or 0 when out of memory. */
static ssize_t text_write(void *ctx, const char *buf, size_t size)
{
    text *t = ctx;
    for (size_t done = 0; done < size;) {
        if (t->n == 0 || t->last == TEXT_BLOCK) {
            if (t->n == t->cap) {
                size_t ncap = t->cap ? t->cap * 2 : 64;
                char **nd = realloc(t->data, ncap * sizeof *nd);
                if (!nd) return 0;
                t->data = nd;
                t->cap = ncap;
            }
            if (!(t->data[t->n] = pool_get(t->pool))) return 0;
            t->n++;
            t->last = 0;
        }
        size_t k = TEXT_BLOCK - t->last < size - done ? TEXT_BLOCK - t->last : size - done;
        memcpy(t->data[t->n - 1] + t->last, buf + done, k);
        t->last += k;
        done += k;
    }
    return (ssize_t)size;
}

/* ---- several traces on -j threads ------------------------------------------------------ */

/* One trace's part: chrome's, or json's text (its events each after a comma). */
typedef struct stream_part {
    tk_chrome_part *chrome;
    text json;
    tk_status st; /* json: TK_END, or the failure in err; chrome: a part not made */
    tk_error err;
} stream_part;

typedef struct stream_jobs {
    int chrome;
    cli_xray_session *s;
    stream_part *parts;
    FILE *f;
    tk_chrome_join *join;
    text_pool pool; /* json's */
    int first; /* json: no event written yet */
} stream_jobs;

static void part_make(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_error_clear(&p->err);
    if (j->chrome) {
        p->st = tk_chrome_part_open(&p->chrome, j->join, &j->s[i].src, &p->err);
        return;
    }
    p->json.pool = &j->pool;
    FILE *mem = fopencookie(&p->json, "w", (cookie_io_functions_t){.write = text_write});
    if (!mem) {
        p->st = tk_error_set(&p->err, TK_ERR_NOMEM, "out of memory");
        return;
    }
    int first = 0;
    p->st = json_events(&j->s[i].src, mem, &first, &p->err);
    int lost = ferror(mem) != 0; /* a block not had (text_write's 0) */
    if ((fclose(mem) != 0 || lost) && p->st == TK_END)
        p->st = tk_error_set(&p->err, TK_ERR_NOMEM, "out of memory keeping a trace's events");
}

static void part_drop(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_chrome_part_free(p->chrome);
    if (p->json.pool) text_free(&p->json);
    memset(p, 0, sizeof *p);
}

/* s[0..len) after the events before: the first event of all has no comma. */
static void json_text(stream_jobs *j, const char *s, size_t len)
{
    if (len && j->first) {
        s++;
        len--;
        j->first = 0;
    }
    if (len) (void)!fwrite(s, 1, len, j->f);
}

/* The part's events after those before (fwrite's failures found when the output is closed, as
 * fprintf's are with -j 1). Returns an exit code: the part's failure after its events before it. */
static int part_done(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_error err;
    tk_error_clear(&err);
    int rc = CLI_EXIT_OK;
    if (j->chrome) {
        if (!p->chrome)
            rc = cli_error(&p->err);
        else if (tk_chrome_join_add(j->join, p->chrome, &err) != TK_OK)
            rc = cli_error(&err);
    } else {
        for (size_t k = 0; k < p->json.n; k++)
            json_text(j, p->json.data[k], k + 1 < p->json.n ? TEXT_BLOCK : p->json.last);
        if (p->st != TK_END) rc = cli_error(&p->err);
    }
    part_drop(arg, i);
    return rc;
}

int cli_xray_convert_stream(int chrome, cli_xray_session *s, int n, unsigned jobs,
                            const tk_event_source *chain, FILE *f)
{
    tk_error err;
    tk_error_clear(&err);
    stream_jobs j = {.chrome = chrome, .s = s, .f = f, .first = 1};
    j.parts = calloc((size_t)n, sizeof *j.parts);
    if (!j.parts || pthread_mutex_init(&j.pool.lock, NULL) != 0) {
        free(j.parts);
        fprintf(stderr, "tracekit: error: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_OK;
    if (chrome && tk_chrome_join_open(&j.join, chain, CLI_WRITER(f), &err) != TK_OK)
        rc = cli_error(&err);
    else if (!chrome)
        json_head(chain, f);
    if (rc == CLI_EXIT_OK) rc = cli_run_ordered(n, jobs, part_make, part_done, part_drop, &j);
    if (rc == CLI_EXIT_OK && chrome && tk_chrome_join_finish(j.join, &err) != TK_OK)
        rc = cli_error(&err);
    else if (rc == CLI_EXIT_OK && !chrome)
        fputs("\n]}\n", f);
    tk_chrome_join_free(j.join);
    for (size_t k = 0; k < j.pool.n; k++) free(j.pool.free[k]);
    free(j.pool.free);
    pthread_mutex_destroy(&j.pool.lock);
    free(j.parts);
    return rc;
}
