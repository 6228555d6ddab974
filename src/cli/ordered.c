/* cli_run_ordered: a window of items made on threads, handed over in order; cli_ordered_text:
 * an item that is a FILE's text in memory, written to the output in its turn. */
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ordered.h"
#include "cli.h"

FILE *cli_ordered_text_open(cli_ordered_text *t) { return open_memstream(&t->text, &t->len); }

void cli_ordered_text_close(cli_ordered_text *t, FILE *mem, tk_status st)
{
    if (mem && fclose(mem) != 0) st = TK_ERR_IO;
    t->failed = st != TK_END;
    if (t->failed) cli_ordered_text_drop(t);
}

void cli_ordered_text_drop(cli_ordered_text *t)
{
    free(t->text);
    t->text = NULL;
}

int cli_ordered_text_write(cli_ordered_text *t, FILE *out)
{
    errno = 0;
    size_t len = t->len;
    int ok = !len || fwrite(t->text, 1, len, out) == len;
    int e = errno ? errno : EIO;
    cli_ordered_text_drop(t);
    if (ok) return CLI_EXIT_OK;
    tk_error err;
    tk_error_clear(&err);
    tk_error_set(&err, TK_ERR_IO, "write failed: %s", strerror(e));
    return cli_error(&err);
}

int cli_ordered_files(const cli_ctx *ctx, unsigned jobs, tk_input_options *opt)
{
    if (jobs < 2 || ctx->ninputs < 2) return 0;
    for (int i = 0; i < ctx->ninputs; i++)
        if (ctx->inputs[i]) return 0;
    *opt = ctx->input_opt;
    opt->progress = NULL;
    opt->progress_ctx = NULL;
    return 1;
}

cli_ctx cli_ordered_one(const cli_ctx *ctx, int i)
{
    cli_ctx one = *ctx;
    one.inputs = ctx->inputs + i;
    one.paths = ctx->paths + i;
    one.ninputs = one.hi = 1;
    one.lo = 0;
    return one;
}

typedef struct ordered {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* an item made, or one done (the window moved), or stop */
    int n, next, ndone, window, stop;
    unsigned char *made;
    cli_ordered_make_fn make;
    void *arg;
} ordered;

static void *ordered_worker(void *p)
{
    ordered *o = p;
    pthread_mutex_lock(&o->mu);
    for (;;) {
        while (!o->stop && o->next < o->n && o->next >= o->ndone + o->window)
            pthread_cond_wait(&o->cv, &o->mu);
        if (o->stop || o->next >= o->n) break;
        int i = o->next++;
        pthread_mutex_unlock(&o->mu);
        o->make(o->arg, i);
        pthread_mutex_lock(&o->mu);
        o->made[i] = 1;
        pthread_cond_broadcast(&o->cv);
    }
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

static int run_in_turn(int n, cli_ordered_make_fn make, cli_ordered_done_fn done, void *arg)
{
    for (int i = 0; i < n; i++) {
        make(arg, i);
        int rc = done(arg, i);
        if (rc) return rc;
    }
    return 0;
}

int cli_run_ordered(int n, unsigned jobs, cli_ordered_make_fn make, cli_ordered_done_fn done,
                    cli_ordered_make_fn drop, void *arg)
{
    if (jobs > (unsigned)n) jobs = (unsigned)n;
    if (jobs < 2) return run_in_turn(n, make, done, arg);
    ordered o = {.n = n, .window = (int)jobs + 1, .make = make, .arg = arg};
    o.made = calloc((size_t)n, 1);
    pthread_t *th = malloc(jobs * sizeof *th);
    if (!o.made || !th) {
        free(o.made);
        free(th);
        return run_in_turn(n, make, done, arg);
    }
    pthread_mutex_init(&o.mu, NULL);
    pthread_cond_init(&o.cv, NULL);
    unsigned started = 0;
    while (started < jobs && pthread_create(&th[started], NULL, ordered_worker, &o) == 0) started++;
    int rc = 0;
    if (started == 0) {
        rc = run_in_turn(n, make, done, arg);
    } else {
        for (int i = 0; i < n && !rc; i++) {
            pthread_mutex_lock(&o.mu);
            while (!o.made[i]) pthread_cond_wait(&o.cv, &o.mu);
            pthread_mutex_unlock(&o.mu);
            rc = done(arg, i);
            pthread_mutex_lock(&o.mu);
            o.ndone = i + 1;
            if (rc) o.stop = 1;
            pthread_cond_broadcast(&o.cv);
            pthread_mutex_unlock(&o.mu);
        }
        for (unsigned k = 0; k < started; k++) pthread_join(th[k], NULL);
        for (int i = o.ndone; i < n; i++)
            if (o.made[i]) drop(arg, i);
    }
    pthread_cond_destroy(&o.cv);
    pthread_mutex_destroy(&o.mu);
    free(o.made);
    free(th);
    return rc;
}
