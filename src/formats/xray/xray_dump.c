/* Canonical text of every XRay record (the golden format of the tests). */
#include <inttypes.h>
#include <stdio.h>

#include "core/writer.h"
#include "formats/xray/xray_internal.h"
#include "formats/xray/xray_text.h"

void tk_xray_write_payload(FILE *out, const uint8_t *data, size_t size)
{
    int printable = 1;
    for (size_t i = 0; i < size; i++)
        if (data[i] < 0x20 || data[i] > 0x7e || data[i] == '"' || data[i] == '\\') printable = 0;
    if (printable) {
        fprintf(out, "\"%.*s\"", (int)size, (const char *)data);
        return;
    }
    fputs("0x", out);
    for (size_t i = 0; i < size; i++) fprintf(out, "%02x", data[i]);
}

void tk_xray_write_header(FILE *out, const tk_xray_header *h)
{
    fprintf(out, "xray %s version %u %s-endian\n", h->type == TK_XRAY_FDR ? "fdr" : "basic",
            h->version, h->big_endian ? "big" : "little");
    fprintf(out,
            "header flags 0x%" PRIx32 " constant-tsc %u nonstop-tsc %u cycle-frequency %" PRIu64
            "%s",
            h->flags, h->flags & 1, (h->flags >> 1) & 1, h->cycle_frequency,
            tk_xray_emulated_tsc(h) ? " (emulated)" : "");
    if (h->type == TK_XRAY_FDR) fprintf(out, " buffer-size %" PRIu64, h->buffer_size);
    fputc('\n', out);
}

static void write_func(FILE *out, const tk_xray_map *map, uint32_t id)
{
    fprintf(out, " func %" PRIu32, id);
    const tk_xray_function *f = map ? tk_xray_map_function(map, id) : NULL;
    if (f && f->name) fprintf(out, " name %s", f->name);
}

void tk_xray_write_record(FILE *out, const tk_xray_header *h, const tk_xray_map *map,
                          const tk_xray_record *rec)
{
    fprintf(out, "@%" PRIu64 " %s", rec->offset, tk_xray_kind_name(rec->kind));
    switch (rec->kind) {
    case TK_XRAY_ENTER:
    case TK_XRAY_EXIT:
    case TK_XRAY_TAIL_EXIT:
    case TK_XRAY_ENTER_ARGS:
        write_func(out, map, rec->func_id);
        if (h->type == TK_XRAY_FDR) fprintf(out, " delta %" PRIu32, rec->delta);
        fprintf(out, " tsc %" PRIu64, rec->tsc);
        if (h->type == TK_XRAY_BASIC)
            fprintf(out, " cpu %u tid %" PRId32 " pid %" PRId32, rec->cpu, rec->tid, rec->pid);
        if (rec->kind == TK_XRAY_ENTER_ARGS) {
            fputs(" args [", out);
            for (uint32_t i = 0; i < rec->nargs; i++)
                fprintf(out, "%s%" PRIu64, i ? "," : "", rec->args[i]);
            fputc(']', out);
        }
        break;
    case TK_XRAY_NEW_BUFFER:
        fprintf(out, " buffer %" PRIu32 " tid %" PRId32, rec->buffer, rec->tid);
        break;
    case TK_XRAY_END_OF_BUFFER: break;
    case TK_XRAY_NEW_CPU: fprintf(out, " cpu %u tsc %" PRIu64, rec->cpu, rec->tsc); break;
    case TK_XRAY_TSC_WRAP: fprintf(out, " tsc %" PRIu64, rec->tsc); break;
    case TK_XRAY_WALLTIME:
        fprintf(out, " seconds %" PRIu64 " micros %" PRIu32, rec->value, rec->micros);
        break;
    case TK_XRAY_CUSTOM_EVENT:
    case TK_XRAY_TYPED_EVENT:
        if (rec->kind == TK_XRAY_TYPED_EVENT) fprintf(out, " type %u", rec->event_type);
        fprintf(out, " tsc %" PRIu64 " size %" PRId32 " data ", rec->tsc, rec->event_size);
        tk_xray_write_payload(out, rec->payload, (size_t)rec->event_size);
        break;
    case TK_XRAY_CALL_ARG: fprintf(out, " arg %" PRIu64, rec->value); break;
    case TK_XRAY_BUFFER_EXTENTS:
        fprintf(out, " buffer %" PRIu32 " size %" PRIu64, rec->buffer, rec->value);
        break;
    case TK_XRAY_PID: fprintf(out, " pid %" PRId32, rec->pid); break;
    case TK_XRAY_ARG_PAYLOAD:
        fprintf(out, " func %" PRIu32 " tid %" PRId32 " pid %" PRId32 " arg %" PRIu64, rec->func_id,
                rec->tid, rec->pid, rec->value);
        break;
    }
    fputc('\n', out);
}

static tk_status xray_dump_stream(tk_xray_reader *r, const tk_xray_map *map, FILE *out,
                                  tk_error *err)
{
    const tk_xray_header *h = tk_xray_get_header(r);
    tk_xray_write_header(out, h);
    tk_xray_record rec;
    tk_status st;
    while ((st = tk_xray_next(r, &rec, err)) == TK_OK) tk_xray_write_record(out, h, map, &rec);
    return st == TK_END ? TK_OK : st;
}

tk_status tk_xray_dump(tk_xray_reader *r, const tk_xray_map *map, const tk_writer *out,
                       tk_error *err)
{
    tk_wstream s;
    tk_status st = tk_wstream_open(&s, out, err);
    if (st != TK_OK) return st;
    return tk_wstream_close(&s, xray_dump_stream(r, map, s.f, err), err);
}
