/* DCFG-Trace: decoding one chunk (spec 3.7.2) with the compiled tables.
 *
 * The bit buffer holds up to 64 bits, most significant first; it is refilled
 * from the lazy expander 6 bits per character. Each step looks the next
 * `bits` bits up in the current state's table. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "formats/dcfg_trace/dt_internal.h"

#define OUT_BATCH 4096

typedef struct bitpos_ctx {
    uint64_t bit; /* bit index in the chunk's expanded bit string */
} bitpos_ctx;

/* Byte offset of the character that holds bit `bit` of the expanded sequence
 * (re-expands from the start: used for error messages only). */
static int64_t offset_of_bit(const tk_dcfg_trace *t, const dt_process *p, const dt_chunk *c,
                             uint64_t bit)
{
    dt_expander x;
    tk_error e;
    tk_dt_expander_init(&x, t, p, t->data + c->seq_offset, c->seq_len, UINT64_MAX);
    uint64_t want = bit / 6 + 1;
    int64_t off = c->seq_offset;
    for (uint64_t i = 0; i < want; i++) {
        int v = dt_expander_next(&x, &e);
        if (v < 0) return i == 0 ? c->seq_offset : (int64_t)(x.last_char - t->data);
        off = (int64_t)(x.last_char - t->data);
    }
    return off;
}

static void bits_text(uint64_t buf, unsigned n, char *out)
{
    for (unsigned i = 0; i < n && i < 32; i++) out[i] = (char)('0' + ((buf >> (63 - i)) & 1u));
    out[n < 32 ? n : 32] = 0;
}

/* Characters expanded at most for a chunk of `transitions` transitions: its
 * longest possible bit string (the expander stops there). */
static uint64_t char_budget(const dt_table *tab, uint64_t transitions)
{
    uint64_t max_bits = transitions * (uint64_t)tab->max_code_len;
    if (tab->max_code_len != 0 && max_bits / tab->max_code_len != transitions)
        max_bits = UINT64_MAX;
    return max_bits == UINT64_MAX ? UINT64_MAX / 8 : (max_bits + 5) / 6;
}

/* Entry e of state st does not give a transition (and is no subtable to
 * follow): the error, located. left: edges still to decode; consumed: bits
 * consumed; buf, nbits: the bits at hand. Out of line and cold, as the other
 * errors of the loop: inlined, their arguments cost the decoding loop a
 * register (2 % more instructions on the --compat=intel bench trace). */
__attribute__((noinline, cold)) static tk_status
bad_entry(const tk_dcfg_trace *t, const dt_process *p, const dt_chunk *c, const dt_state *st,
          const dt_entry *e, uint64_t buf, unsigned nbits, uint64_t consumed, uint64_t left,
          uint64_t done, tk_error *err)
{
    if (st->dead)
        return tk_dt_error_at(t, err, TK_ERR_FORMAT, c->row_offset,
                              "no transitions from edge %u in TRANSITION_TABLE, but %llu more "
                              "edge(s) remain to decode (edge %llu of the chunk)",
                              st->edge, (unsigned long long)left, (unsigned long long)done);
    if (e->len > nbits || (e->kind == DT_ENTRY_SUBTABLE && nbits == 0))
        return tk_dt_error_at(
            t, err, TK_ERR_FORMAT, offset_of_bit(t, p, c, consumed ? consumed - 1 : 0),
            "EDGE_ID_SEQUENCE ran out of bits after %llu of %llu edges "
            "(EDGE_COUNT); no padding is assumed",
            (unsigned long long)(c->edge_count - left), (unsigned long long)c->edge_count);
    char bits[40];
    bits_text(buf, e->len, bits);
    return tk_dt_error_at(t, err, TK_ERR_FORMAT, offset_of_bit(t, p, c, consumed),
                          "no transition from edge %u for the bits %s%s (bit %llu of the "
                          "chunk, edge %llu of %llu)",
                          st->edge, st->depth ? "..." : "", bits, (unsigned long long)consumed,
                          (unsigned long long)(c->edge_count - left + 1),
                          (unsigned long long)c->edge_count);
}

__attribute__((noinline, cold)) static tk_status
zero_bit_cycle(const tk_dcfg_trace *t, const dt_chunk *c, const dt_state *st, tk_error *err)
{
    return tk_dt_error_at(t, err, TK_ERR_LIMIT, c->row_offset,
                          "more than %d transitions in a row consume no bits (a cycle of "
                          "sole successors around edge %u); EDGE_COUNT %llu is not credible",
                          TK_DCFG_TRACE_MAX_ZERO_BIT_RUN, st->edge,
                          (unsigned long long)c->edge_count);
}

/* After the last transition: the bits left (nbits in the buffer, and the
 * characters the expander still has unless at_end) are padding; more than 5
 * is a warning to diag. */
