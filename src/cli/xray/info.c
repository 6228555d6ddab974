/* tracekit info for XRay traces: header, threads, records, time span. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_info_opts[] = {CLI_XRAY_MAP_OPT, {NULL, 0, NULL, NULL}};

/* The header: mode, version, clock; with --verbose the byte order, the TSC flags and the FDR
 * buffers. */
static void print_header(const tk_xray_header *h, const cli_xray_session *s, int verbose)
{
    printf("xray mode: %s\n", h->type == TK_XRAY_FDR ? "fdr" : "basic");
    printf("version: %u\n", h->version);
    if (verbose) printf("byte order: %s-endian\n", h->big_endian ? "big" : "little");
    printf("tsc: %s, %" PRIu64 " Hz%s\n", tk_xray_emulated_tsc(h) ? "emulated" : "real",
           h->cycle_frequency,
           tk_xray_emulated_tsc(h) ? " (the runtime found no TSC frequency: ticks are ns)" : "");
    if (!verbose) return;
    printf("constant tsc: %s, nonstop tsc: %s\n", h->flags & 1 ? "yes" : "no",
           h->flags & 2 ? "yes" : "no");
    if (h->type == TK_XRAY_FDR) {
        printf("buffer size: %" PRIu64 " bytes\n", h->buffer_size);
        printf("buffers: %" PRIu64 "\n", tk_xray_buffer_count(s->reader));
    }
}

/* The processes and threads (the records of each; with --verbose, in how many buffers). */
static void print_threads(const tk_xray_header *h, const tk_xray_summary *sum, int verbose)
{
    printf("pids:");
    for (size_t t = 0; t < sum->nthreads; t++) {
        size_t p = 0;
        while (p < t && sum->threads[p].pid != sum->threads[t].pid) p++;
        if (p == t) printf(" %" PRId32, sum->threads[t].pid);
        if (t == 64) {
            printf(" ...");
            break;
        }
    }
    printf("\nthreads: %zu\n", sum->nthreads);
    for (size_t t = 0; t < sum->nthreads && t < 64; t++) {
        const tk_xray_thread_summary *ts = &sum->threads[t];
        printf("  tid %" PRId32 ", pid %" PRId32 ": %" PRIu64 " record%s", ts->tid, ts->pid,
               ts->records, cli_s(ts->records));
        if (h->type == TK_XRAY_FDR && verbose)
            printf(" in %" PRIu64 " buffer%s", ts->buffers, cli_s(ts->buffers));
        printf("\n");
    }
    if (sum->nthreads > 64) printf("  ... %zu more threads\n", sum->nthreads - 64);
}

/* The records (each kind with --verbose), the time span (the TSC values with --verbose). */
static void print_records(const tk_xray_header *h, const tk_xray_summary *sum, int verbose)
{
    if (verbose) {
        printf("records:\n");
        for (int k = 0; k < TK_XRAY_KIND_MAX; k++)
            if (sum->by_kind[k])
                printf("  %-15s %" PRIu64 "\n", tk_xray_kind_name((tk_xray_kind)k),
                       sum->by_kind[k]);
    }
    printf("function records: %" PRIu64 "\n", sum->functions);
    if (sum->first_tsc <= sum->last_tsc) {
        double span = h->cycle_frequency
                          ? (double)(sum->last_tsc - sum->first_tsc) / (double)h->cycle_frequency
                          : 0;
        printf("time span: %.6f s", span);
        if (verbose) printf(" (tsc %" PRIu64 " .. %" PRIu64 ")", sum->first_tsc, sum->last_tsc);
        printf("\n");
    }
}

static int info_one(cli_ctx *ctx, const cli_args *args, int i)
{
    cli_xray_session s;
    int rc = cli_xray_session_open(ctx, args, i, 1, 1, &s);
    if (rc != CLI_EXIT_OK) return rc;
    const tk_xray_header *h = tk_xray_get_header(s.reader);
    tk_error err;
    tk_error_clear(&err);
    tk_xray_summary sum;
    if (tk_xray_summarize(s.reader, &sum, &err) != TK_OK) {
        tk_xray_summary_free(&sum);
        cli_xray_session_close(&s);
        return cli_error(&err);
    }
    int verbose = cli_has(args, "verbose");
    print_header(h, &s, verbose);
    print_threads(h, &sum, verbose);
    print_records(h, &sum, verbose);
    if (s.map)
        printf("instrumentation map: %" PRIu32 " function%s, %" PRIu64 " sled%s, sled version %u\n",
               tk_xray_map_count(s.map), cli_s(tk_xray_map_count(s.map)), tk_xray_map_sleds(s.map),
               cli_s(tk_xray_map_sleds(s.map)), tk_xray_map_version(s.map));
    cli_xray_warn_truncation(&s, ctx->paths[i]);
    tk_xray_summary_free(&sum);
    cli_xray_session_close(&s);
    return CLI_EXIT_OK;
}

int cli_xray_info(cli_ctx *ctx, const cli_args *args)
{
    int rc = CLI_EXIT_OK;
    for (int i = 0; i < ctx->ninputs && rc == CLI_EXIT_OK; i++) rc = info_one(ctx, args, i);
    return rc;
}
