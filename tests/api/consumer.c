/* A program that uses libtracekit the way an outside user does: only the
 * installed public headers, linked through pkg-config. Prints, per input, the
 * detected format and a few numbers that `tracekit info` also prints, so
 * tests/integration/install_api.sh can compare the two.
 *   consumer FILE... */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <tracekit/tracekit.h>

static int fail(const tk_error *err)
{
    char buf[1024];
    fprintf(stderr, "consumer: %s\n", tk_error_format(err, buf, sizeof buf));
    return 1;
}

static int callgrind_numbers(tk_input *in, tk_error *err)
{
    tk_profile *p = NULL;
    if (tk_profile_open(&p, err) != TK_OK) return 1;
    tk_callgrind_read_options opt = TK_CALLGRIND_READ_OPTIONS_INIT;
    int rc = 0;
    if (tk_callgrind_read_input(p, in, &opt, err) != TK_OK)
        rc = fail(err);
    else
        printf("parts: %zu\nevents: %zu\nfunctions: %zu\n", tk_profile_part_count(p),
               tk_profile_event_count(p), tk_profile_function_count(p));
    tk_profile_free(p);
    return rc;
}

static int xray_numbers(tk_input *in, tk_error *err)
{
    tk_xray_reader *r = NULL;
    tk_xray_options opt = TK_XRAY_OPTIONS_INIT;
    if (tk_xray_open(&r, in, &opt, err) != TK_OK) return fail(err);
    uint64_t enter = 0, exits = 0;
    tk_xray_record rec;
    tk_status st;
    while ((st = tk_xray_next(r, &rec, err)) == TK_OK) {
        enter += rec.kind == TK_XRAY_ENTER;
        exits += rec.kind == TK_XRAY_EXIT;
    }
    int rc = 0;
    if (st != TK_END)
        rc = fail(err);
    else
        printf("version: %u\nenter: %" PRIu64 "\nexit: %" PRIu64 "\n",
               (unsigned)tk_xray_get_header(r)->version, enter, exits);
    tk_xray_free(r);
    return rc;
}

int main(int argc, char **argv)
{
    printf("tracekit %s\n", tk_version());
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        tk_error err;
        tk_error_clear(&err);
        tk_input *in = NULL;
        if (tk_input_open(&in, argv[i], NULL, &err) != TK_OK) return fail(&err);
        const tk_format *f = NULL;
        if (tk_format_detect_input(in, &f, &err) != TK_OK) {
            rc |= fail(&err);
        } else {
            printf("format: %s\n", f->name);
            if (strcmp(f->name, "callgrind") == 0)
                rc |= callgrind_numbers(in, &err);
            else if (strcmp(f->name, "xray") == 0)
                rc |= xray_numbers(in, &err);
        }
        tk_input_free(in);
    }
    return rc;
}
