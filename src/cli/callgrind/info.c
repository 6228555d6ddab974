/* tracekit info for callgrind profiles: parts, events, functions, totals. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

const cli_opt cli_callgrind_info_opts[] = {{NULL, 0, NULL, NULL}};

/* Part i: its thread and process, what ran, the totals; with --verbose, the file's numbering
 * of the dump, its position columns and its numbers of call and jump lines. */
static void print_part(const tk_profile *p, size_t i, int verbose)
{
    const tk_prof_part *part = tk_profile_part(p, i);
    tk_prof_part_info info, *pt = &info;
    tk_prof_part_get(part, &info);
    size_t nev = tk_profile_event_count(p);
    printf("part %zu:", i + 1);
    const char *sep = " ";
    if (pt->has_thread) printf("%sthread %" PRIu64, sep, pt->thread), sep = ", ";
    if (pt->has_pid) printf("%spid %" PRIu64, sep, pt->pid);
    printf("\n");
    if (pt->cmd) printf("  command: %s\n", pt->cmd);
    if (pt->creator) printf("  creator: %s\n", pt->creator);
    for (size_t d = 0; d < pt->desc_count; d++)
        if (strncmp(tk_prof_part_desc(part, d), "Trigger:", 8) == 0) {
            const char *t = tk_prof_part_desc(part, d) + 8;
            printf("  trigger: %s\n", t + strspn(t, " "));
        }
    if (verbose) {
        if (pt->has_number) printf("  dump: %" PRIu64 " (the file's part: line)\n", pt->number);
        printf("  positions: %s%s%s\n", pt->positions & TK_POS_INSTR ? "instr " : "",
               pt->positions & TK_POS_BB ? "bb " : "", pt->positions & TK_POS_LINE ? "line" : "");
        printf("  call lines: %" PRIu64 ", jump lines: %" PRIu64 "\n", pt->call_lines,
               pt->jump_lines);
    }
    if (pt->has_line_sum) {
        printf("  totals:");
        for (size_t e = 0; e < nev; e++) {
            printf(" ");
            cli_callgrind_put_commas(stdout, pt->line_sum[e]);
        }
        printf("\n");
    }
}

/* After "parts: N", when the parts are the threads of one process (valgrind
 * --separate-threads=yes, read from its files or from one of --combine-dumps=yes): "(3 threads
 * of one run, pid 5624)". */
static void print_run(const tk_profile *p)
{
    size_t n = tk_profile_part_count(p), threads = 0;
    uint64_t pid = 0;
    for (size_t i = 0; i < n; i++) {
        tk_prof_part_info pt, before;
        tk_prof_part_get(tk_profile_part(p, i), &pt);
        if (!pt.has_pid || !pt.has_thread || (i && pt.pid != pid)) return;
        pid = pt.pid;
        size_t j = 0; /* a thread not seen in an earlier part */
        for (; j < i; j++) {
            tk_prof_part_get(tk_profile_part(p, j), &before);
            if (before.thread == pt.thread) break;
        }
        threads += j == i;
    }
    if (threads > 1) printf(" (%zu threads of one run, pid %" PRIu64 ")", threads, pid);
}

/* Reads without keeping rows (validation only): what it prints comes from the
 * headers and from the reader's counts, so a 130 MB profile takes 0.5 s, not
 * the 4.6 s and 950 MB of its every cost position. */
int cli_callgrind_info(cli_ctx *ctx, const cli_args *args)
{
    tk_profile *p;
    int rc = cli_callgrind_load(ctx, TK_CALLGRIND_DETAIL_NONE, &p);
    if (rc) return rc;
    size_t nev = tk_profile_event_count(p);
    printf("parts: %zu", tk_profile_part_count(p));
    print_run(p);
    printf("\n");
    printf("events:");
    for (size_t i = 0; i < nev; i++) printf(" %s", tk_profile_event_name(p, i));
    printf("\n");
    for (size_t i = 0; i < tk_profile_derived_count(p); i++) {
        tk_prof_derived_info di, *d = &di;
        tk_profile_derived_get(p, i, &di);
        printf("derived event: %s = %s\n", tk_profile_str(p, d->name),
               tk_profile_str(p, d->formula));
    }
    printf("functions: %zu\n", tk_profile_function_count(p));
    int verbose = cli_has(args, "verbose");
    for (size_t i = 0; i < tk_profile_part_count(p); i++) print_part(p, i, verbose);
    tk_profile_free(p);
    return CLI_EXIT_OK;
}
