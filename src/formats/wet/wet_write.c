/* Writers of the deps model: WET comprehensive, WET limited history, JSON, dump. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/deps_internal.h"
#include "core/writer.h"
#include "core/alloc.h"
#include "core/textout.h"
#include "tracekit/wet.h"

static tk_status write_result(FILE *f, tk_error *err)
{
    if (ferror(f)) return tk_error_set(err, TK_ERR_IO, "write failed: %s", strerror(errno));
    return TK_OK;
}

static const char *or_placeholder(const char *s) { return s ? s : "??"; }

static tk_status wet_write_stream(const tk_deps *d, FILE *f, tk_error *err)
{
    uint32_t n = tk_deps_count(d);
    if (tk_deps_get_form(d) != TK_DEPS_COMPREHENSIVE)
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "a limited-history trace has no instruction blocks: it can only be "
                            "written as wet-history");
    fprintf(f, "%" PRIu32 "\n", n);
    for (uint32_t i = 0; i < n; i++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        fprintf(f, "%" PRIu64 " %" PRIu32 " %" PRIx64, in.id, in.nports, in.addr);
        if (in.file || in.function || in.line)
            fprintf(f, " %s %s %" PRIu32, or_placeholder(in.file), or_placeholder(in.function),
                    in.line);
        fputc('\n', f);
        for (uint32_t p = 0; p < in.nports; p++) {
            const tk_dep *e;
            size_t cnt = tk_deps_port_span(d, i, p, &e);
            fprintf(f, "SIZE %zu\n", cnt);
            for (size_t j = 0; j < cnt; j++) {
                tk_deps_instr t;
                tk_deps_get_instr(d, e[j].dep, &t);
                fprintf(f, "    %" PRIu32 ":%" PRIu64 " %" PRIu32 "\n", e[j].inst, t.id,
                        e[j].dep_inst);
            }
        }
        if (!in.has_values) {
            fputs("NO VALUES\n", f);
            continue;
        }
        const uint32_t *ks;
        const uint64_t *vs;
        size_t nv = tk_deps_values_span(d, i, &ks, &vs);
        char hex[TK_DEPS_VALUE_HEX];
        fprintf(f, "VALUES %zu\n", nv);
        for (size_t v = 0; v < nv; v++) {
            tk_deps_value_hex(d, i, v, hex);
            fprintf(f, "    %" PRIu32 ":%s\n", ks[v], hex);
        }
    }
    return write_result(f, err);
}

static int cmp_by_addr_ctx_less(const tk_deps *d, uint32_t a, uint32_t b)
{
    tk_deps_instr x, y;
    tk_deps_get_instr(d, a, &x);
    tk_deps_get_instr(d, b, &y);
    if (x.addr != y.addr) return x.addr < y.addr;
    return a < b;
}

/* Instruction indexes sorted by address (insertion into a merge sort). */
static uint32_t *sorted_by_addr(const tk_deps *d)
{
    uint32_t n = tk_deps_count(d);
    uint32_t *a = tk_reallocarray(NULL, n ? n : 1, sizeof *a);
    uint32_t *tmp = tk_reallocarray(NULL, n ? n : 1, sizeof *tmp);
    if (!a || !tmp) {
        tk_free(a);
        tk_free(tmp);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) a[i] = i;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp_by_addr_ctx_less(d, a[j], a[i]) ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
    tk_free(tmp);
    return a;
}

static tk_status wet_write_history_stream(const tk_deps *d, FILE *f, tk_error *err)
{
    uint32_t n = tk_deps_count(d);
    uint32_t *order = sorted_by_addr(d);
    if (!order) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    for (uint32_t o = 0; o < n; o++) {
        uint32_t i = order[o];
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        /* Merge the ports by instance: the next entry is the smallest instance. */
        size_t pos[64];
        uint32_t np = in.nports;
        if (np > 64) {
            tk_free(order);
            return tk_error_set(err, TK_ERR_UNSUPPORTED,
                                "instruction %" PRIu64 " has %u use ports: at most 64 can be "
                                "written in the limited-history form",
                                in.id, np);
        }
        memset(pos, 0, sizeof pos);
        for (;;) {
            uint32_t best = UINT32_MAX;
            uint32_t best_inst = 0;
            for (uint32_t p = 0; p < np; p++) {
                const tk_dep *e;
                size_t cnt = tk_deps_port_span(d, i, p, &e);
                if (pos[p] < cnt && (best == UINT32_MAX || e[pos[p]].inst < best_inst)) {
                    best = p;
                    best_inst = e[pos[p]].inst;
                }
            }
            if (best == UINT32_MAX) break;
            const tk_dep *e;
            tk_deps_port_span(d, i, best, &e);
            const tk_dep *x = &e[pos[best]++];
            tk_deps_instr t;
            tk_deps_get_instr(d, x->dep, &t);
            fprintf(f, "0x%" PRIx64 "#%" PRIu32 " --> 0x%" PRIx64 "#%" PRIu32 "\n", in.addr,
                    x->inst, t.addr, x->dep_inst);
        }
    }
    tk_free(order);
    return write_result(f, err);
}

/* A JSON string, or null for a missing name. */
static void json_string_or_null(FILE *f, const char *s)
{
    if (s)
        tk_put_json_string(f, s);
    else
        fputs("null", f);
}

static const char *form_name(tk_deps_form form)
{
    return form == TK_DEPS_HISTORY ? "history" : "comprehensive";
}

