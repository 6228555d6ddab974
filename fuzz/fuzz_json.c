/* Fuzz the JSON lexer: the streaming tokenizer to the end or the first error, then the
 * fixed-layout calls over the same bytes in memory (peek, take, raw strings, integers,
 * compiled rows with string cells), whose spans must lie inside the input. Both readings
 * are done with the tokenizer's fast paths and with their general twins alone
 * (tk_json_set_fast, core/fastpath.h): the same tokens, values and errors, locations
 * included. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "tracekit/tracekit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_span(const uint8_t *data, size_t size, const char *s, size_t len)
{
    if ((const uint8_t *)s < data || (const uint8_t *)s + len > data + size) abort();
}

/* Walks the input with the fixed-layout calls, choosing each call by the next byte. */
static void fixed_layout(const uint8_t *data, size_t size)
{
    tk_json *j;
    tk_error err;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 64;
    jo.max_string = 1 << 16;
    if (tk_json_open_memory(&j, data, size, "fuzz", &jo, &err) != TK_OK) return;
    tk_json_row_prog pg = {0};
    pg.ncells = 3;
    pg.slot[0] = 0, pg.hi[0] = UINT64_MAX;
    pg.slot[1] = 1, pg.is_array[1] = TK_JSON_CELL_STRING;
    pg.slot[2] = 2, pg.is_array[2] = TK_JSON_CELL_ARRAY, pg.hi[2] = UINT64_MAX;
    static tk_json_row_out row;
    tk_status st = TK_OK;
    for (unsigned step = 0; st == TK_OK; step++) {
        int c;
        if (tk_json_peek(j, &c, &err) != TK_OK || c < 0) break;
        const char *s;
        size_t len;
        uint64_t v;
        int n = tk_json_scan_row_strings(j, &pg, &row);
        if (n >= 0) {
            if (n >= 2) check_span(data, size, (const char *)data + row.v[1], row.n[1]);
            tk_json_take_scanned(j, &row);
            continue;
        }
        if (c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}') {
            st = tk_json_take(j, &err);
        } else if (c == '"' && step % 2) {
            st = tk_json_next_raw(j, "a string", &s, &len, &err);
            if (st == TK_OK) check_span(data, size, s, len);
        } else if (c == '"' || c == '-' || (c >= '0' && c <= '9')) {
            st = tk_json_next_u64(j, "a number", &v, &err);
        } else {
            tk_json_token t;
            st = tk_json_next(j, &t, &err);
        }
    }
    tk_json_free(j);
}

/* What reading the input gives with the fast paths on or off, as a text: every token (the
 * streaming tokenizer; fixed: the fixed-layout calls, without compiled rows, which the
 * general reading never takes) and the final status and error. */
static char *reading(const uint8_t *data, size_t size, int fixed, int fast, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) return NULL;
    tk_error err = {0};
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 64;
    jo.max_string = 1 << 10;
    tk_json *j;
    tk_status st = tk_json_open_memory(&j, data, size, "fuzz", &jo, &err);
    if (st == TK_OK) {
        tk_json_set_fast(j, fast);
        for (unsigned step = 0; st == TK_OK; step++) {
            int c = -1;
            if (fixed && ((st = tk_json_peek(j, &c, &err)) != TK_OK || c < 0)) break;
            const char *s;
            size_t n;
            uint64_t v;
            tk_json_token t;
            if (fixed && memchr(",:[]{}", c, 6)) {
                st = tk_json_take(j, &err);
            } else if (fixed && c == '"' && step % 2) {
                if ((st = tk_json_next_raw(j, "a string", &s, &n, &err)) == TK_OK)
                    fprintf(f, "raw %zu %.*s\n", n, (int)(n > 64 ? 64 : n), s);
            } else if (fixed && (c == '"' || c == '-' || (c >= '0' && c <= '9'))) {
                if ((st = tk_json_next_u64(j, "a number", &v, &err)) == TK_OK)
                    fprintf(f, "u64 %llu\n", (unsigned long long)v);
            } else if ((st = tk_json_next(j, &t, &err)) == TK_OK) {
                uint64_t d;
                memcpy(&d, &t.d, sizeof d);
                fprintf(f, "%d %llu:%llu %lld", (int)t.type, (unsigned long long)t.line,
                        (unsigned long long)t.column, (long long)t.offset);
                if (t.type == TK_JSON_NUMBER)
                    fprintf(f, " %d %d %llu %llx", t.is_int, t.negative, (unsigned long long)t.u,
                            (unsigned long long)d);
                else if (t.type == TK_JSON_STRING || t.type == TK_JSON_KEY)
                    fprintf(f, " %zu %d %.*s", t.len, t.had_escapes, (int)(t.len > 64 ? 64 : t.len),
                            t.str);
                fputc('\n', f);
            }
        }
        tk_json_free(j);
    }
    fprintf(f, "status %d, error %d at %llu:%llu %lld: %s\n", (int)st, (int)err.code,
            (unsigned long long)err.line, (unsigned long long)err.column, (long long)err.offset,
            err.message);
    fclose(f);
    return buf;
}

static void compare_paths(const uint8_t *data, size_t size)
{
    for (int fixed = 0; fixed < 2; fixed++) {
        size_t la = 0, lb = 0;
        char *a = reading(data, size, fixed, 1, &la);
        char *b = reading(data, size, fixed, 0, &lb);
        if (a && b && (la != lb || memcmp(a, b, la) != 0)) {
            fprintf(stderr, "fast and general paths differ (%s):\nfast:\n%s\ngeneral:\n%s",
                    fixed ? "fixed layout" : "tokens", a, b);
            abort();
        }
        free(a);
        free(b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    compare_paths(data, size);
    tk_input *in;
    tk_error err;
    if (tk_input_open_memory(&in, data, size, "fuzz", NULL, &err) != TK_OK) return 0;
    tk_json *j;
    tk_json_options jo = TK_JSON_OPTIONS_INIT;
    jo.max_depth = 64;
    jo.max_string = 1 << 16;
    if (tk_json_open(&j, in, &jo, &err) == TK_OK) {
        tk_json_token t;
        while (tk_json_next(j, &t, &err) == TK_OK) {
            uint64_t u;
            (void)tk_json_token_u64(&t, &u);
        }
        tk_json_free(j);
    }
    tk_input_free(in);
    fixed_layout(data, size);
    return 0;
}
