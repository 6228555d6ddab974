/* tracekit: CSI coverage metadata (.debug_CC, .debug_FC, .debug_BBC of csi-cc)
 * and the coverage a crashed program had reached (its coverage arrays read
 * from a core file).
 *
 * Text, one function after the other; the header names the function and its
 * global coverage array, entry lines describe the array's slots:
 *
 *   #a|__CC_arr_tests_funcs_funcs_c_a   call-site coverage (.debug_CC)
 *   0|CC0|20|printf                     index|label|line|callee (csi-cc 1.3+)
 *   -1||18|abc                          a site left uninstrumented (-csi-opt >= 1)
 *   0|20|printf                         index|line|callee (documented, csi-cc 1.0)
 *   #abc|__BBC_arr_tests_funcs_funcs_c_abc   statement coverage (.debug_BBC)
 *   0|BBC0|3|3|4                        index|label|line|line... (or |NULL)
 *   0|3|4                               index|line... (documented form)
 *   #main|__FC_arr_tests_funcs_funcs_c_main  function coverage (.debug_FC): no entries
 *
 * A CC or BBC array is one byte per instrumented entry (index 0..N-1), an FC
 * "array" one byte; csi-cc stores 1 into a slot when the block starts, when
 * the call has returned, or when the function is entered.
 * See docs/formats/csi.md for every decision taken where upstream is silent.
 */
#ifndef TRACEKIT_CSI_COV_H
#define TRACEKIT_CSI_COV_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "status.h"
#include "writer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which coverage: call sites, functions, basic blocks (statements). */
typedef enum tk_csi_cov_kind {
    TK_CSI_COV_NONE = 0,
    TK_CSI_COV_CC = 1,
    TK_CSI_COV_FC = 2,
    TK_CSI_COV_BBC = 3
} tk_csi_cov_kind;

/* How the entry lines are written. */
typedef enum tk_csi_cov_form {
    TK_CSI_COV_FORM_ANY = 0, /* reader: as the first entry line; writer: as read */
    TK_CSI_COV_FORM_LABELS = 1, /* csi-cc 1.3+: index|CCn|line|callee, index|BBCn|line... */
    TK_CSI_COV_FORM_PLAIN = 2 /* documented grammar, csi-cc 1.0: index|line|callee,
                                 * index|line... */
} tk_csi_cov_form;

/* "CC", "FC", "BBC" (the label and array prefix); ".debug_CC"...; "call site"... */
TK_API const char *tk_csi_cov_kind_name(tk_csi_cov_kind kind);
TK_API const char *tk_csi_cov_section(tk_csi_cov_kind kind);
TK_API const char *tk_csi_cov_kind_title(tk_csi_cov_kind kind);
/* The kind an array name belongs to by its prefix (__CC_arr_, __FC_arr_,
 * __BBC_arr_), or TK_CSI_COV_NONE. */
TK_API tk_csi_cov_kind tk_csi_cov_kind_of_array(const char *array, size_t len);

typedef struct tk_csi_cov_entry {
    int64_t index; /* >= 0: the slot in the array; < 0: not instrumented (-1, -2...) */
    const char *label; /* labelled form: "CC3", "" when not instrumented; plain: NULL */
    size_t label_len;
    const uint64_t *lines; /* CC: one line (0: unknown); BBC: the lines in order */
    size_t nlines;
    int null_lines; /* BBC: written NULL (no line information) */
    const char *callee; /* CC: the called function, "?" when not known; else NULL */
    size_t callee_len;
    uint64_t text_line; /* line of the metadata text */
} tk_csi_cov_entry;

typedef struct tk_csi_cov_function {
    const char *name; /* NUL-terminated; may be a clone name "foo$1" */
    size_t name_len;
    const char *array; /* the global coverage array, NUL-terminated */
    size_t array_len;
    uint64_t ordinal; /* 0-based position among the functions of the input */
    uint64_t text_line; /* line of the "#" header */
    const tk_csi_cov_entry *entries; /* in file order */
    uint32_t nentries;
    uint32_t ninstrumented; /* entries with index >= 0 */
} tk_csi_cov_function;

/* ---- reading ---------------------------------------------------------- */

typedef struct tk_csi_cov_reader tk_csi_cov_reader;

