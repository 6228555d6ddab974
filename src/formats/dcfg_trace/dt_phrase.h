/* DCFG-Trace encoder: variable-length multi-edge rows ("phrases").
 *
 * A phrase is a path of edges that one transition of the table emits
 * (NEXT_EDGE_IDS). The phrases of a process are chosen from a sample of its
 * edges by iterative pair replacement (Re-Pair, in rounds: every adjacent
 * pair of tokens that occurs often enough becomes a new token), so frequent
 * edge sequences (whole loop iterations, whole loops, the recurring paths
 * between two branch decisions) become one token. Each (current edge,
 * token) of the final sample parse that recurs becomes a path in a trie
 * rooted at the current edge. The encoder then parses every thread greedily
 * (longest phrase of the trie from the current edge, else one edge). */
#ifndef TK_DT_PHRASE_H
#define TK_DT_PHRASE_H

#include <stddef.h>
#include <stdint.h>

#include "core/hash.h"

#define DT_PHRASE_NONE UINT32_MAX

typedef struct dt_phrase_node {
    uint32_t edge; /* the edge on the arc into the node (roots: the current edge) */
    uint32_t child; /* first child, DT_PHRASE_NONE when none */
    uint32_t sib; /* next sibling */
    uint32_t sym; /* the encoder's symbol of the phrase ending here, DT_PHRASE_NONE */
    uint8_t end; /* a phrase ends here */
} dt_phrase_node;

typedef struct dt_phrases {
    dt_phrase_node *nodes;
    size_t n, cap;
    tk_hmap roots; /* current edge -> root node */
    uint32_t cache_edge[256], cache_root[256]; /* recent roots (direct-mapped) */
    unsigned max_depth; /* longest phrase (>= 1) */
    /* the automaton (tk_dt_phrases_automaton), per node: failure link, first
     * phrase ending in the node's state, next one, path length */
    uint32_t *fail, *out, *next_out, *depth;
} dt_phrases;

typedef struct dt_phrase_params {
    unsigned min_count; /* a pair becomes a token when it occurs this often in the sample */
    unsigned max_len; /* longest phrase, in edges */
    unsigned min_uses; /* (current edge, token) must occur this often to become a row */
} dt_phrase_params;

/* Choose phrases from the sample: nseg segments (each one thread's edges),
 * segment s is edges[seg[s] .. seg[s + 1]). Returns 0, or -1 (out of memory). */
int tk_dt_phrases_select(dt_phrases *ph, const uint32_t *edges, const size_t *seg, size_t nseg,
                         const dt_phrase_params *prm);

/* Longest phrase from current edge x that is a prefix of e[0..avail), or
 * the single edge e[0] (added when create is set, else DT_PHRASE_NONE when
 * it is missing). Sets *len; returns the node of the phrase's end, or
 * DT_PHRASE_NONE (missing, or out of memory when create: *len = 0). */
uint32_t tk_dt_phrases_match(dt_phrases *ph, uint32_t x, const uint32_t *e, size_t avail,
                             int create, unsigned *len);

/* Once the symbols are set: failure and output links over the trie, as in
 * Aho-Corasick (each pattern: the current edge, then the path), so that the
 * phrases with a symbol ending at each edge of a sequence are found in about
 * one step per edge. Returns 0, or -1 (out of memory). */
int tk_dt_phrases_automaton(dt_phrases *ph);

/* The automaton's state after edge x in state s (DT_PHRASE_NONE: nothing
 * matched). The phrases ending there: o = ph->out[s], then o = ph->next_out[o]
 * until DT_PHRASE_NONE; ph->depth[o] edges long. */
uint32_t tk_dt_phrases_step(dt_phrases *ph, uint32_t s, uint32_t x);

void tk_dt_phrases_free(dt_phrases *ph);

#endif
