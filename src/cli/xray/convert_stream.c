/* convert --to chrome and --to json of XRay traces: every event in order, the traces chained
 * (one after the other, the threads of each after those of the traces before it). With -j N
 * and several traces, the next traces are made ahead on N threads (cli_run_ordered: each
 * trace's part, its events' text, at most N + 1 parts in memory at once) and written here in
 * the order of the traces: the bytes of the traces read one after the other as one stream,
 * with the same error (that of the first trace that fails, after what -j 1 writes before it). */
#include <inttypes.h>
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

/* One trace's part: chrome's, or json's text (its events each after a comma). */
typedef struct stream_part {
    tk_chrome_part *chrome;
    char *text; /* malloc'd */
    size_t len;
    tk_status st; /* json: TK_END, or the failure in err; chrome: a part not made */
    tk_error err;
} stream_part;

typedef struct stream_jobs {
    int chrome;
    cli_xray_session *s;
    uint64_t start; /* the chain's */
    stream_part *parts;
    FILE *f;
    tk_chrome_join *join;
    int first; /* json: no event written yet */
} stream_jobs;

static void part_make(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_error_clear(&p->err);
    if (j->chrome) {
        p->st = tk_chrome_part_open(&p->chrome, &j->s[i].src, j->start, &p->err);
        return;
    }
    FILE *mem = open_memstream(&p->text, &p->len);
    if (!mem) {
        p->st = tk_error_set(&p->err, TK_ERR_NOMEM, "out of memory");
        return;
    }
    int first = 0;
    p->st = json_events(&j->s[i].src, mem, &first, &p->err);
    if (fclose(mem) != 0 && p->st == TK_END)
        p->st = tk_error_set(&p->err, TK_ERR_NOMEM, "out of memory");
}

static void part_drop(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_chrome_part_free(p->chrome);
    free(p->text);
    memset(p, 0, sizeof *p);
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
        const char *text = p->text;
        size_t len = p->len;
        if (len && j->first) { /* the first event of all has no comma */
            text++;
            len--;
            j->first = 0;
        }
        if (len) (void)!fwrite(text, 1, len, j->f);
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
    stream_jobs j = {chrome, s, chain->start_time, NULL, f, NULL, 1};
    j.parts = calloc((size_t)n, sizeof *j.parts);
    if (!j.parts) {
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
    free(j.parts);
    return rc;
}
