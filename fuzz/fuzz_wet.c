/* Fuzz the WET reader and loader (both forms), then the analyses on what loads. Every input
 * goes through the reader's fast paths and through their general twins (tk_wet_reader_paths,
 * core/fastpath.h): the records, where and how each stops (status, error code, location and
 * message), the problems the loader reports and the model it loads must be the same. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "formats/wet/wet_internal.h"

static int open_input(tk_input **in, const uint8_t *data, size_t size)
{
    tk_input_options opt = TK_INPUT_OPTIONS_INIT;
    opt.max_line = 1 << 16;
    opt.no_decompress = 1; /* decompression is fuzzed by fuzz_detect */
    return tk_input_open_memory(in, data, size, "fuzz", &opt, NULL) == TK_OK;
}

static void print_status(FILE *f, const char *what, tk_status st, const tk_error *e)
{
    fprintf(f, "%s: status %d", what, (int)st);
    if (st != TK_OK && st != TK_END)
        fprintf(f, " error %d at %s:%lld:%llu:%llu %s", (int)e->code, e->path, (long long)e->offset,
                (unsigned long long)e->line, (unsigned long long)e->column, e->message);
    fputc('\n', f);
}

static void print_rec(FILE *f, const tk_wet_rec *r)
{
    fprintf(f,
            "rec %d line %llu n %llu id %llu ports %u addr %llx file '%.*s' function '%.*s' "
            "src %u port %u inst %u dep %llu#%u cols %u %u values %d value %llx",
            (int)r->kind, (unsigned long long)r->line, (unsigned long long)r->n,
            (unsigned long long)r->id, r->nports, (unsigned long long)r->addr,
            r->file ? (int)r->file_len : 0, r->file ? r->file : "",
            r->function ? (int)r->function_len : 0, r->function ? r->function : "", r->src_line,
            r->port, r->inst, (unsigned long long)r->dep_id, r->dep_inst, r->col_dep,
            r->col_dep_inst, r->has_values, (unsigned long long)r->value);
    fprintf(f, " from %llx words %u", (unsigned long long)r->addr_from, r->value_words);
    for (int i = 0; i < TK_DEPS_VALUE_WORDS - 1; i++)
        fprintf(f, " %llx", (unsigned long long)r->value_hi[i]);
    fputc('\n', f);
}

static void print_problem(void *ctx, tk_severity sev, const tk_location *loc, const char *msg)
{
    fprintf(ctx, "problem %d at %s:%lld:%llu:%llu %s\n", (int)sev, loc ? loc->path : "",
            loc ? (long long)loc->offset : 0, loc ? (unsigned long long)loc->line : 0,
            loc ? (unsigned long long)loc->column : 0, msg);
}

/* The loader (with a diag that prints its problems, or none: then the first is the error)
 * and what the model it loads writes. */
static void print_load(FILE *f, const uint8_t *data, size_t size, int with_diag, int fast)
{
    tk_input *in;
    if (!open_input(&in, data, size)) return;
    tk_deps *d = NULL;
    tk_diag diag;
    tk_diag_init(&diag, print_problem, f);
    tk_error err;
    tk_error_clear(&err);
    tk_status st = tk_wet_read_paths(&d, in, with_diag ? &diag : NULL, fast, &err);
    print_status(f, "load", st, &err);
    if (st == TK_OK && d && tk_deps_node_count(d) < 100000) {
        print_status(f, "write", tk_wet_write(d, FUZZ_WRITER(f), &err), &err);
        print_status(f, "dump", tk_wet_dump(d, FUZZ_WRITER(f), &err), &err);
    }
    tk_deps_free(d);
    tk_input_free(in);
}

/* What the reader and the loader make of the input, as text. */
static char *run_paths(const uint8_t *data, size_t size, int fast, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f) return NULL;
    tk_input *in;
    tk_wet_reader *r;
    tk_error err;
    tk_error_clear(&err);
    if (open_input(&in, data, size)) {
        if (tk_wet_reader_open(&r, in, &err) == TK_OK) {
            tk_wet_reader_paths(r, fast);
            tk_wet_rec rec;
            tk_status st;
            for (;;) {
                memset(&rec, 0, sizeof rec);
                if ((st = tk_wet_reader_next(r, &rec, &err)) != TK_OK) break;
                print_rec(f, &rec);
            }
            print_status(f, "read", st, &err);
            /* a failed reader says the same again */
            print_status(f, "again", tk_wet_reader_next(r, &rec, &err), &err);
            tk_wet_reader_free(r);
        }
        tk_input_free(in);
    }
    print_load(f, data, size, 1, fast);
    print_load(f, data, size, 0, fast);
    fclose(f);
    return text;
}

static void compare_paths(const uint8_t *data, size_t size)
{
    size_t na = 0, nb = 0;
    char *a = run_paths(data, size, 1, &na), *b = run_paths(data, size, 0, &nb);
    fuzz_same_text(a, na, b, nb);
    free(a);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    compare_paths(data, size);
    tk_input *in;
    tk_error err;
    tk_error_clear(&err);
    if (!open_input(&in, data, size)) return 0;
    tk_deps *d = NULL;
    tk_diag diag;
    tk_diag_init(&diag, NULL, NULL);
    if (tk_wet_read(&d, in, &diag, &err) == TK_OK && d && tk_deps_node_count(d) < 100000) {
        /* slice from the last instance of the first instruction, both ways */
        if (tk_deps_count(d) > 0) {
            tk_deps_instr first;
            tk_deps_get_instr(d, 0, &first);
            tk_node n = {0, first.ninstances - 1};
            tk_slice_options so = TK_SLICE_OPTIONS_INIT;
            tk_slice *s = NULL;
            for (int fwd = 0; fwd < 2; fwd++) {
                so.forward = fwd;
                if (tk_slice_compute(d, &n, 1, &so, &s, &err) == TK_OK) tk_slice_free(s);
            }
            tk_chain_step *steps;
            size_t ns;
            int rev;
            tk_node last = {tk_deps_count(d) - 1, 0};
            if (tk_chain_find(d, n, last, TK_SLICE_ALL, &steps, &ns, &rev, &err) == TK_OK)
                tk_chain_free(steps);
            tk_chain_summary sum[3];
            size_t nsum;
            int cyclic;
            (void)tk_chain_longest(d, 3, sum, &nsum, &cyclic, &err);
        }
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            (void)tk_wet_write(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_write_history(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_write_json(d, FUZZ_WRITER(f), &err);
            (void)tk_wet_dump(d, FUZZ_WRITER(f), &err);
            fclose(f);
        }
    }
    tk_deps_free(d);
    tk_input_free(in);
    return 0;
}
