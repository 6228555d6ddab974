/* Fuzz the CSI metadata reader, the semantic check, path regeneration, the
 * runtime-state reader and the state decoder. The input is read as
 * .debug_PT text (every function is checked and a few path ids decoded),
 * and also as a runtime-state file decoded against the CSI guide's `loop`
 * metadata. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const char LOOP[] = "#\nmain\n3|EXIT\n2|ENTRY|9|9\n4|10\n5|11|12\n6|-1|20|21\n7|14\n8|17\n"
                           "9|18|-1\n$\n2->4|0$0\n4->5|0$0\n4->6|2$2\n5->7|0$0\n5->8|1$1\n"
                           "6->3|0$0\n7->9|0$0\n8->9|0$0\n9~>4|3$3\n";

static void read_metadata(const uint8_t *data, size_t size, tk_csi_numbering *num)
{
    tk_input *in;
    tk_error err;
    if (!fuzz_open_text(&in, data, size)) return;
    tk_csi_reader *r;
    if (tk_csi_reader_open(&r, in, &err) != TK_OK) {
        tk_input_free(in);
        return;
    }
    tk_diag diag;
    tk_diag_init(&diag, fuzz_quiet, NULL);
    const tk_csi_function *fn;
    tk_status st;
    FILE *sink = fopen("/dev/null", "w");
    for (int guard = 0; guard < 100000; guard++) {
        st = tk_csi_reader_next(r, &fn, &err);
        if (st == TK_END || st == TK_ERR_IO || st == TK_ERR_NOMEM) break;
        if (st != TK_OK) continue;
        tk_csi_check_function(fn, num, "fuzz", &diag, NULL);
        const tk_bl *bl = tk_csi_numbering_bl(num);
        uint64_t total = tk_bl_total(bl);
        tk_bl_path *p = tk_csi_numbering_path(num);
        for (uint64_t k = 0; k < 8 && total; k++)
            (void)tk_bl_decode(bl, (k * 0x9e3779b97f4a7c15ULL) % total, p, NULL);
        /* a fresh numbering of the same CFG (convert --renumber) */
        tk_csi_edge *edges = malloc((fn->nedges + (size_t)1) * sizeof *edges);
        if (edges && tk_csi_renumber(fn, num, edges, NULL) == TK_OK && sink) {
            tk_csi_function copy = *fn;
            copy.edges = edges;
            tk_csi_write_function(FUZZ_WRITER(sink), &copy, &err);
        }
        free(edges);
        if (sink) {
            tk_csi_write_function(FUZZ_WRITER(sink), fn, &err);
            tk_csi_dump_function(FUZZ_WRITER(sink), fn, bl, &err);
            tk_csi_write_dot(FUZZ_WRITER(sink), fn, NULL, &err);
        }
    }
    if (sink) fclose(sink);
    tk_csi_reader_free(r);
    tk_input_free(in);
}

static void read_states(const uint8_t *data, size_t size, tk_csi_numbering *num)
{
    tk_input *in, *min;
    tk_error err;
    if (tk_input_open_memory(&in, data, size, "fuzz", NULL, &err) != TK_OK) return;
    tk_csi_state *states;
    size_t n;
    tk_status st = tk_csi_states_read(in, &states, &n, &err);
    tk_input_free(in);
    if (st != TK_OK) return;
    if (tk_input_open_memory(&min, LOOP, sizeof LOOP - 1, "loop", NULL, &err) == TK_OK) {
        tk_csi_reader *r;
        const tk_csi_function *fn;
        if (tk_csi_reader_open(&r, min, &err) == TK_OK) {
            if (tk_csi_reader_next(r, &fn, &err) == TK_OK &&
                tk_csi_numbering_load(num, fn, NULL, NULL, NULL) == TK_OK) {
                for (size_t k = 0; k < n; k++) {
                    tk_csi_decoded d;
                    if (tk_csi_state_decode(fn, num, &states[k], &d, &err) == TK_OK)
                        tk_csi_decoded_free(&d);
                }
            }
            tk_csi_reader_free(r);
        }
        tk_input_free(min);
    }
    tk_csi_states_free(states, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tk_csi_numbering *num;
    if (tk_csi_numbering_open(&num, NULL) != TK_OK) return 0;
    read_metadata(data, size, num);
    read_states(data, size, num);
    tk_csi_numbering_free(num);
    return 0;
}
