/* The coverage a crashed CSI program had reached: its coverage arrays (found
 * by symbol in the binary) read from the core's memory. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/coredump.h"
#include "core/elf.h"
#include "core/strpool.h"
#include "formats/csi_cov/cov_crash.h"
#include "formats/csi_cov/cov_internal.h"
#include "tracekit/csi.h"

/* ---- symbols of the coverage arrays ----------------------------------- */

static int collect_symbol(void *ctx, const char *name, uint64_t value, uint64_t size)
{
    tk_csi_crash *c = ctx;
    size_t len = strlen(name);
    if (tk_csi_cov_kind_of_array(name, len) == TK_CSI_COV_NONE) return 0;
    uint32_t id = tk_strpool_intern(&c->syms, name, len);
    if (id == TK_STR_NONE) {
        c->nomem = 1;
        return 1;
    }
    if (id < c->sym_at.len) /* a second symbol of that name: keep the first */
        return 0;
    crash_sym s = {value, size};
    if (TK_VEC_PUSH(&c->sym_at, s) != 0) {
        c->nomem = 1;
        return 1;
    }
    return 0;
}

/* ---- notes and errors ------------------------------------------------- */

void tk_crash_note(tk_csi_crash *c, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    size_t len = strlen(buf);
    if (TK_VEC_RESERVE(&c->notes, c->notes.len + len + 2) != 0) return;
    memcpy(c->notes.data + c->notes.len, buf, len);
    c->notes.len += len;
    c->notes.data[c->notes.len++] = '\n';
    c->notes.data[c->notes.len] = 0;
}

static void hex(char *out, size_t size, const uint8_t *id, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 3 <= size; i++)
        o += (size_t)snprintf(out + o, size - o, "%02x", id[i]);
    if (size) out[o < size ? o : size - 1] = 0;
}

/* ---- where BIN is in the process -------------------------------------- */

