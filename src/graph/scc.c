/* Strongly connected components (see scc.h). */
#include "graph/scc.h"

#include "core/alloc.h"

tk_status tk_scc(size_t n, const uint32_t *first, const uint32_t *to, uint32_t *comp)
{
    size_t cap = n ? n : 1;
    uint32_t *index = tk_malloc(cap * sizeof *index);
    uint32_t *low = tk_malloc(cap * sizeof *low);
    uint32_t *stack = tk_malloc(cap * sizeof *stack);
    uint32_t *call = tk_malloc(cap * sizeof *call);
    uint32_t *next_edge = tk_malloc(cap * sizeof *next_edge);
    unsigned char *on = tk_calloc(cap, 1);
    tk_status st = TK_OK;
    if (!index || !low || !stack || !call || !next_edge || !on) {
        st = TK_ERR_NOMEM;
        goto out;
    }
    for (size_t v = 0; v < n; v++) index[v] = UINT32_MAX;
    uint32_t counter = 0, ncomp = 0;
    size_t sp = 0, cp = 0;
    for (size_t root = 0; root < n; root++) {
        if (index[root] != UINT32_MAX) continue;
        call[cp++] = (uint32_t)root;
        index[root] = low[root] = counter++;
        next_edge[root] = first[root];
        stack[sp++] = (uint32_t)root;
        on[root] = 1;
        while (cp) {
            uint32_t v = call[cp - 1];
            if (next_edge[v] < first[v + 1]) {
                uint32_t w = to[next_edge[v]++];
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = counter++;
                    next_edge[w] = first[w];
                    stack[sp++] = w;
                    on[w] = 1;
                    call[cp++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                } while (w != v);
                ncomp++;
            }
            cp--;
            if (cp) {
                uint32_t u = call[cp - 1];
                if (low[v] < low[u]) low[u] = low[v];
            }
        }
    }
out:
    tk_free(index);
    tk_free(low);
    tk_free(stack);
    tk_free(call);
    tk_free(next_edge);
    tk_free(on);
    return st;
}
