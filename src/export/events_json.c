/* JSON events of an events stream (tracekit/events_json.h): each event a line of the object's
 * "events" list, formatted into a block buffer (export/text_out.h); the parts of a chain of
 * sources kept in blocks of a pool (export/text_blocks.h) and joined in order. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "export/text_blocks.h"
#include "export/text_out.h"
#include "model/events.h"
#include "tracekit/events_json.h"
#include "tracekit/textout.h"

/* The writing of a source's events. */
typedef struct ej {
    const tk_event_source *src;
    outbuf *o;
    char *quoted; /* a long name quoted */
    size_t quoted_cap;
    int nomem; /* a name could not be quoted ("" written instead) */
    const tk_event_chain *chain; /* of several sources: each event's is its "trace" */
    int64_t trace; /* the "trace" member of the events, -1 for none (one source) */
} ej;

static void ej_init(ej *w, const tk_event_source *src, outbuf *o)
{
    memset(w, 0, sizeof *w);
    w->src = src;
    w->o = o;
    w->trace = -1;
}

static void ej_free(ej *w) { tk_free(w->quoted); }

/* "{...,"events":[" */
static void put_head(outbuf *o, double ticks_per_second, const char *time_unit)
{
    char num[400]; /* %.0f of a double: at most 309 digits and a sign */
    int n = snprintf(num, sizeof num, "%.0f", ticks_per_second);
    ob_puts(o, "{\"version\":1,\"clock\":{\"ticks_per_second\":");
    ob_write(o, num, (size_t)n);
    ob_puts(o, ",\"unit\":\"");
    ob_puts(o, time_unit ? time_unit : "ticks");
    ob_puts(o, "\"},\"events\":[");
}

static const char END[] = "\n]}\n";

/* The function's name as a JSON string. */
static void put_name(ej *w, uint64_t func)
{
    char nb[64];
    const char *name = tk_event_func_name(w->src, func, nb, sizeof nb);
    size_t n = strlen(name), max = TK_JSON_QUOTED_MAX(n);
    if (max <= 1024) { /* the room an outbuf always has */
        w->o->len += tk_json_quote(ob_room(w->o, max), name, n);
        ob_settle(w->o);
        return;
    }
    if (max > w->quoted_cap) {
        char *q = tk_realloc(w->quoted, max);
        if (!q) {
            w->nomem = 1;
            ob_write(w->o, "\"\"", 2);
            return;
        }
        w->quoted = q;
        w->quoted_cap = max;
    }
    ob_write(w->o, w->quoted, tk_json_quote(w->quoted, name, n));
}

static void put_hex(outbuf *o, const uint8_t *data, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < size; i++) {
        char *p = ob_room(o, 2);
        p[0] = hex[data[i] >> 4];
        p[1] = hex[data[i] & 15];
        o->len += 2;
        ob_settle(o);
    }
}

/* One event's line, after a comma unless first. */
static void put_event(ej *w, const tk_event *ev, int first)
{
    outbuf *o = w->o;
    if (first)
        ob_write(o, "\n{\"kind\":\"", 10);
    else
        ob_write(o, ",\n{\"kind\":\"", 11);
    ob_puts(o, tk_event_kind_name(ev->kind));
    ob_write(o, "\",\"pid\":", 8);
    ob_i64(o, ev->pid);
    ob_write(o, ",\"tid\":", 7);
    ob_i64(o, ev->tid);
    if (w->trace >= 0) {
        ob_write(o, ",\"trace\":", 9);
        ob_u64(o, (uint64_t)w->trace);
    }
    ob_write(o, ",\"cpu\":", 7);
    ob_u64(o, ev->cpu);
    ob_write(o, ",\"time\":", 8);
    ob_u64(o, ev->time);
    if (ev->kind <= TK_EVENT_TAIL_EXIT) {
        ob_write(o, ",\"func\":", 8);
        ob_u64(o, ev->func);
        ob_write(o, ",\"name\":", 8);
        put_name(w, ev->func);
    }
    if (ev->nargs) {
        ob_write(o, ",\"args\":[", 9);
        for (uint32_t i = 0; i < ev->nargs; i++) {
            if (i) ob_write(o, ",", 1);
            ob_u64(o, ev->args[i]);
        }
        ob_write(o, "]", 1);
    }
    if (ev->kind == TK_EVENT_TYPED) {
        ob_write(o, ",\"type\":", 8);
        ob_u64(o, ev->type);
    }
    if (ev->kind == TK_EVENT_CUSTOM || ev->kind == TK_EVENT_TYPED) {
        ob_write(o, ",\"data\":\"", 9);
        put_hex(o, ev->data, ev->size);
        ob_write(o, "\"", 1);
    }
    ob_write(o, "}", 1);
}

/* The events of w's source, the first without its comma when *first (cleared by it). Returns
 * TK_END at the end of the source, else its error. */
static tk_status put_events(ej *w, int *first, tk_error *err)
{
    tk_event ev;
    tk_status st;
    while ((st = w->src->next(w->src->ctx, &ev, err)) == TK_OK) {
        if (w->chain) w->trace = (int64_t)w->chain->cur;
        put_event(w, &ev, *first);
        *first = 0;
    }
    return st;
}

/* st, or what failed on the way (a name, a write) when st is TK_OK. */
static tk_status end_status(tk_status st, int nomem, int failed, tk_error *err)
{
    if (st != TK_OK) return st;
    if (nomem) return tk_error_set(err, TK_ERR_NOMEM, "out of memory writing the JSON events");
    if (failed)
        return tk_error_set(err, TK_ERR_IO, "cannot write the JSON events: %s", strerror(failed));
    return TK_OK;
}

