/* Streaming reader of WET traces: one record per line, grammar and counts
 * checked as it goes, every error located at path:line:column. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/fastpath.h"
#include "core/num.h"
#include "tracekit/wet.h"
#include "formats/wet/wet_internal.h"

typedef enum wet_state {
    ST_START, /* before the first non-blank line */
    ST_BLOCK, /* expecting a static info line */
    ST_PORT, /* expecting "SIZE n" */
    ST_ENTRY, /* expecting "X:dep_id instance" */
    ST_VALUES, /* expecting "NO VALUES" or "VALUES n" */
    ST_VALUE, /* expecting "X:hex" */
    ST_TRAILER, /* all blocks read: only blank lines may follow */
    ST_HISTORY, /* limited-history lines */
    ST_FAILED
} wet_state;

struct tk_wet_reader {
    tk_input *in;
    wet_state state;
    int fast; /* the fast paths may be taken (WET_FAST): 1 but after tk_wet_reader_paths(r, 0) */
    tk_deps_form form;
    uint64_t nblocks;
    uint64_t blocks_done;
    uint64_t id; /* id of the current block */
    uint32_t nports;
    uint32_t port; /* current use port */
    uint64_t count; /* entries announced by SIZE / VALUES */
    uint64_t done; /* entries read so far */
    int64_t prev_inst; /* previous instance in the list, -1 at its start */
    tk_error failure; /* returned again after a failure */
    /* line splitting over tk_input_chunk (zero copy except across chunk ends) */
    const char *cur;
    const char *chunk_end;
    char *carry; /* a line that spans chunks */
    size_t carry_len, carry_cap;
    uint64_t line_no;
};

/* Longest line accepted (real lines are short; this bounds memory on junk). */
#define WET_MAX_LINE (1u << 20)

tk_status tk_wet_reader_open(tk_wet_reader **out, tk_input *in, tk_error *err)
{
    tk_wet_reader *r = tk_calloc(1, sizeof *r);
    if (!r) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    r->in = in;
    r->state = ST_START;
    r->fast = 1;
    *out = r;
    return TK_OK;
}

void tk_wet_reader_paths(tk_wet_reader *r, int fast) { r->fast = fast; }

void tk_wet_reader_free(tk_wet_reader *r)
{
    if (r) tk_free(r->carry);
    tk_free(r);
}

static tk_status carry_append(tk_wet_reader *r, const char *p, size_t n, tk_error *err)
{
    if (r->carry_len + n > WET_MAX_LINE)
        return tk_error_set_at(err, TK_ERR_LIMIT, tk_input_path(r->in), -1, r->line_no + 1, 1,
                               "line longer than %u bytes", WET_MAX_LINE);
    if (r->carry_len + n > r->carry_cap) {
        size_t cap = r->carry_cap ? r->carry_cap : 256;
        while (cap < r->carry_len + n) cap *= 2;
        char *c = tk_realloc(r->carry, cap);
        if (!c) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        r->carry = c;
        r->carry_cap = cap;
    }
    memcpy(r->carry + r->carry_len, p, n);
    r->carry_len += n;
    return TK_OK;
}

/* The next line without its newline (and one trailing '\r'); borrowed until
 * the next call. TK_END at the end of the input. */
static tk_status next_line(tk_wet_reader *r, const char **line, size_t *len, tk_error *err)
{
    for (;;) {
        if (r->cur < r->chunk_end) {
            const char *nl = memchr(r->cur, '\n', (size_t)(r->chunk_end - r->cur));
            if (nl) {
                if (r->carry_len) {
                    tk_status st = carry_append(r, r->cur, (size_t)(nl - r->cur), err);
                    if (st != TK_OK) return st;
                    *line = r->carry;
                    *len = r->carry_len;
                    r->carry_len = 0;
                } else {
                    if ((size_t)(nl - r->cur) > WET_MAX_LINE)
                        return tk_error_set_at(err, TK_ERR_LIMIT, tk_input_path(r->in), -1,
                                               r->line_no + 1, 1, "line longer than %u bytes",
                                               WET_MAX_LINE);
                    *line = r->cur;
                    *len = (size_t)(nl - r->cur);
                }
                r->cur = nl + 1;
                break;
            }
            tk_status st = carry_append(r, r->cur, (size_t)(r->chunk_end - r->cur), err);
            if (st != TK_OK) return st;
            r->cur = r->chunk_end;
        }
        const uint8_t *data;
        size_t n;
        tk_status st = tk_input_chunk(r->in, &data, &n, err);
        if (st == TK_END) {
            if (!r->carry_len) return TK_END;
            *line = r->carry; /* a last line without a newline */
            *len = r->carry_len;
            r->carry_len = 0;
            break;
        }
        if (st != TK_OK) return st;
        r->cur = (const char *)data;
        r->chunk_end = r->cur + n;
    }
    if (*len && (*line)[*len - 1] == '\r') (*len)--;
    r->line_no++;
    return TK_OK;
}

