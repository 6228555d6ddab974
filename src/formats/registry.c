/* The static table of formats and content detection over it. */
#include <stdio.h>
#include <string.h>

#include "core/elf.h"
#include "formats/csi_cov/cov_internal.h"
#include "tracekit/format.h"

extern const tk_format tk_format_callgrind;
extern const tk_format tk_format_xray;
extern const tk_format tk_format_dcfg;
extern const tk_format tk_format_dcfg_trace;
extern const tk_format tk_format_csi;
extern const tk_format tk_format_csi_cc;
extern const tk_format tk_format_csi_fc;
extern const tk_format tk_format_csi_bbc;
extern const tk_format tk_format_wet;
extern const tk_format tk_format_folded;

static const tk_format *const formats[] = {
    &tk_format_callgrind, &tk_format_xray,   &tk_format_dcfg,   &tk_format_dcfg_trace,
    &tk_format_csi,       &tk_format_csi_cc, &tk_format_csi_fc, &tk_format_csi_bbc,
    &tk_format_wet,       &tk_format_folded,
};

#define NFORMATS (sizeof formats / sizeof formats[0])

size_t tk_format_count(void) { return NFORMATS; }

const tk_format *tk_format_at(size_t i) { return i < NFORMATS ? formats[i] : NULL; }

const tk_format *tk_format_find(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (strcmp(formats[i]->name, name) == 0) return formats[i];
    return NULL;
}

const tk_format *tk_format_detect(const uint8_t *data, size_t len, int *confidence)
{
    const tk_format *best = NULL;
    int best_score = 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        int s = formats[i]->detect ? formats[i]->detect(data, len) : 0;
        if (s > best_score) {
            best_score = s;
            best = formats[i];
        }
    }
    if (confidence) *confidence = best_score;
    return best;
}

tk_status tk_format_detect_input(tk_input *in, const tk_format **out, tk_error *err)
{
    const uint8_t *data;
    size_t len;
    tk_status st = tk_input_peek(in, TK_DETECT_BYTES, &data, &len, err);
    if (st != TK_OK) return st;
    if (len == 0)
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_input_path(in), 0, 0, 0,
                               "empty input: cannot tell its format (use --from FORMAT)");
    *out = tk_format_detect(data, len, NULL);
    if (!*out)
        return tk_error_set_at(err, TK_ERR_FORMAT, tk_input_path(in), -1, 0, 0,
                               "unrecognised format (use --from FORMAT; see 'tracekit formats')");
    /* An ELF file holds CSI's metadata in sections, which its first bytes do
     * not tell: a file (or memory) is looked at whole; a pipe or compressed
     * data stays path tracing (--from picks another). */
    const uint8_t *whole;
    size_t whole_len;
    if (*out == &tk_format_csi && tk_elf_is_elf(data, len) &&
        tk_input_file_view(in, &whole, &whole_len, NULL) == TK_OK)
        *out = tk_csi_elf_format(whole, whole_len);
    return TK_OK;
}

char *tk_format_caps_string(unsigned caps, char *buf, size_t size)
{
    static const char *const names[] = {"detect", "info",    "read",  "check", "report", "annotate",
                                        "dump",   "convert", "write", "diff",  "merge"};
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(caps & (1u << i))) continue;
        int k = snprintf(buf + used, size - used, "%s%s", used ? " " : "", names[i]);
        if (k < 0 || (size_t)k >= size - used) break;
        used += (size_t)k;
    }
    return buf;
}
