/* The descriptors of CSI's coverage metadata (csi-cc, csi-fc, csi-bbc), their
 * content detection, and the names of the kinds. */
#include <string.h>

#include "formats/detect_util.h"
#include "core/elf.h"
#include "formats/csi_cov/cov_internal.h"
#include "tracekit/format.h"

const char *tk_csi_cov_kind_name(tk_csi_cov_kind kind)
{
    switch (kind) {
    case TK_CSI_COV_CC: return "CC";
    case TK_CSI_COV_FC: return "FC";
    case TK_CSI_COV_BBC: return "BBC";
    default: return "";
    }
}

const char *tk_csi_cov_section(tk_csi_cov_kind kind)
{
    switch (kind) {
    case TK_CSI_COV_CC: return ".debug_CC";
    case TK_CSI_COV_FC: return ".debug_FC";
    case TK_CSI_COV_BBC: return ".debug_BBC";
    default: return "";
    }
}

const char *tk_csi_cov_kind_title(tk_csi_cov_kind kind)
{
    switch (kind) {
    case TK_CSI_COV_CC: return "call-site coverage";
    case TK_CSI_COV_FC: return "function coverage";
    case TK_CSI_COV_BBC: return "statement (basic-block) coverage";
    default: return "";
    }
}

size_t tk_cov_prefix_len(tk_csi_cov_kind kind)
{
    return kind == TK_CSI_COV_NONE ? 0 : strlen(tk_csi_cov_kind_name(kind)) + 7;
}

tk_csi_cov_kind tk_csi_cov_kind_of_array(const char *a, size_t len)
{
    static const tk_csi_cov_kind kinds[] = {TK_CSI_COV_CC, TK_CSI_COV_FC, TK_CSI_COV_BBC};
    for (size_t i = 0; i < 3; i++) {
        const char *k = tk_csi_cov_kind_name(kinds[i]);
        size_t kl = strlen(k);
        if (len > kl + 7 && a[0] == '_' && a[1] == '_' && memcmp(a + 2, k, kl) == 0 &&
            memcmp(a + 2 + kl, "_arr_", 5) == 0)
            return kinds[i];
    }
    return TK_CSI_COV_NONE;
}

const char *tk_cov_array_key(const char *array, size_t len, size_t *key_len)
{
    size_t p = tk_cov_prefix_len(tk_csi_cov_kind_of_array(array, len));
    *key_len = len - p;
    return array + p;
}

size_t tk_cov_base_len(const char *name, size_t len)
{
    const char *d = memchr(name, '$', len);
    return d ? (size_t)(d - name) : len;
}

/* The first header "#NAME|__XX_arr_..." names the kind; the next line should
 * fit it (an entry line, another header, or nothing). */
static int detect_kind(const uint8_t *d, size_t n, tk_csi_cov_kind want)
{
    if (!tk_detect_is_text(d, n)) return 0;
    const uint8_t *p = d, *end = d + n;
    const char *line;
    size_t len;
    do {
        if (!tk_detect_line(&p, end, &line, &len, 0)) return 0;
    } while (len == 0);
    if (len < 3 || line[0] != '#') return 0;
    const char *bar = NULL;
    for (size_t i = len; i > 1; i--)
        if (line[i - 1] == '|') {
            bar = line + i - 1;
            break;
        }
    if (!bar || bar == line + 1) return 0;
    size_t alen = (size_t)(line + len - bar - 1);
    while (alen && (bar[alen] == ' ' || bar[alen] == '\t')) alen--;
    if (tk_csi_cov_kind_of_array(bar + 1, alen) != want) return 0;
    /* the header alone is specific enough to read the file as this kind (and
     * report its errors); the next line fitting makes it certain */
    if (!tk_detect_line(&p, end, &line, &len, 0)) return 70;
    if (len == 0 || line[0] == '#') return 90;
    if (want != TK_CSI_COV_FC && (line[0] == '-' || (line[0] >= '0' && line[0] <= '9')) &&
        memchr(line, '|', len))
        return 90;
    return 50;
}

#define COV_CAPS \
    (TK_CAP_DETECT | TK_CAP_INFO | TK_CAP_READ | TK_CAP_CHECK | TK_CAP_REPORT | TK_CAP_DUMP | \
     TK_CAP_CONVERT | TK_CAP_WRITE)

/* The descriptor tk_format_csi_<kind> of one kind (csi-<kind>, of TK_CSI_COV_<KIND>, in
 * section .debug_<KIND>) and its detect(). */
#define COV_FORMAT(kind_, KIND_, what_, when_, caps_) \
    static int detect_##kind_(const uint8_t *d, size_t n) \
    { \
        return detect_kind(d, n, TK_CSI_COV_##KIND_); \
    } \
    const tk_format tk_format_csi_##kind_ = { \
        .name = "csi-" #kind_, \
        .title = "CSI " what_ " coverage metadata (.debug_" #KIND_ ")", \
        .extensions = ".debug_" #KIND_ " .txt (or an ELF file with a .debug_" #KIND_ \
                      " section: read so when it has " when_ ", else with --from csi-" #kind_ ")", \
        .caps = COV_CAPS | (caps_), \
        .targets = "csi-" #kind_, \
        .detect = detect_##kind_, \
    }

COV_FORMAT(cc, CC, "call-site", "no .debug_PT", TK_CAP_ANNOTATE);
COV_FORMAT(fc, FC, "function", "no .debug_PT, .debug_CC or .debug_BBC", 0);
COV_FORMAT(bbc, BBC, "statement (basic-block)", "no .debug_PT or .debug_CC", TK_CAP_ANNOTATE);

extern const tk_format tk_format_csi;

static int found_section(void *ctx, const tk_elf_section *s)
{
    (void)s;
    *(int *)ctx = 1;
    return 1;
}

const tk_format *tk_csi_elf_format(const uint8_t *image, size_t len)
{
    static const char *const names[] = {".debug_PT", ".debug_CC", ".debug_BBC", ".debug_FC"};
    static const tk_format *const formats[] = {&tk_format_csi, &tk_format_csi_cc,
                                               &tk_format_csi_bbc, &tk_format_csi_fc};
    tk_elf *e;
    if (tk_elf_open_memory(&e, image, len, "", NULL) != TK_OK) return &tk_format_csi;
    const tk_format *f = &tk_format_csi;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int found = 0;
        if (tk_elf_each_section(e, names[i], found_section, &found, NULL) == TK_OK && found) {
            f = formats[i];
            break;
        }
    }
    tk_elf_free(e);
    return f;
}
