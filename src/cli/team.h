/* A team: the processes that run one command together. tracekit is a team of one (no team:
 * ctx->team is NULL); tracekit-mpi's ranks are one (src/mpi/team_mpi.c gives the operations
 * over MPI). The inputs are split across the members by size, in contiguous ranges of the
 * input list, so that partial results merged in member order are those of the inputs in their
 * order. Member 0, the root, prints and writes everything: the others print nothing. */
#ifndef TK_CLI_TEAM_H
#define TK_CLI_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* A partial result as bytes, with its state: what a member gives to a reduction and what
 * the root gets back. */
typedef enum cli_part_state {
    CLI_PART_EMPTY = 0, /* no input (the identity of every merge) */
    CLI_PART_DATA, /* data[0..size) */
    CLI_PART_FAILED /* a member failed (it told the root what: nothing to merge) */
} cli_part_state;

typedef struct cli_part_bytes {
    cli_part_state state;
    uint8_t *data; /* malloc'd */
    size_t size;
} cli_part_bytes;

/* Merge parts[0..n) (n >= 2, each CLI_PART_DATA, the partials of consecutive inputs in their
 * order) into parts[0] (a new malloc'd block or its own), freeing the others' data. Returns 0,
 * or -1 with the error message in msg (size CLI_TEAM_MSG). */
#define CLI_TEAM_MSG 512
typedef int (*cli_merge_fn)(void *arg, cli_part_bytes *parts, size_t n, char *msg);

/* A step of a walk along the members (cli_team.chain): state (the walk's, as the member
 * before passed it on) changed into what this member passes on. */
typedef void (*cli_chain_fn)(void *arg, void *state);

typedef struct cli_team cli_team;
struct cli_team {
    int rank, size; /* this member, of how many */
    void *impl;
    /* Each operation is collective (every member calls it, in the same order), returns 0, or
     * -1 after the member has printed what failed (the program then ends: a team whose members
     * disagree cannot go on). */
    /* n bytes of the root's buf to every member's */
    int (*bcast)(const cli_team *t, void *buf, size_t n);
    /* the largest of every member's *v, to every member */
    int (*max)(const cli_team *t, int *v);
    /* items [lo, hi) of each member (item bytes each; the members' ranges do not overlap)
     * into the same places of the root's array */
    int (*gather)(const cli_team *t, void *items, size_t item, int lo, int hi);
    /* every member's partial, merged in member order along a tree, to the root's *p (the
     * others' *p becomes CLI_PART_EMPTY) */
    int (*reduce)(const cli_team *t, cli_part_bytes *p, cli_merge_fn merge, void *arg);
    /* a walk in member order: member 0 steps its own state (n bytes), passes it to member 1,
     * which steps it and passes it on, ... (each member waits for the one before; the last's
     * state is the walk's end) */
    int (*chain)(const cli_team *t, void *state, size_t n, cli_chain_fn step, void *arg);
};

/* The team commands run in (tracekit-mpi's main sets it; NULL: one process). */
void cli_set_team(const cli_team *t);
const cli_team *cli_team_get(void);

/* The split of n inputs of these sizes (bytes; negative: unknown, counted as 0) across the
 * members: first[r] is member r's first input, first[size] == n (first has size + 1 entries).
 * Each member gets a contiguous range, about total/size bytes. */
void cli_team_split(int members, int n, const int64_t *sizes, int *first);

/* Whether this process prints and writes the command's results: alone, or the root. */
int cli_team_writes(const cli_ctx *ctx);

/* A partial's bytes as they are to be sent: data (malloc'd, given over) or, for a partial
 * that failed, the message (copied). */
void cli_part_set(cli_part_bytes *p, cli_part_state state, uint8_t *data, size_t size);
void cli_part_fail(cli_part_bytes *p, const char *message);
/* A block of the library's (tk_free'd here) as p's data, copied to malloc'd bytes; p's earlier
 * data freed once the copy is made. 0, or -1 out of memory (p as it was). */
int cli_part_take(uint8_t *data, size_t size, cli_part_bytes *p);
void cli_part_free(cli_part_bytes *p);
/* cli_merge_fn: the bytes one after the other. */
int cli_part_concat(void *arg, cli_part_bytes *parts, size_t n, char *msg);

/* One kind of partial, as cli_part_merge reads, merges, writes and frees it: each format's
 * wrappers of the library's _deserialize, _merge, _serialize and _free. */
typedef struct cli_part_kind {
    const char *what; /* "DCFG counts": the messages say "merging DCFG counts: ..." */
    tk_status (*read)(void **out, const uint8_t *data, size_t size, tk_error *err);
    tk_status (*merge)(void *into, const void *later, tk_error *err);
    tk_status (*write)(const void *p, uint8_t **data, size_t *size, tk_error *err);
    void (*free)(void *p);
} cli_part_kind;

/* static const cli_part_kind NAME: what PREFIX_deserialize, _merge, _serialize and _free do
 * to a TYPE (tk_dcfg_counts, tk_dcfg_counts_...). */
#define CLI_PART_KIND(NAME, WHAT, TYPE, PREFIX) \
    static tk_status NAME##_read(void **out, const uint8_t *data, size_t size, tk_error *err) \
    { \
        TYPE *x = NULL; \
        tk_status st = PREFIX##_deserialize(&x, data, size, err); \
        *out = x; \
        return st; \
    } \
    static tk_status NAME##_merge(void *into, const void *later, tk_error *err) \
    { \
        return PREFIX##_merge(into, later, err); \
    } \
    static tk_status NAME##_write(const void *p, uint8_t **data, size_t *size, tk_error *err) \
    { \
        return PREFIX##_serialize(p, data, size, err); \
    } \
    static void NAME##_free(void *p) { PREFIX##_free(p); } \
    static const cli_part_kind NAME = {WHAT, NAME##_read, NAME##_merge, NAME##_write, NAME##_free}

/* cli_merge_fn over the cli_part_kind arg: the partials read and merged in order into the
 * first, which is written once. */
int cli_part_merge(void *arg, cli_part_bytes *parts, size_t n, char *msg);

/* The root's turn to do it all alone: every input opened anew (those read already too), the
 * context no longer a team's. Returns an exit code (an input's error printed). */
int cli_team_reopen_all(cli_ctx *ctx);

/* A handler that treats each input on its own, run in a team: each member runs it over its
 * inputs with its standard output and error captured; the root prints every member's
 * output, then their errors, in order, and returns the worst exit code. stops: the handler
 * stops at the first input that fails, so when one did, the root runs it alone over every
 * input instead (its output up to that input, as tracekit's). Returns an exit code. */
int cli_team_each(cli_ctx *ctx, cli_run_fn run, const cli_args *args, int stops);

#endif
