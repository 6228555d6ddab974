/* convert --to chrome and --to json of XRay traces: every event in order, the traces chained
 * (one after the other, the threads of each after those of the traces before it). With -j N
 * and several traces, the next traces are made ahead on N threads (cli_run_ordered: each
 * trace's part, its events' text, tk_chrome_part or tk_events_json_part, at most N + 1 parts
 * in memory at once) and joined here in the order of the traces: the bytes of the traces read
 * one after the other as one stream, with the same error (that of the first trace that fails,
 * after what -j 1 writes before it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ordered.h"
#include "xray.h"

int cli_xray_write_json_text(void *f, const void *data, size_t len)
{
    if (len) (void)!fwrite(data, 1, len, f);
    return 0;
}

/* One trace's part: chrome's or json's. */
typedef struct stream_part {
    tk_chrome_part *chrome;
    tk_events_json_part *json;
    tk_error err; /* a part not made */
} stream_part;

typedef struct stream_jobs {
    int chrome;
    cli_xray_session *s;
    stream_part *parts;
    tk_chrome_join *chrome_join;
    tk_events_json_join *json_join;
} stream_jobs;

static void part_make(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_error_clear(&p->err);
    if (j->chrome)
        (void)tk_chrome_part_open(&p->chrome, j->chrome_join, &j->s[i].src, &p->err);
    else
        (void)tk_events_json_part_open(&p->json, j->json_join, (size_t)i, &j->s[i].src, &p->err);
}

static void part_drop(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_chrome_part_free(p->chrome);
    tk_events_json_part_free(p->json);
    memset(p, 0, sizeof *p);
}

/* The part's events after those before. Returns an exit code: the part's failure after its
 * events before it. */
static int part_done(void *arg, int i)
{
    stream_jobs *j = arg;
    stream_part *p = &j->parts[i];
    tk_error err;
    tk_error_clear(&err);
    int rc = CLI_EXIT_OK;
    if (!p->chrome && !p->json)
        rc = cli_error(&p->err);
    else if (p->chrome && tk_chrome_join_add(j->chrome_join, p->chrome, &err) != TK_OK)
        rc = cli_error(&err);
    else if (p->json && tk_events_json_join_add(j->json_join, p->json, &err) != TK_OK)
        rc = cli_error(&err);
    part_drop(arg, i);
    return rc;
}

int cli_xray_convert_stream(int chrome, cli_xray_session *s, int n, unsigned jobs,
                            const tk_event_source *chain, FILE *f)
{
    tk_error err;
    tk_error_clear(&err);
    stream_jobs j = {.chrome = chrome, .s = s};
    j.parts = calloc((size_t)n, sizeof *j.parts);
    if (!j.parts) {
        fprintf(stderr, "tracekit: error: out of memory\n");
        return CLI_EXIT_BAD_INPUT;
    }
    tk_status st =
        chrome ? tk_chrome_join_open(&j.chrome_join, chain, CLI_WRITER(f), &err)
               : tk_events_json_join_open(&j.json_join, chain, CLI_XRAY_JSON_WRITER(f), &err);
    int rc = st == TK_OK ? CLI_EXIT_OK : cli_error(&err);
    if (rc == CLI_EXIT_OK) rc = cli_run_ordered(n, jobs, part_make, part_done, part_drop, &j);
    if (rc == CLI_EXIT_OK) {
        st = chrome ? tk_chrome_join_finish(j.chrome_join, &err)
                    : tk_events_json_join_finish(j.json_join, &err);
        if (st != TK_OK) rc = cli_error(&err);
    }
    tk_chrome_join_free(j.chrome_join);
    tk_events_json_join_free(j.json_join);
    free(j.parts);
    return rc;
}