tk_status tk_export_events_json(const tk_event_source *src, const tk_writer *out, tk_error *err)
{
    if (!out || !out->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    outbuf *o = outbuf_open(out);
    if (!o) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    ej w;
    ej_init(&w, src, o);
    const tk_event_chain *chain = tk_event_chain_of(src);
    if (chain && chain->nparts > 1) w.chain = chain;
    put_head(o, src->ticks_per_second, src->time_unit);
    int first = 1;
    tk_status st = put_events(&w, &first, err);
    if (st == TK_END) {
        ob_write(o, END, sizeof END - 1);
        st = TK_OK;
    }
    ob_flush(o); /* the events before a failure too */
    st = end_status(st, w.nomem, o->failed, err);
    ej_free(&w);
    tk_free(o);
    return st;
}

/* ---- the JSON events of sources chained, made part by part ----------------------------- */

struct tk_events_json_part {
    tk_text_blocks text; /* its events, each after ",\n" */
    size_t k; /* its source's place in the chain */
    tk_status st; /* the reading: TK_OK or err */
    tk_error err;
};

struct tk_events_json_join {
    outbuf *o; /* the head and the end; the parts' text goes to o->w as it is */
    tk_text_pool pool; /* the parts' blocks */
    size_t nsources, nparts; /* the chain's sources; the parts added */
    int first; /* no event written yet */
    int failed; /* a write of the parts' text failed (errno) */
};

tk_status tk_events_json_join_open(tk_events_json_join **out, const tk_event_source *src,
                                   const tk_writer *w, tk_error *err)
{
    *out = NULL;
    if (!w || !w->write) return tk_error_set(err, TK_ERR_ARG, "no writer");
    tk_events_json_join *j = tk_calloc(1, sizeof *j);
    if (j) j->o = outbuf_open(w);
    if (!j || !j->o || tk_text_pool_init(&j->pool) != 0) {
        if (j) tk_free(j->o);
        tk_free(j);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    tk_event_chain *chain = tk_event_chain_of(src);
    j->nsources = chain ? chain->nparts : 1;
    j->first = 1;
    put_head(j->o, src->ticks_per_second, src->time_unit);
    ob_flush(j->o);
    *out = j; /* a failed write is found by finish */
    return TK_OK;
}

tk_status tk_events_json_part_open(tk_events_json_part **out, tk_events_json_join *j, size_t k,
                                   const tk_event_source *src, tk_error *err)
{
    *out = NULL;
    if (k >= j->nsources)
        return tk_error_set(err, TK_ERR_ARG, "no source %zu in a chain of %zu", k, j->nsources);
    tk_events_json_part *p = tk_calloc(1, sizeof *p);
    tk_writer w = {tk_text_blocks_write, p ? &p->text : NULL};
    outbuf *o = p ? outbuf_open(&w) : NULL;
    if (!o) {
        tk_free(p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    }
    p->text.pool = &j->pool;
    p->k = k;
    ej e;
    ej_init(&e, src, o);
    if (j->nsources > 1) e.trace = (int64_t)k;
    tk_error_clear(&p->err);
    int first = 0;
    p->st = put_events(&e, &first, &p->err);
    if (p->st == TK_END) p->st = TK_OK;
    ob_flush(o);
    int lost = o->failed || e.nomem;
    ej_free(&e);
    tk_free(o);
    if (lost) {
        tk_events_json_part_free(p);
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory keeping a trace's events");
    }
    *out = p;
    return TK_OK;
}

tk_status tk_events_json_part_status(const tk_events_json_part *p, tk_error *err)
{
    if (p->st != TK_OK && err) *err = p->err;
    return p->st;
}

void tk_events_json_part_free(tk_events_json_part *p)
{
    if (!p) return;
    tk_text_blocks_free(&p->text);
    tk_free(p);
}

/* s[0..n) to the writer (j->failed when it fails). */
static void join_write(tk_events_json_join *j, const char *s, size_t n)
{
    if (!n || j->failed) return;
    errno = 0;
    if (j->o->w.write(j->o->w.ctx, s, n) != 0) j->failed = errno ? errno : EIO;
}

tk_status tk_events_json_join_add(tk_events_json_join *j, const tk_events_json_part *p,
                                  tk_error *err)
{
    if (p->k != j->nparts)
        return tk_error_set(err, TK_ERR_ARG, "the part of source %zu added after %zu parts", p->k,
                            j->nparts);
    j->nparts++;
    for (size_t i = 0; i < p->text.n; i++) {
        const char *s = p->text.data[i];
        size_t n = tk_text_blocks_len(&p->text, i);
        if (n && j->first) { /* the first event of all: no comma */
            s++;
            n--;
            j->first = 0;
        }
        join_write(j, s, n);
    }
    return tk_events_json_part_status(p, err);
}

tk_status tk_events_json_join_finish(tk_events_json_join *j, tk_error *err)
{
    ob_write(j->o, END, sizeof END - 1);
    ob_flush(j->o);
    return end_status(TK_OK, 0, j->o->failed ? j->o->failed : j->failed, err);
}

void tk_events_json_join_free(tk_events_json_join *j)
{
    if (!j) return;
    tk_text_pool_free(&j->pool);
    tk_free(j->o);
    tk_free(j);
}