static tk_status mismatch(const crash_open *o, tk_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static tk_status mismatch(const crash_open *o, tk_error *err, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tk_error_set_at(err, TK_ERR_FORMAT, o->bin_path, -1, 0, 0,
                           "does not match the core %s: %s", o->core_path, msg);
}

/* BIN's build id against the bytes at the same place in the core. */
static tk_status check_build_id(tk_csi_crash *c, const crash_open *o, tk_error *err)
{
    const uint8_t *id;
    size_t len;
    uint64_t addr;
    char want[130], got[130];
    if (!tk_elf_build_id(o->elf, &id, &len, &addr)) {
        snprintf(c->match, sizeof c->match, "not checked: BIN has no build id");
        tk_crash_note(c, "%s has no build id: its match with the core is not checked", o->bin_path);
        return TK_OK;
    }
    hex(want, sizeof want, id, len < 64 ? len : 64);
    uint8_t buf[64];
    size_t n = len < sizeof buf ? len : sizeof buf;
    if (tk_coredump_read(o->mem, addr + c->bias, buf, n, NULL) != TK_OK) {
        snprintf(c->match, sizeof c->match,
                 "not checked: the core does not hold BIN's build id (0x%" PRIx64 ")",
                 addr + c->bias);
        tk_crash_note(c,
                      "the core does not hold the build id of %s (its first page was not "
                      "dumped): the match is not checked",
                      o->bin_path);
        return TK_OK;
    }
    hex(got, sizeof got, buf, n);
    if (memcmp(buf, id, n) != 0)
        return mismatch(o, err, "build id %s in %s, %s in the core's memory at 0x%" PRIx64, want,
                        o->bin_path, got, addr + c->bias);
    snprintf(c->match, sizeof c->match, "build id %s (BIN and core)", want);
    return TK_OK;
}

static tk_status find_bias(tk_csi_crash *c, const crash_open *o, tk_error *err)
{
    if (tk_coredump_is_raw(o->mem)) {
        c->bias = o->opt.bias;
        snprintf(c->match, sizeof c->match, "not checked: a raw memory image");
        return TK_OK;
    }
    tk_elf_info info;
    tk_elf_get_info(o->elf, &info);
    uint64_t entry, page = 4096;
    (void)tk_coredump_auxv(o->mem, TK_AT_PAGESZ, &page);
    if (!tk_coredump_auxv(o->mem, TK_AT_ENTRY, &entry)) {
        if (info.type != 3) { /* a fixed-address executable is where it says */
            c->bias = 0;
            tk_crash_note(c,
                          "the core has no auxiliary vector (NT_AUXV): %s taken at its link "
                          "addresses",
                          o->bin_path);
            return check_build_id(c, o, err);
        }
        return tk_error_set_at(err, TK_ERR_FORMAT, o->core_path, -1, 0, 0,
                               "the core has no auxiliary vector (NT_AUXV): cannot tell where "
                               "the position-independent %s was loaded",
                               o->bin_path);
    }
    if (tk_coredump_machine(o->mem) != info.machine)
        return mismatch(o, err, "ELF machine %u in %s, %u in the core", info.machine, o->bin_path,
                        tk_coredump_machine(o->mem));
    c->bias = entry - info.entry;
    if (info.type == 2 && c->bias != 0)
        return mismatch(o, err,
                        "%s is a fixed-address executable entered at 0x%" PRIx64
                        ", the core's program at 0x%" PRIx64 " (AT_ENTRY)",
                        o->bin_path, info.entry, entry);
    if (page == 0 || c->bias % page != 0)
        return mismatch(o, err,
                        "the core's program is entered at 0x%" PRIx64 " (AT_ENTRY), which is "
                        "not %s's entry point 0x%" PRIx64 " moved by whole pages",
                        entry, o->bin_path, info.entry);
    return check_build_id(c, o, err);
}

/* ---- memory of the process -------------------------------------------- */

static tk_status open_memory(crash_open *o, const void *core, size_t core_len, tk_error *err)
{
    if (o->opt.raw)
        return tk_coredump_open_raw(&o->mem, o->core_path, core, core_len, o->opt.raw_address, err);
    return tk_coredump_open(&o->mem, o->core_path, core, core_len, err);
}

tk_status tk_csi_crash_read(tk_csi_crash **out, const char *bin_path, const void *bin,
                            size_t bin_len, const char *core_path, const void *core,
                            size_t core_len, const tk_csi_crash_options *opt, tk_error *err)
{
    *out = NULL;
    tk_csi_crash *c = tk_calloc(1, sizeof *c);
    if (!c) return tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    tk_arena_init(&c->arena);
    tk_strpool_init(&c->syms);
    tk_strpool_init(&c->keys);
    crash_open o = {
        bin_path, core_path, bin, core, bin_len, core_len, NULL, NULL, TK_CSI_CRASH_OPTIONS_INIT};
    if (opt) o.opt = *opt;
    tk_status st = tk_elf_open_memory(&o.elf, bin, bin_len, bin_path, err);
    if (st == TK_OK) st = tk_elf_each_symbol(o.elf, collect_symbol, c, err);
    if (st == TK_OK && c->nomem) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = tk_crash_check_sections(&o, err);
    if (st == TK_OK) st = open_memory(&o, core, core_len, err);
    if (st == TK_OK) st = find_bias(c, &o, err);
    if (st == TK_OK) st = tk_crash_read_metadata(c, &o, err);
    if (st == TK_OK) tk_crash_finish(c, &o);
    if (st == TK_OK && !o.opt.raw && (c->has_pt = tk_crash_has_section(&o, ".debug_PT")))
        tk_crash_read_frames(c, &o);
    tk_coredump_free(o.mem);
    tk_elf_free(o.elf);
    if (st != TK_OK) {
        tk_csi_crash_free(c);
        return st;
    }
    *out = c;
    return TK_OK;
}

void tk_csi_crash_free(tk_csi_crash *c)
{
    if (!c) return;
    tk_arena_free(&c->arena);
    tk_strpool_free(&c->syms);
    tk_strpool_free(&c->keys);
    TK_VEC_FREE(&c->sym_at);
    TK_VEC_FREE(&c->fns);
    TK_VEC_FREE(&c->notes);
    TK_VEC_FREE(&c->frames);
    tk_free(c);
}

size_t tk_csi_crash_count(const tk_csi_crash *c) { return c->fns.len; }

const tk_csi_crash_function *tk_csi_crash_at(const tk_csi_crash *c, size_t i)
{
    return i < c->fns.len ? &c->fns.data[i] : NULL;
}

uint64_t tk_csi_crash_bias(const tk_csi_crash *c) { return c->bias; }

const char *tk_csi_crash_match(const tk_csi_crash *c) { return c->match; }

int tk_csi_crash_has_pt(const tk_csi_crash *c) { return c->has_pt; }

size_t tk_csi_crash_frame_count(const tk_csi_crash *c) { return c->frames.len; }

const tk_csi_crash_frame *tk_csi_crash_frame_at(const tk_csi_crash *c, size_t i)
{
    return i < c->frames.len ? &c->frames.data[i] : NULL;
}

const char *tk_csi_crash_notes(const tk_csi_crash *c) { return c->notes.data ? c->notes.data : ""; }