tk_deps_form tk_wet_reader_form(const tk_wet_reader *r) { return r->form; }

/* ---- small scanners over [p, end) ---------------------------------------- */

static inline const char *skip_blank(const char *p, const char *end)
{
    while (p < end && *p == ' ') p++;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) p++;
    return p;
}

static const char *token_end(const char *p, const char *end)
{
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r') p++;
    return p;
}

/* Quote up to 40 bytes of the text starting at p for a message. */
static const char *quote(const char *p, const char *end, char *buf, size_t size)
{
    if (p >= end) return "end of line";
    size_t o = 0;
    buf[o++] = '\'';
    for (size_t i = 0; p + i < end && o + 6 < size; i++) {
        unsigned char c = (unsigned char)p[i];
        if (i == 40) {
            memcpy(buf + o, "...", 3);
            o += 3;
            break;
        }
        if (c >= 0x20 && c < 0x7f) {
            buf[o++] = (char)c;
        } else {
            snprintf(buf + o, size - o, "\\x%02x", c);
            o += 4;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

typedef struct line_ctx {
    tk_wet_reader *r;
    const char *start;
    const char *end;
    uint64_t line;
    tk_error *err;
} line_ctx;

static tk_status fail_at(line_ctx *c, tk_status code, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static tk_status fail_at(line_ctx *c, tk_status code, const char *at, const char *fmt, ...)
{
    char msg[TK_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint64_t col = at ? (uint64_t)(at - c->start) + 1 : 1;
    tk_error_set_at(&c->r->failure, code, tk_input_path(c->r->in), -1, c->line, col, "%s", msg);
    if (c->err) *c->err = c->r->failure;
    c->r->state = ST_FAILED;
    return code;
}

/* Expect a decimal number at p (after blanks); `what` names it in errors. */
static tk_status expect_dec(line_ctx *c, const char **pp, uint64_t max, const char *what,
                            uint64_t *out)
{
    char q[80];
    const char *p = skip_blank(*pp, c->end);
    const char *at = p;
    tk_status rc = tk_num_scan_dec(&p, c->end, out);
    if (rc == TK_ERR_FORMAT)
        return fail_at(c, TK_ERR_FORMAT, at, "expected %s (a decimal number), found %s", what,
                       quote(at, token_end(at, c->end), q, sizeof q));
    if (rc == TK_ERR_LIMIT || *out > max)
        return fail_at(c, TK_ERR_LIMIT, at, "%s %.*s exceeds the limit %llu", what,
                       (int)(token_end(at, c->end) - at), at, (unsigned long long)max);
    *pp = p;
    return TK_OK;
}

static tk_status expect_hex(line_ctx *c, const char **pp, const char *what, uint64_t *out)
{
    char q[80];
    const char *p = skip_blank(*pp, c->end);
    const char *at = p;
    /* hex digits, "0x" optional */
    tk_status rc = tk_num_scan(&p, c->end, TK_NUM_HEX | TK_NUM_BARE_HEX, out);
    if (rc == TK_ERR_FORMAT)
        return fail_at(c, TK_ERR_FORMAT, at, "expected %s (hexadecimal), found %s", what,
                       quote(at, token_end(at, c->end), q, sizeof q));
    if (rc == TK_ERR_LIMIT)
        return fail_at(c, TK_ERR_LIMIT, at, "%s %.*s is wider than 64 bits", what,
                       (int)(token_end(at, c->end) - at), at);
    *pp = p;
    return TK_OK;
}

/* A value: up to 64 hex digits (256 bits), "0x" optional, into rec's value words. */
static tk_status expect_value(line_ctx *c, const char **pp, tk_wet_rec *rec)
{
    const char *p = skip_blank(*pp, c->end), *at = p;
    if (c->end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
    const char *h = p;
    while (p < c->end && tk_fast_hexval((unsigned char)*p) < 16) p++;
    size_t n = (size_t)(p - h);
    if (n <= 16) return expect_hex(c, pp, "value", &rec->value);
    const char *z = h;
    while (z < p - 16 && *z == '0') z++;
    if ((size_t)(p - z) > 16 * TK_DEPS_VALUE_WORDS)
        return fail_at(c, TK_ERR_LIMIT, at, "value %.*s is wider than %d bits",
                       (int)(token_end(at, c->end) - at), at, 64 * TK_DEPS_VALUE_WORDS);
    uint64_t words[TK_DEPS_VALUE_WORDS] = {0};
    uint32_t nw = 0;
    for (const char *e = p; e > z; nw++) { /* 16 digits a word, from the lowest */
        const char *b = e - z > 16 ? e - 16 : z, *q = b;
        if (tk_num_scan(&q, e, TK_NUM_BARE_HEX, &words[nw]) != TK_OK || q != e)
            return fail_at(c, TK_ERR_FORMAT, at, "value %.*s is not hexadecimal",
                           (int)(token_end(at, c->end) - at), at);
        e = b;
    }
    rec->value = words[0];
    rec->value_words = nw;
    memcpy(rec->value_hi, words + 1, sizeof rec->value_hi);
    *pp = p;
    return TK_OK;
}

static tk_status expect_char(line_ctx *c, const char **pp, char ch, const char *what)
{
    char q[80];
    const char *p = *pp;
    if (p < c->end && *p == ch) {
        *pp = p + 1;
        return TK_OK;
    }
    return fail_at(c, TK_ERR_FORMAT, p, "expected %s, found %s", what,
                   quote(p, token_end(p, c->end), q, sizeof q));
}

static tk_status expect_eol(line_ctx *c, const char *p, const char *what)
{
    char q[80];
    p = skip_blank(p, c->end);
    if (p == c->end) return TK_OK;
    return fail_at(c, TK_ERR_FORMAT, p, "expected end of line after %s, found %s", what,
                   quote(p, c->end, q, sizeof q));
}

static int word_is(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    return (size_t)(end - p) >= n && memcmp(p, w, n) == 0 &&
           (p + n == end || p[n] == ' ' || p[n] == '\t' || p[n] == '\r');
}

/* ---- one line per state --------------------------------------------------- */

static int looks_like_history(const char *p, const char *end)
{
    const char *hash = memchr(p, '#', (size_t)(end - p));
    if (!hash) return 0;
    for (const char *q = hash; q + 3 <= end; q++)
        if (q[0] == '-' && q[1] == '-' && q[2] == '>') return 1;
    return 0;
}

static tk_status parse_history(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    uint64_t v;
    tk_status st;
    rec->kind = TK_WET_REC_EDGE;
    if ((st = expect_hex(c, &p, "instruction address", &rec->addr_from)) != TK_OK ||
        (st = expect_char(c, &p, '#', "'#' after the address")) != TK_OK ||
        (st = expect_dec(c, &p, TK_DEPS_MAX_INSTANCE, "instance", &v)) != TK_OK)
        return st;
    rec->inst = (uint32_t)v;
    p = skip_blank(p, c->end);
    if (!(c->end - p >= 3 && p[0] == '-' && p[1] == '-' && p[2] == '>')) {
        char q[80];
        return fail_at(c, TK_ERR_FORMAT, p, "expected '-->', found %s",
                       quote(p, token_end(p, c->end), q, sizeof q));
    }
    p = skip_blank(p + 3, c->end);
    rec->col_dep = (uint32_t)(p - c->start) + 1;
    if ((st = expect_hex(c, &p, "instruction address", &rec->dep_id)) != TK_OK ||
        (st = expect_char(c, &p, '#', "'#' after the address")) != TK_OK)
        return st;
    rec->col_dep_inst = (uint32_t)(p - c->start) + 1;
    if ((st = expect_dec(c, &p, TK_DEPS_MAX_INSTANCE, "instance", &v)) != TK_OK) return st;
    rec->dep_inst = (uint32_t)v;
    return expect_eol(c, p, "the dependence");
}

static int is_placeholder(const char *p, size_t n)
{
    static const char *const words[] = {"??", "?", "-", "(null)", "<unknown>", "unknown"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == n && memcmp(words[i], p, n) == 0) return 1;
    return 0;
}

static tk_status parse_instr(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    tk_status st;
    uint64_t v;
    char q[80];
    rec->kind = TK_WET_REC_INSTR;
    if ((st = expect_dec(c, &p, UINT64_MAX, "instruction id", &rec->id)) != TK_OK ||
        (st = expect_dec(c, &p, WET_MAX_PORTS, "number of use ports", &v)) != TK_OK)
        return st;
    rec->nports = (uint32_t)v;
    if ((st = expect_hex(c, &p, "instruction address", &rec->addr)) != TK_OK) return st;
    rec->file = rec->function = NULL;
    rec->file_len = rec->function_len = 0;
    rec->src_line = 0;
    const char *fields[3];
    size_t lens[3];
    int nf = 0;
    p = skip_blank(p, c->end);
    while (p < c->end) {
        const char *e = token_end(p, c->end);
        if (nf == 3)
            return fail_at(c, TK_ERR_FORMAT, p,
                           "expected end of line after 'id num_use_port instr_addr file_name "
                           "function_name line_num', found %s",
                           quote(p, c->end, q, sizeof q));
        fields[nf] = p;
        lens[nf++] = (size_t)(e - p);
        p = skip_blank(e, c->end);
    }
    if (nf >= 1 && !is_placeholder(fields[0], lens[0])) {
        rec->file = fields[0];
        rec->file_len = lens[0];
    }
    if (nf >= 2 && !is_placeholder(fields[1], lens[1])) {
        rec->function = fields[1];
        rec->function_len = lens[1];
    }
    if (nf == 3 && !is_placeholder(fields[2], lens[2])) {
        const char *lp = fields[2];
        if ((st = expect_dec(c, &lp, UINT32_MAX, "source line number", &v)) != TK_OK) return st;
        if (lp != fields[2] + lens[2])
            return fail_at(c, TK_ERR_FORMAT, fields[2],
                           "expected source line number (a decimal number), found %s",
                           quote(fields[2], fields[2] + lens[2], q, sizeof q));
        rec->src_line = (uint32_t)v;
    }
    r->id = rec->id;
    r->nports = rec->nports;
    r->port = 0;
    r->state = rec->nports > 0 ? ST_PORT : ST_VALUES;
    return TK_OK;
}

static void block_done(tk_wet_reader *r)
{
    r->blocks_done++;
    r->state = r->blocks_done < r->nblocks ? ST_BLOCK : ST_TRAILER;
}

static void port_done(tk_wet_reader *r)
{
    r->port++;
    r->state = r->port < r->nports ? ST_PORT : ST_VALUES;
}

static tk_status parse_size(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    char q[80];
    if (!word_is(p, c->end, "SIZE"))
        return fail_at(c, TK_ERR_FORMAT, p,
                       "expected 'SIZE n' for use port %u of %u of instruction %llu, found %s",
                       r->port, r->nports, (unsigned long long)r->id,
                       quote(p, c->end, q, sizeof q));
    p += 4;
    tk_status st = expect_dec(c, &p, (uint64_t)TK_DEPS_MAX_INSTANCE + 1,
                              "number of dependence entries", &rec->n);
    if (st != TK_OK || (st = expect_eol(c, p, "'SIZE n'")) != TK_OK) return st;
    rec->kind = TK_WET_REC_PORT;
    rec->port = r->port;
    r->count = rec->n;
    r->done = 0;
    r->prev_inst = -1;
    if (rec->n == 0)
        port_done(r);
    else
        r->state = ST_ENTRY;
    return TK_OK;
}

/* "X:" prefix shared by dependence and value lines; checks the order. */
static tk_status parse_instance_prefix(line_ctx *c, const char **pp, int port_list, uint32_t *inst)
{
    tk_wet_reader *r = c->r;
    const char *at = skip_blank(*pp, c->end);
    uint64_t v;
    tk_status st = expect_dec(c, pp, TK_DEPS_MAX_INSTANCE, "instance", &v);
    if (st != TK_OK) return st;
    if ((int64_t)v <= r->prev_inst) {
        char list[48];
        if (port_list)
            snprintf(list, sizeof list, "use port %u", r->port);
        else
            snprintf(list, sizeof list, "values");
        return fail_at(c, TK_ERR_FORMAT, at,
                       "instance %llu in the %s of instruction %llu is not greater than the "
                       "previous one (%lld): entries must be in increasing instance order",
                       (unsigned long long)v, list, (unsigned long long)r->id,
                       (long long)r->prev_inst);
    }
    if ((st = expect_char(c, pp, ':', "':' after the instance")) != TK_OK) return st;
    r->prev_inst = (int64_t)v;
    *inst = (uint32_t)v;
    return TK_OK;
}

static tk_status parse_entry(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    tk_status st;
    uint64_t v;
    const char *at = skip_blank(p, c->end);
    if (at == c->end || (unsigned)(*at - '0') > 9) {
        char q[80];
        return fail_at(c, TK_ERR_FORMAT, at,
                       "expected dependence entry %llu of %llu ('instance:dep_id "
                       "dep_instance') of use port %u of instruction %llu, found %s",
                       (unsigned long long)r->done + 1, (unsigned long long)r->count, r->port,
                       (unsigned long long)r->id, quote(at, c->end, q, sizeof q));
    }
    if ((st = parse_instance_prefix(c, &p, 1, &rec->inst)) != TK_OK) return st;
    rec->col_dep = (uint32_t)(skip_blank(p, c->end) - c->start) + 1;
    if ((st = expect_dec(c, &p, UINT64_MAX, "instruction id", &rec->dep_id)) != TK_OK) return st;
    rec->col_dep_inst = (uint32_t)(skip_blank(p, c->end) - c->start) + 1;
    if (p < c->end && *p != ' ' && *p != '\t')
        return expect_char(c, &p, ' ', "a blank between the id and the instance");
    if ((st = expect_dec(c, &p, TK_DEPS_MAX_INSTANCE, "instance", &v)) != TK_OK ||
        (st = expect_eol(c, p, "the dependence entry")) != TK_OK)
        return st;
    rec->kind = TK_WET_REC_DEP;
    rec->port = r->port;
    rec->dep_inst = (uint32_t)v;
    if (++r->done == r->count) port_done(r);
    return TK_OK;
}

static tk_status parse_values(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    tk_status st;
    char q[80];
    rec->kind = TK_WET_REC_VALUES;
    if (word_is(p, c->end, "NO")) {
        const char *w = skip_blank(p + 2, c->end);
        if (word_is(w, c->end, "VALUES")) {
            if ((st = expect_eol(c, w + 6, "'NO VALUES'")) != TK_OK) return st;
            rec->has_values = 0;
            rec->n = 0;
            block_done(r);
            return TK_OK;
        }
    } else if (word_is(p, c->end, "VALUES")) {
        p += 6;
        if ((st = expect_dec(c, &p, (uint64_t)TK_DEPS_MAX_INSTANCE + 1, "number of values",
                             &rec->n)) != TK_OK ||
            (st = expect_eol(c, p, "'VALUES n'")) != TK_OK)
            return st;
        rec->has_values = 1;
        r->count = rec->n;
        r->done = 0;
        r->prev_inst = -1;
        if (rec->n == 0)
            block_done(r);
        else
            r->state = ST_VALUE;
        return TK_OK;
    }
    if (word_is(p, c->end, "SIZE"))
        return fail_at(c, TK_ERR_FORMAT, p,
                       "instruction %llu declares %u use port%s but has another 'SIZE' line: "
                       "expected 'NO VALUES' or 'VALUES n'",
                       (unsigned long long)r->id, r->nports, r->nports == 1 ? "" : "s");
    return fail_at(c, TK_ERR_FORMAT, p,
                   "expected 'NO VALUES' or 'VALUES n' after the %u use ports of instruction "
                   "%llu, found %s",
                   r->nports, (unsigned long long)r->id, quote(p, c->end, q, sizeof q));
}

static tk_status parse_value(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    tk_status st;
    const char *at = skip_blank(p, c->end);
    if (at == c->end || (unsigned)(*at - '0') > 9) {
        char q[80];
        return fail_at(c, TK_ERR_FORMAT, at,
                       "expected value %llu of %llu ('instance:hex_value') of instruction "
                       "%llu, found %s",
                       (unsigned long long)r->done + 1, (unsigned long long)r->count,
                       (unsigned long long)r->id, quote(at, c->end, q, sizeof q));
    }
    if ((st = parse_instance_prefix(c, &p, 0, &rec->inst)) != TK_OK) return st;
    p = skip_blank(p, c->end);
    rec->value_words = 1;
    if ((st = expect_value(c, &p, rec)) != TK_OK || (st = expect_eol(c, p, "the value")) != TK_OK)
        return st;
    rec->kind = TK_WET_REC_VALUE;
    if (++r->done == r->count) block_done(r);
    return TK_OK;
}

static tk_status parse_first(line_ctx *c, const char *p, tk_wet_rec *rec)
{
    tk_wet_reader *r = c->r;
    char q[80];
    const char *e = token_end(p, c->end);
    if (looks_like_history(p, c->end)) {
        r->form = TK_DEPS_HISTORY;
        r->state = ST_HISTORY;
        return parse_history(c, p, rec);
    }
    const char *d = p;
    uint64_t n;
    tk_status nst = tk_num_scan_dec(&d, e, &n);
    if (nst == TK_ERR_LIMIT && d == e && skip_blank(e, c->end) == c->end)
        return fail_at(c, TK_ERR_LIMIT, p,
                       "number of instruction blocks %.*s exceeds the limit %llu", (int)(e - p), p,
                       (unsigned long long)UINT64_MAX);
    if (nst == TK_OK && d == e && skip_blank(e, c->end) == c->end) {
        r->form = TK_DEPS_COMPREHENSIVE;
        rec->kind = TK_WET_REC_COUNT;
        rec->n = n;
        r->nblocks = n;
        r->state = n > 0 ? ST_BLOCK : ST_TRAILER;
        return TK_OK;
    }
    return fail_at(c, TK_ERR_FORMAT, p,
                   "expected the number of instruction blocks (comprehensive form) or "
                   "'ADDR#INSTANCE --> ADDR#INSTANCE' (limited-history form), found %s",
                   quote(p, c->end, q, sizeof q));
}

static tk_status at_end(tk_wet_reader *r, tk_error *err)
{
    const char *path = tk_input_path(r->in);
    uint64_t line = r->line_no + 1;
    char what[160];
    switch (r->state) {
    case ST_TRAILER:
    case ST_HISTORY: return TK_END;
    case ST_START:
        snprintf(what, sizeof what, "the number of instruction blocks or a limited-history line");
        break;
    case ST_BLOCK:
        snprintf(what, sizeof what, "instruction block %llu of %llu",
                 (unsigned long long)r->blocks_done + 1, (unsigned long long)r->nblocks);
        break;
    case ST_PORT:
        snprintf(what, sizeof what, "'SIZE n' for use port %u of %u of instruction %llu", r->port,
                 r->nports, (unsigned long long)r->id);
        break;
    case ST_ENTRY:
        snprintf(what, sizeof what,
                 "dependence entry %llu of %llu of use port %u of instruction %llu",
                 (unsigned long long)r->done + 1, (unsigned long long)r->count, r->port,
                 (unsigned long long)r->id);
        break;
    case ST_VALUES:
        snprintf(what, sizeof what, "'NO VALUES' or 'VALUES n' of instruction %llu",
                 (unsigned long long)r->id);
        break;
    case ST_VALUE:
        snprintf(what, sizeof what, "value %llu of %llu of instruction %llu",
                 (unsigned long long)r->done + 1, (unsigned long long)r->count,
                 (unsigned long long)r->id);
        break;
    default: return r->failure.code;
    }
    tk_error_set_at(&r->failure, TK_ERR_FORMAT, path, -1, line, 1,
                    "truncated trace: expected %s, found end of file", what);
    if (err) *err = r->failure;
    r->state = ST_FAILED;
    return TK_ERR_FORMAT;
}

/* Fast paths for the lines that make up nearly all of a trace: a dependence
 * entry "  X:ID N" and a value "  X:HEX" in their plain form (core/fastpath.h:
 * numbers of up to 19 digits, which cannot overflow). They return 0 when the
 * line is anything else; the careful parsers (their general twins) then read
 * and report it. Taken when WET_FAST(r) (formats/wet/wet_internal.h). */
static inline const char *fast_dec(const char *p, const char *end, uint64_t *out)
{
    return tk_fast_dec(p, end, TK_FAST_DEC_MAX, out);
}

static int fast_entry(tk_wet_reader *r, const char *p, const char *end, const char *start,
                      tk_wet_rec *rec)
{
    uint64_t inst, id, dinst;
    const char *q = fast_dec(p, end, &inst);
    if (!q || q == end || *q != ':' || (int64_t)inst <= r->prev_inst || inst > TK_DEPS_MAX_INSTANCE)
        return 0;
    const char *idp = q + 1;
    if (!(q = fast_dec(idp, end, &id)) || q == end || *q != ' ') return 0;
    const char *ip = q + 1;
    if (!(q = fast_dec(ip, end, &dinst)) || dinst > TK_DEPS_MAX_INSTANCE) return 0;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (q != end) return 0;
    rec->kind = TK_WET_REC_DEP;
    rec->port = r->port;
    rec->inst = (uint32_t)inst;
    rec->dep_id = id;
    rec->dep_inst = (uint32_t)dinst;
    rec->col_dep = (uint32_t)(idp - start) + 1;
    rec->col_dep_inst = (uint32_t)(ip - start) + 1;
    r->prev_inst = (int64_t)inst;
    if (++r->done == r->count) port_done(r);
    return 1;
}

static int fast_value(tk_wet_reader *r, const char *p, const char *end, tk_wet_rec *rec)
{
    uint64_t inst, v = 0;
    const char *q = fast_dec(p, end, &inst);
    if (!q || q == end || *q != ':' || (int64_t)inst <= r->prev_inst || inst > TK_DEPS_MAX_INSTANCE)
        return 0;
    q++;
    if (end - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) q += 2;
    if (!(q = tk_fast_hex(q, end, TK_FAST_HEX_MAX, &v))) return 0;
    while (q < end && (*q == ' ' || *q == '\t' || *q == '\r')) q++;
    if (q != end) return 0;
    rec->kind = TK_WET_REC_VALUE;
    rec->inst = (uint32_t)inst;
    rec->value = v;
    rec->value_words = 1;
    r->prev_inst = (int64_t)inst;
    if (++r->done == r->count) block_done(r);
    return 1;
}

tk_status tk_wet_reader_next(tk_wet_reader *r, tk_wet_rec *rec, tk_error *err)
{
    if (r->state == ST_FAILED) {
        if (err) *err = r->failure;
        return r->failure.code;
    }
    for (;;) {
        const char *line = NULL;
        size_t len = 0;
        tk_status st = next_line(r, &line, &len, err);
        if (st == TK_END) return at_end(r, err);
        if (st != TK_OK) {
            if (err && err->line == 0)
                tk_error_locate(err, tk_input_path(r->in), -1, r->line_no + 1, 1);
            if (err) r->failure = *err;
            r->failure.code = st;
            r->state = ST_FAILED;
            return st;
        }
        const char *end = line + len;
        const char *p = skip_blank(line, end);
        if (WET_FAST(r) && r->state == ST_ENTRY && fast_entry(r, p, end, line, rec)) {
            rec->line = r->line_no;
            return TK_OK;
        }
        if (WET_FAST(r) && r->state == ST_VALUE && fast_value(r, p, end, rec)) {
            rec->line = r->line_no;
            return TK_OK;
        }
        line_ctx c = {r, line, end, r->line_no, err};
        if (p == c.end) continue; /* blank lines are allowed anywhere */
        if (memchr(line, '\0', len))
            return fail_at(&c, TK_ERR_FORMAT, (const char *)memchr(line, '\0', len),
                           "unexpected NUL byte (binary data in a text trace)");
        rec->line = c.line;
        switch (r->state) {
        case ST_START: return parse_first(&c, p, rec);
        case ST_BLOCK: return parse_instr(&c, p, rec);
        case ST_PORT: return parse_size(&c, p, rec);
        case ST_ENTRY: return parse_entry(&c, p, rec);
        case ST_VALUES: return parse_values(&c, p, rec);
        case ST_VALUE: return parse_value(&c, p, rec);
        case ST_HISTORY:
            if (!looks_like_history(p, c.end) && (unsigned)(*p - '0') <= 9 &&
                token_end(p, c.end) == c.end) {
                char q[80];
                return fail_at(&c, TK_ERR_FORMAT, p,
                               "expected 'ADDR#INSTANCE --> ADDR#INSTANCE', found %s (a "
                               "limited-history trace cannot contain a comprehensive one)",
                               quote(p, c.end, q, sizeof q));
            }
            return parse_history(&c, p, rec);
        case ST_TRAILER: {
            char q[80];
            return fail_at(&c, TK_ERR_FORMAT, p,
                           "expected end of file after %llu instruction blocks, found %s",
                           (unsigned long long)r->nblocks, quote(p, c.end, q, sizeof q));
        }
        default: return r->failure.code;
        }
    }
}