/* Read coverage metadata of `kind` from `in` (borrowed; must outlive the
 * reader); TK_CSI_COV_NONE: the kind of the first header's array name.
 * TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_reader_open(tk_csi_cov_reader **out, tk_input *in, tk_csi_cov_kind kind,
                                        tk_error *err);
TK_API void tk_csi_cov_reader_free(tk_csi_cov_reader *r);

/* The next function. TK_OK (*fn borrowed until the next call), TK_END, or an
 * error located at path:line:column: TK_ERR_FORMAT (grammar, an entry line
 * of the other form than the first one), TK_ERR_LIMIT (a number or a count
 * too large), TK_ERR_IO, TK_ERR_NOMEM. After TK_ERR_FORMAT or TK_ERR_LIMIT
 * the next call resumes at the next header; after an error of the input
 * itself the next call returns TK_END. */
TK_API tk_status tk_csi_cov_reader_next(tk_csi_cov_reader *r, const tk_csi_cov_function **fn,
                                        tk_error *err);
/* The kind read (known after the first header) and the form of the entry
 * lines (TK_CSI_COV_FORM_ANY until the first entry line). */
TK_API tk_csi_cov_kind tk_csi_cov_reader_kind(const tk_csi_cov_reader *r);
TK_API tk_csi_cov_form tk_csi_cov_reader_form(const tk_csi_cov_reader *r);

/* Line entries of all the function's entries (with repeats). */
TK_API size_t tk_csi_cov_line_entries(const tk_csi_cov_function *fn);
/* The distinct line numbers of the function's entries, ascending, into out
 * (room for tk_csi_cov_line_entries(fn) numbers); returns their count. */
TK_API size_t tk_csi_cov_lines(const tk_csi_cov_function *fn, uint64_t *out);

/* ---- writing ---------------------------------------------------------- */

/* Canonical text of one function in `form` (TK_CSI_COV_FORM_ANY: labelled
 * when the entries carry labels). Labels are written as read; an entry read
 * without one gets csi-cc's ("CC3"; "" when not instrumented). TK_OK or TK_ERR_IO. */
TK_API tk_status tk_csi_cov_write_function(const tk_writer *out, tk_csi_cov_kind kind,
                                           tk_csi_cov_form form, const tk_csi_cov_function *fn,
                                           tk_error *err);

/* Deterministic description of one function (the golden format of `dump`). TK_OK,
 * TK_ERR_IO (the writer failed) or TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_dump_function(const tk_writer *out, tk_csi_cov_kind kind,
                                          const tk_csi_cov_function *fn, tk_error *err);

/* ---- checking --------------------------------------------------------- */

/* The rules that span functions (an array used twice), so one per input. */
typedef struct tk_csi_cov_checker tk_csi_cov_checker;

/* A checker for metadata of `kind` (*out, tk_csi_cov_checker_free). TK_OK or
 * TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_checker_open(tk_csi_cov_checker **out, tk_csi_cov_kind kind,
                                         tk_error *err);
TK_API void tk_csi_cov_checker_free(tk_csi_cov_checker *c);

/* Check one function: the array name is the kind's and the function's
 * (__CC_arr_[FILE_]NAME), instrumented indices are 0..N-1 and the others
 * -1..-M, each once, labels are csi-cc's, a CC or BBC function has an
 * instrumented entry, no other function used the same array. Problems go to
 * diag, located in the text (path). TK_OK, TK_ERR_CHECK (errors reported),
 * TK_ERR_NOMEM. */
TK_API tk_status tk_csi_cov_check_function(tk_csi_cov_checker *c, const tk_csi_cov_function *fn,
                                           const char *path, tk_diag *diag, tk_error *err);

/* ---- coverage at crash time ------------------------------------------ */

/* Whether an entry ran: its byte in the coverage array was set, was not, or
 * cannot be told (the site was not instrumented). */
typedef enum tk_csi_hit {
    TK_CSI_HIT_NO = 0,
    TK_CSI_HIT_YES = 1,
    TK_CSI_HIT_UNKNOWN = 2
} tk_csi_hit;

/* A call site (CC) or block (BBC) of a crashed program. */
typedef struct tk_csi_crash_entry {
    int64_t index; /* as in the metadata (< 0: not instrumented) */
    const uint64_t *lines; /* CC: the call's line; BBC: the block's lines */
    size_t nlines;
    const char *callee; /* CC: the called function ("?": not known); BBC: NULL */
    tk_csi_hit hit;
} tk_csi_crash_entry;

/* A source line of a function: covered when a covered block (or, without
 * statement coverage, a returned call) holds it; not covered when every
 * instrumented entry holding it is not; unknown otherwise. */
typedef struct tk_csi_crash_line {
    uint64_t line;
    tk_csi_hit hit;
} tk_csi_crash_line;