static tk_status wet_write_json_stream(const tk_deps *d, FILE *f, tk_error *err)
{
    uint32_t n = tk_deps_count(d);
    fprintf(f, "{\"version\":1,\"format\":\"wet\",\"form\":\"%s\",\"instructions\":[",
            form_name(tk_deps_get_form(d)));
    for (uint32_t i = 0; i < n; i++) {
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        fprintf(f, "%s\n{\"id\":%" PRIu64 ",\"addr\":\"0x%" PRIx64 "\",\"file\":", i ? "," : "",
                in.id, in.addr);
        json_string_or_null(f, in.file);
        fputs(",\"function\":", f);
        json_string_or_null(f, in.function);
        fprintf(f, ",\"line\":%" PRIu32 ",\"instances\":%" PRIu32 ",\"ports\":[", in.line,
                in.ninstances);
        for (uint32_t p = 0; p < in.nports; p++) {
            const tk_dep *e;
            size_t cnt = tk_deps_port_span(d, i, p, &e);
            fputs(p ? ",[" : "[", f);
            for (size_t j = 0; j < cnt; j++) {
                tk_deps_instr t;
                tk_deps_get_instr(d, e[j].dep, &t);
                fprintf(f, "%s[%" PRIu32 ",%" PRIu64 ",%" PRIu32 "]", j ? "," : "", e[j].inst, t.id,
                        e[j].dep_inst);
            }
            fputc(']', f);
        }
        fputs("],\"values\":", f);
        if (!in.has_values) {
            fputs("null}", f);
            continue;
        }
        const uint32_t *ks;
        const uint64_t *vs;
        size_t nv = tk_deps_values_span(d, i, &ks, &vs);
        char hex[TK_DEPS_VALUE_HEX];
        fputc('[', f);
        for (size_t v = 0; v < nv; v++) {
            tk_deps_value_hex(d, i, v, hex);
            fprintf(f, "%s[%" PRIu32 ",\"0x%s\"]", v ? "," : "", ks[v], hex);
        }
        fputs("]}", f);
    }
    fputs("\n]}\n", f);
    return write_result(f, err);
}

static const char *kind_name(tk_dep_kind k)
{
    switch (k) {
    case TK_DEP_CONTROL: return "control";
    case TK_DEP_DATA: return "data";
    default: return "dep";
    }
}

static tk_status wet_dump_stream(const tk_deps *d, FILE *f, tk_error *err)
{
    uint32_t n = tk_deps_count(d);
    tk_deps_form form = tk_deps_get_form(d);
    uint32_t *order = NULL;
    if (form == TK_DEPS_HISTORY && !(order = sorted_by_addr(d)))
        return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    fprintf(f, "wet %s\ninstructions %" PRIu32 "\n", form_name(form), n);
    for (uint32_t o = 0; o < n; o++) {
        uint32_t i = order ? order[o] : o;
        tk_deps_instr in;
        tk_deps_get_instr(d, i, &in);
        if (form == TK_DEPS_HISTORY)
            fprintf(f, "instr 0x%" PRIx64, in.addr);
        else
            fprintf(f,
                    "instr %" PRIu64 " addr 0x%" PRIx64 " file %s function %s line %" PRIu32
                    " ports %" PRIu32,
                    in.id, in.addr, or_placeholder(in.file), or_placeholder(in.function), in.line,
                    in.nports);
        fprintf(f, " instances %" PRIu32 "\n", in.ninstances);
        for (uint32_t p = 0; p < in.nports; p++) {
            const tk_dep *e;
            size_t cnt = tk_deps_port_span(d, i, p, &e);
            const char *kind = kind_name(tk_deps_port_kind(d, p));
            for (size_t j = 0; j < cnt; j++) {
                tk_deps_instr t;
                tk_deps_get_instr(d, e[j].dep, &t);
                if (form == TK_DEPS_HISTORY)
                    fprintf(f, "  %s %" PRIu32 " -> 0x%" PRIx64 "#%" PRIu32 "\n", kind, e[j].inst,
                            t.addr, e[j].dep_inst);
                else
                    fprintf(f, "  port %" PRIu32 " %s %" PRIu32 " -> %" PRIu64 "#%" PRIu32 "\n", p,
                            kind, e[j].inst, t.id, e[j].dep_inst);
            }
        }
        if (form == TK_DEPS_HISTORY) continue;
        if (!in.has_values) {
            fputs("  no values\n", f);
            continue;
        }
        const uint32_t *ks;
        const uint64_t *vs;
        size_t nv = tk_deps_values_span(d, i, &ks, &vs);
        fprintf(f, "  values %zu\n", nv);
        char hex[TK_DEPS_VALUE_HEX];
        for (size_t v = 0; v < nv; v++) {
            tk_deps_value_hex(d, i, v, hex);
            fprintf(f, "  value %" PRIu32 " 0x%s\n", ks[v], hex);
        }
    }
    tk_free(order);
    return write_result(f, err);
}

tk_status tk_wet_write(const tk_deps *d, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, wet_write_stream(d, s.f, err), err);
}

tk_status tk_wet_write_history(const tk_deps *d, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, wet_write_history_stream(d, s.f, err), err);
}

tk_status tk_wet_write_json(const tk_deps *d, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, wet_write_json_stream(d, s.f, err), err);
}

tk_status tk_wet_dump(const tk_deps *d, const tk_writer *f, tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, f, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, wet_dump_stream(d, s.f, err), err);
}
