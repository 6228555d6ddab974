/* tracekit: WET whole execution traces (comprehensive and limited-history forms).
 * See docs/formats/wet.md for the grammar tracekit accepts and its decisions. */
#ifndef TRACEKIT_WET_H
#define TRACEKIT_WET_H

#include <stdint.h>

#include "deps.h"
#include "input.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_wet_rec_kind {
    TK_WET_REC_COUNT = 0, /* comprehensive header: n = number of instruction blocks */
    TK_WET_REC_INSTR, /* static info line of a block */
    TK_WET_REC_PORT, /* "SIZE n" of use port `port` */
    TK_WET_REC_DEP, /* "inst:dep_id dep_inst" of use port `port` */
    TK_WET_REC_VALUES, /* "VALUES n" (has_values = 1) or "NO VALUES" */
    TK_WET_REC_VALUE, /* "inst:hex_value" */
    TK_WET_REC_EDGE /* limited history: "0xA#i --> 0xB#j" */
} tk_wet_rec_kind;

/* One record. Strings point into the input line and are borrowed until the
 * next call. Columns are 1-based byte columns of the fields, for errors. */
typedef struct tk_wet_rec {
    tk_wet_rec_kind kind;
    uint64_t line; /* line number of the record */
    uint64_t n; /* COUNT, PORT, VALUES: the count */
    /* INSTR */
    uint64_t id;
    uint32_t nports;
    uint64_t addr;
    const char *file; /* NULL when absent or a placeholder ("??") */
    size_t file_len;
    const char *function; /* NULL when absent or a placeholder */
    size_t function_len;
    uint32_t src_line; /* 0 when absent */
    /* PORT, DEP */
    uint32_t port;
    /* DEP, VALUE; EDGE: the dependent side */
    uint32_t inst;
    uint64_t dep_id; /* DEP: id; EDGE: address depended upon */
    uint32_t dep_inst;
    uint32_t col_dep; /* column of dep_id / the right-hand address */
    uint32_t col_dep_inst;
    /* VALUES, VALUE */
    int has_values;
    uint64_t value; /* VALUE: its low 64 bits */
    /* EDGE: the dependent address (inst above) */
    uint64_t addr_from;
    /* VALUE: the whole value, up to 256 bits: value_words 64-bit words, the lowest
     * (value) first, then value_hi */
    uint32_t value_words;
    uint64_t value_hi[TK_DEPS_VALUE_WORDS - 1];
} tk_wet_rec;

typedef struct tk_wet_reader tk_wet_reader;

/* A streaming pull reader over `in` (borrowed; must outlive the reader).
 * It checks the grammar and every count (blocks, SIZE, VALUES, one SIZE per
 * use port), the order of instances within a port or a VALUES list (strictly
 * increasing) and the instance limit; not references (see tk_wet_read). TK_OK,
 * TK_ERR_NOMEM. */
TK_API tk_status tk_wet_reader_open(tk_wet_reader **out, tk_input *in, tk_error *err);
/* TK_OK with *rec filled, TK_END at the end, or an error located at
 * path:line:column: TK_ERR_FORMAT, TK_ERR_LIMIT (a number over 64 bits, the instance limit),
 * TK_ERR_NOMEM, or the input's (TK_ERR_IO, TK_ERR_FORMAT of compressed data, TK_ERR_LIMIT of
 * a line too long). After an error the reader stays failed. */
TK_API tk_status tk_wet_reader_next(tk_wet_reader *r, tk_wet_rec *rec, tk_error *err);
/* The form, known after the first record. */
TK_API tk_deps_form tk_wet_reader_form(const tk_wet_reader *r);
TK_API void tk_wet_reader_free(tk_wet_reader *r);

/* Read a whole trace into a deps model. Errors (grammar, counts, undefined
 * ids, instances beyond a target's known execution count) are located.
 * With a diag, every reference problem is reported there, loading goes on and
 * the result is TK_ERR_CHECK when any was found (*out is then still set when
 * the grammar was fine). Without one, the first problem is returned in err.
 * The caller owns *out. */
TK_API tk_status tk_wet_read(tk_deps **out, tk_input *in, tk_diag *diag, tk_error *err);

/* Check a limited-history trace (read from `history`) against the comprehensive trace of
 * the same run: every dependence the history records must be one of comprehensive's. Each
 * one that is not is an error to diag (which must be given) at its line of the history.
 * Returns TK_OK (every one found), TK_ERR_CHECK (errors reported), or the error that stopped
 * the reading (err set, located). */
TK_API tk_status tk_wet_check_history(tk_input *history, const tk_deps *comprehensive,
                                      tk_diag *diag, tk_error *err);

/* Writers; each returns TK_OK, TK_ERR_IO (f failed), TK_ERR_NOMEM, TK_ERR_ARG (a writer
 * without a callback). */
/* Canonical comprehensive form: blocks in model order, ports, values. */
TK_API tk_status tk_wet_write(const tk_deps *d, const tk_writer *f, tk_error *err);
/* Every dependence in the limited-history form, ordered by dependent
 * (address, instance). */
TK_API tk_status tk_wet_write_history(const tk_deps *d, const tk_writer *f, tk_error *err);
/* JSON: {"version":1,"format":"wet","form":...,"instructions":[...]} */
TK_API tk_status tk_wet_write_json(const tk_deps *d, const tk_writer *f, tk_error *err);
/* Deterministic text of the model (the golden format of `dump`). */
TK_API tk_status tk_wet_dump(const tk_deps *d, const tk_writer *f, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