static tk_status check_leftover(const tk_dcfg_trace *t, const dt_chunk *c, dt_expander *x,
                                int at_end, unsigned nbits, tk_diag *diag, tk_error *err)
{
    uint64_t extra_chars = 0;
    if (!at_end) {
        for (;;) {
            int v = dt_expander_next(x, err);
            if (v == -2) return err->code;
            if (v < 0) break;
            extra_chars++;
            if (extra_chars > 1000000) break;
        }
    }
    uint64_t leftover = nbits + 6 * extra_chars;
    if (leftover > 5 && diag) {
        uint64_t line, col;
        int64_t off = c->seq_offset;
        tk_dt_line_col(t, off, &line, &col);
        tk_location loc = {t->path, off, line, col};
        tk_diag_report(diag, TK_SEV_WARNING, &loc,
                       "EDGE_ID_SEQUENCE has %s%llu unused bits after EDGE_COUNT %llu edges "
                       "(at most 5 are padding)",
                       extra_chars > 1000000 ? "more than " : "", (unsigned long long)leftover,
                       (unsigned long long)c->edge_count);
    }
    return TK_OK;
}

/* Hand out the batch out[0..*nout) of edges (the edges decoded so far go
 * out in batches of OUT_BATCH; *emitted counts those handed out before): 1
 * when emit asked to stop (*edges_out set). The counts are the caller's
 * locals, not fields of a struct whose address emit could see: they stay in
 * registers in the decoding loop. */
static inline __attribute__((always_inline)) int flush(tk_dcfg_trace_emit_fn emit, void *ctx,
                                                       uint32_t *out, size_t *nout,
                                                       uint64_t *emitted, uint64_t *edges_out)
{
    if (emit && emit(ctx, out, *nout)) {
        *edges_out = *emitted + *nout;
        return 1;
    }
    *emitted += *nout;
    *nout = 0;
    return 0;
}

tk_status tk_dt_decode_chunk(const tk_dcfg_trace *t, const dt_process *p, const dt_chunk *c,
                             tk_dcfg_trace_emit_fn emit, void *ctx, uint64_t *edges_out,
                             tk_diag *diag, tk_error *err)
{
    uint32_t out[OUT_BATCH];
    size_t nout = 0;
    uint64_t emitted = 0;
    *edges_out = 0;
    if (c->edge_count == 0) return TK_OK;
    const dt_table *tab = &p->table;
    uint64_t transitions = c->edge_count - 1;
    dt_expander x;
    tk_dt_expander_init(&x, t, p, t->data + c->seq_offset, c->seq_len,
                        char_budget(tab, transitions));

    out[nout++] = (uint32_t)c->first_edge_id;
    uint32_t s = UINT32_MAX;
    if (transitions > 0) {
        s = tk_dt_table_state_of(tab, c->first_edge_id);
        if (s == UINT32_MAX)
            return tk_dt_error_at(
                t, err, TK_ERR_FORMAT, c->row_offset,
                "FIRST_EDGE_ID %llu has no transitions in the process's TRANSITION_TABLE "
                "but EDGE_COUNT is %llu",
                (unsigned long long)c->first_edge_id, (unsigned long long)c->edge_count);
    }
    const dt_state *states = tab->states;
    const dt_entry *entries = tab->entries;
    uint64_t buf = 0;
    unsigned nbits = 0;
    uint64_t consumed = 0; /* bits consumed (for messages) */
    int at_end = 0;
    uint64_t left = transitions;
    uint32_t zero_run = 0;
    while (left > 0) {
        const dt_state *st = &states[s];
        unsigned k = st->bits;
        if (nbits < k && !at_end) {
            while (nbits <= 58) {
                int v = dt_expander_next(&x, err);
                if (v < 0) {
                    if (v == -2) return err->code;
                    at_end = 1;
                    break;
                }
                buf |= (uint64_t)v << (58 - nbits);
                nbits += 6;
            }
        }
        uint32_t idx = k ? (uint32_t)(buf >> (64 - k)) : 0;
        const dt_entry *e = &entries[st->first + idx];
        if (e->kind != DT_ENTRY_TRANSITION || e->len > nbits) {
            if (e->kind != DT_ENTRY_SUBTABLE || st->dead || e->len > nbits || nbits == 0)
                return bad_entry(t, p, c, st, e, buf, nbits, consumed, left, emitted + nout, err);
            buf <<= e->len; /* a subtable: the next bits there */
            nbits -= e->len;
            consumed += e->len;
            s = e->next;
            continue;
        }
        buf <<= e->len;
        nbits -= e->len;
        consumed += e->len;
        if (e->len == 0) {
            if (++zero_run > TK_DCFG_TRACE_MAX_ZERO_BIT_RUN) return zero_bit_cycle(t, c, st, err);
        } else {
            zero_run = 0;
        }
        if (e->nedges == 1) {
            out[nout++] = e->edge;
        } else {
            const uint32_t *m = tab->multi_edges + e->edge;
            for (unsigned i = 0; i < e->nedges; i++) {
                if (nout == OUT_BATCH && flush(emit, ctx, out, &nout, &emitted, edges_out))
                    return TK_END;
                out[nout++] = m[i];
            }
        }
        if (nout == OUT_BATCH && flush(emit, ctx, out, &nout, &emitted, edges_out)) return TK_END;
        s = e->next;
        left--;
    }
    if (nout > 0 && flush(emit, ctx, out, &nout, &emitted, edges_out)) return TK_END;
    *edges_out = emitted;
    return check_leftover(t, c, &x, at_end, nbits, diag, err);
}