typedef struct tk_csi_crash_function {
    const char *name; /* as in the metadata */
    const char *key; /* its arrays' name after __XX_arr_ ("tests_funcs_funcs_c_a") */
    const char *source; /* its source file from BIN's DWARF, or NULL */
    int has_fc, has_cc, has_bbc; /* which metadata lists the function */
    tk_csi_hit entered; /* FC: the function was entered (UNKNOWN without FC) */
    const tk_csi_crash_entry *sites; /* CC, in metadata order */
    uint32_t nsites;
    const tk_csi_crash_entry *blocks; /* BBC, in metadata order */
    uint32_t nblocks;
    const tk_csi_crash_line *lines; /* distinct, ascending */
    size_t nlines;
    uint64_t fc_address, cc_address, bbc_address; /* the arrays in the process (0: none) */
} tk_csi_crash_function;

typedef struct tk_csi_crash tk_csi_crash;

typedef struct tk_csi_crash_options {
    int raw; /* the memory is a raw image, not an ELF core file */
    uint64_t raw_address; /* raw: the address of its first byte */
    uint64_t bias; /* raw: BIN's load bias (a position-independent executable) */
} tk_csi_crash_options;

#define TK_CSI_CRASH_OPTIONS_INIT \
    { \
        0, 0, 0 \
    }

/* The coverage a crashed program had reached: BIN's .debug_CC, .debug_FC and
 * .debug_BBC name each function's coverage array, BIN's symbol table gives
 * its address, and the bytes come from the core's memory (or the raw image).
 * bin and core are the files' bytes (borrowed: they must outlive the
 * result). For a core, BIN's load address comes from the core's auxiliary
 * vector (AT_ENTRY) and BIN must be the core's program: its build id is
 * compared with the one in the core's memory. TK_OK; TK_ERR_FORMAT with a
 * location (BIN without coverage sections or with a bad one, an array
 * without a symbol or outside every segment of the core, a core that is
 * truncated or damaged, a BIN that does not match the core); TK_ERR_NOMEM. */
TK_API tk_status tk_csi_crash_read(tk_csi_crash **out, const char *bin_path, const void *bin,
                                   size_t bin_len, const char *core_path, const void *core,
                                   size_t core_len, const tk_csi_crash_options *opt, tk_error *err);
TK_API void tk_csi_crash_free(tk_csi_crash *c);

/* The functions: those of .debug_FC in its order, then those only in
 * .debug_CC, then those only in .debug_BBC. */
TK_API size_t tk_csi_crash_count(const tk_csi_crash *c);
TK_API const tk_csi_crash_function *tk_csi_crash_at(const tk_csi_crash *c, size_t i);

/* BIN's load bias in the process (0 for a fixed-address executable). */
TK_API uint64_t tk_csi_crash_bias(const tk_csi_crash *c);
/* How BIN was matched with the core: "build id 4f1c... (BIN and core)",
 * "not checked: ...". */
TK_API const char *tk_csi_crash_match(const tk_csi_crash *c);
/* Remarks found on the way (one per line; "" when none): a build id that
 * could not be checked, an FC flag that disagrees with the blocks... */
TK_API const char *tk_csi_crash_notes(const tk_csi_crash *c);

/* One frame of the crashed thread (innermost first), unwound from the core
 * with BIN's call frame information, when BIN has path-tracing metadata
 * (.debug_PT) too. A traced frame is one of a function with csi-cc's
 * path-tracing locals; their values are read from the core through their
 * DWARF locations, ready for tk_csi_state_decode. */
typedef struct tk_csi_crash_frame {
    uint32_t depth; /* 0: the frame that crashed */
    uint64_t pc; /* its program counter (a return address above 0) */
    const char *function; /* its function in BIN's DWARF, or NULL */
    const char *source; /* the source file of the call or instruction, or NULL */
    uint64_t line; /* its line (0: unknown) */
    int traced; /* the function has the path-tracing locals */
    const char *problem; /* why they could not be read, or NULL */
    const int64_t *paths; /* __PT_counter_arr as in memory (raw, not reordered) */
    size_t npaths;
    int64_t idx; /* __PT_counter_idx */
    int64_t cur; /* __PT_current_path */
} tk_csi_crash_frame;

/* BIN has .debug_PT: the frames were unwound (a raw image has none). */
TK_API int tk_csi_crash_has_pt(const tk_csi_crash *c);
TK_API size_t tk_csi_crash_frame_count(const tk_csi_crash *c);
TK_API const tk_csi_crash_frame *tk_csi_crash_frame_at(const tk_csi_crash *c, size_t i);

#ifdef __cplusplus
}
#endif
#endif
