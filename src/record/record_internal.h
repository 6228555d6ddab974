/* Internals of `tracekit record` (src/record/): the raw files tkrecord writes
 * (record_raw.c), turning them into a DCFG (record_build.c) and the spilled
 * edges into a DCFG-Trace (record_trace.c), running Valgrind
 * (record_run.c).  The raw format is described in docs/record.md. */
#ifndef TK_RECORD_INTERNAL_H
#define TK_RECORD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/strpool.h"
#include "core/vec.h"
#include "tracekit/cfg.h"
#include "tracekit/input.h"
#include "tracekit/record.h"
#include "tracekit/status.h"

/* Exit kinds of the raw file (recorder/tkr.h, tkr_kind), in the same order. */
typedef enum rec_kind {
    REC_START = 0,
    REC_FALL,
    REC_COND,
    REC_JMP,
    REC_IJMP,
    REC_CALL,
    REC_ICALL,
    REC_RET,
    REC_SYS,
    REC_REP,
    REC_OTHER,
    REC_SIG,
    REC_FAULT,
    REC_KIND_COUNT
} rec_kind;

enum { REC_DYN_NONE = 0, REC_DYN_SIGNAL = 1, REC_DYN_SIGRETURN = 2 };

typedef struct rec_image {
    uint64_t lo, size;
    uint64_t bias; /* what Valgrind subtracts to name code without a symbol */
    uint32_t name; /* offset in strings */
} rec_image;

typedef struct rec_sym {
    uint32_t image; /* image id */
    uint32_t name;
    uint64_t addr;
} rec_sym;

typedef struct rec_sb {
    uint32_t image; /* image id */
    uint32_t ninstrs;
    uint32_t lens; /* offset of its instruction lengths in raw->lens */
    uint32_t src, nsrc; /* its source runs in raw->srcs */
    uint32_t fn, nfn; /* its symbol runs in raw->fns */
    uint64_t addr;
} rec_sb;

typedef struct rec_src {
    uint32_t index; /* first instruction of the run */
    uint32_t file; /* source file id, 0 unknown (symbol runs: symbol id, 0 none) */
    uint32_t line;
} rec_src;

typedef struct rec_exit {
    uint32_t sb; /* superblock id (0: the START pseudo exit) */
    uint32_t instr;
    uint8_t kind; /* rec_kind */
    uint8_t has_dst;
    uint64_t dst;
} rec_exit;

typedef struct rec_edge {
    uint32_t id, exit, tgt; /* tgt: superblock id */
    uint32_t dyn, thread;
    uint64_t count;
} rec_edge;

typedef struct rec_end {
    uint32_t thread, exit;
    uint32_t traced; /* the thread's spill ends with it (not a folded thread) */
} rec_end;

typedef TK_VEC(rec_src) rec_src_vec;

/* A static instruction of the WET mode (a `wi` line). */
typedef struct rec_winsn {
    uint64_t addr;
    uint32_t sb, index; /* the superblock and instruction it was first seen at */
    uint32_t pts; /* its points: (ports, value encoding) pairs at raw->wpts[pts] */
    uint32_t names; /* its ports' names (offset in strings) */
    uint16_t nports; /* data ports (the control port not counted) */
    uint8_t ctl; /* rec_kind of its exit (REC_FALL: none) */
    uint8_t npoints;
} rec_winsn;

/* One raw file: one process (a pid and an exec generation). */
typedef struct rec_raw {
    char *path;
    uint64_t pid, ppid;
    uint32_t gen;
    int trace;
    int done; /* the file was complete (the process wrote it at its end) */
    char end_reason[16]; /* "exit", "exec" or "" */
    int end_status;
    uint32_t nthreads, folded;
    TK_VEC(char) strings;
    uint32_t exe;
    TK_VEC(uint32_t) args;
    TK_VEC(rec_image) images; /* by id - 1 */
    TK_VEC(uint32_t) files; /* by id: name offset (0 unused) */
    TK_VEC(rec_sym) syms; /* by id - 1 */
    TK_VEC(rec_sb) sbs; /* by id - 1 */
    TK_VEC(uint8_t) lens;
    rec_src_vec srcs;
    rec_src_vec fns;
    TK_VEC(rec_exit) exits; /* by id; exits.data[0] is START */
    TK_VEC(uint8_t) exit_seen;
    TK_VEC(rec_edge) edges; /* in file order */
    uint32_t max_edge_id;
    TK_VEC(rec_end) ends;
    int wet; /* the WET mode's data follows (a `wet` line) */
    uint64_t wet_history;
    int wet_values; /* the stream holds the instances' values */
    TK_VEC(rec_winsn) winsns; /* by WET id - 1 */
    TK_VEC(uint8_t) wpts;
} rec_raw;

static inline const char *rec_str(const rec_raw *r, uint32_t off) { return r->strings.data + off; }

/* Read a raw file.  TK_OK, TK_ERR_FORMAT (located), TK_ERR_IO, TK_ERR_NOMEM. */
tk_status tk_rec_raw_read(rec_raw *r, const char *path, tk_error *err);

/* Open one of the recording's own files (a spill, a WET stream, a WET spill, a log) through
 * tk_input, its bytes as written (never decompressed). A file that cannot be opened is
 * TK_ERR_IO "cannot open PATH: REASON" (the message these files always had). TK_ERR_NOMEM. */
tk_status tk_rec_input_open(tk_input **out, const char *path, tk_error *err);
void tk_rec_raw_free(rec_raw *r);

/* What the trace needs of a process: the DCFG edges (ids) each edge record
 * of the raw file stands for, and those of each thread end (the chain of its
 * last superblock and the EXIT edge). */
typedef struct rec_trace_map {
    uint32_t nrecords; /* max edge record id + 1 */
    uint32_t *off; /* by record id: first of its edges in edges */
    uint16_t *len; /* by record id: how many */
    TK_VEC(uint32_t) edges;
    TK_VEC(uint32_t) ends; /* by raw end line: (offset, length) pairs in edges */
} rec_trace_map;

void tk_rec_trace_map_free(rec_trace_map *m);

/* Building one cfg of the processes of a recording: the file names (images
 * and source files) are shared by the processes. */
typedef struct rec_builder {
    tk_cfg *cfg;
    tk_strpool files; /* FILE_NAME_ID = pool id + 1 */
} rec_builder;

/* A cfg with the spec's edge types and special nodes, no process yet. */
tk_status tk_rec_builder_init(rec_builder *b, tk_error *err);
/* Free what the builder holds but the cfg (the caller's after a success). */
void tk_rec_builder_release(rec_builder *b);
/* Append the process of a raw file.  With map, also what the trace of that
 * process needs.  TK_ERR_NOMEM, TK_ERR_LIMIT (more blocks or edges than ids). */
tk_status tk_rec_build_process(rec_builder *b, const rec_raw *r, rec_trace_map *map, tk_error *err);

/* How a recorded process ended, for its TRACEKIT_RECORD data. */
typedef struct rec_end_info {
    const char *how; /* "exit", "signal", "exec" (recording stopped there), "killed"
                               (the process wrote nothing at its end) */
    int status, signal;
    int complete;
} rec_end_info;

/* The raw files of a recording, loaded. */
typedef struct rec_proc {
    rec_raw raw;
    rec_trace_map map;
    uint64_t process_id; /* its PROCESS_ID in the DCFG */
    rec_end_info end;
} rec_proc;

typedef struct rec_set {
    rec_proc *procs;
    size_t n;
} rec_set;

/* Load dir's raw files and build the cfg (finished: routines, loops).  The
 * process of root_pid (0: none) ended as root_end says (what the parent saw
 * of Valgrind's exit), the others as their raw files say.  With maps, each
 * process's trace map too.  TK_ERR_FORMAT (no raw file, a bad one), TK_ERR_IO,
 * TK_ERR_NOMEM. */
tk_status tk_rec_set_build(rec_set *s, const char *dir, int maps, uint64_t root_pid,
                           const rec_end_info *root_end, tk_cfg **out, tk_error *err);
void tk_rec_set_free(rec_set *s);

/* ---- running Valgrind (record_run.c) ---- */
typedef struct rec_run {
    char program[4096]; /* argv[0] as found (through PATH) */
    char tool_dir[4096]; /* tkrecord's folder */
    char valgrind[4096];
    char vg_libdir[4096]; /* Valgrind's folder of tools and preloaded libraries */
    char dir[4096]; /* the temporary folder: lib/ (VALGRIND_LIB), the logs */
    char raw[4200]; /* where the raw files and spills go */
    long pid; /* Valgrind's process: the program's pid */
    int status; /* its wait status */
} rec_run;

/* Check the program, find the tool, Valgrind and its library folder, make
 * the temporary folder.  TK_ERR_ARG (the program), TK_ERR_UNSUPPORTED (what
 * is missing), TK_ERR_IO.  tk_rec_cleanup undoes it (also after a failure). */
tk_status tk_rec_prepare(rec_run *run, const char *const *argv, const tk_record_options *opt,
                         tk_error *err);
/* Run Valgrind on the program and wait for it (recording children: for every
 * descendant).  TK_ERR_IO when it cannot be started. */
tk_status tk_rec_spawn(rec_run *run, const char *const *argv, const tk_record_options *opt,
                       tk_error *err);
void tk_rec_cleanup(rec_run *run, const tk_record_options *opt);
/* What Valgrind said first in its log (why it could not run the program). */
void tk_rec_valgrind_message(const rec_run *run, char *buf, size_t size);

/* ---- outputs (record_out.c, record_trace.c) ---- */
tk_compression tk_rec_compression_of(const char *path);
/* A stream compressing into dst; fclose ends it (EOF on failure). NULL: no memory. */
FILE *tk_rec_zopen(FILE *dst, tk_compression comp);
/* Encode the spills of dir into a DCFG-Trace on out (level < 0: the
 * encoder's default).  *edges: how many edges it holds. */
tk_status tk_rec_write_trace(const tk_cfg *cfg, const rec_set *s, const char *dir, int level,
                             FILE *out, uint64_t *edges, tk_error *err);

/* ---- WET (record_wet.c: the stream and control dependences; record_wet_out.c: the
 * outputs) ---- */
typedef struct rec_wet rec_wet;

typedef struct rec_wet_opts {
    int comprehensive; /* keep every instance (PREFIX.wet) */
    uint64_t history; /* the history buffer's dependences (0: no history form) */
    uint64_t memory; /* bytes of buffered instances before a spill (0: the default) */
    const char *tmpdir; /* where spills go */
} rec_wet_opts;

/* What the recording holds. */
typedef struct rec_wet_stats {
    uint64_t instructions; /* static */
    uint64_t instances;
    uint64_t deps; /* dependences (control and data) */
    uint64_t values;
    uint64_t history; /* dependences in the history form */
    uint32_t spills; /* spill files made */
} rec_wet_stats;

/* Replay the WET stream of process proc (its raw file's `wi` lines, the
 * stream p<pid>.<gen>.wet of raw_dir) with the DCFG (cfg, its process) for
 * control dependences.  TK_ERR_FORMAT (a bad stream), TK_ERR_IO, TK_ERR_NOMEM,
 * TK_ERR_LIMIT (an instruction run more than the WET model's instances). */
tk_status tk_rec_wet_load(rec_wet **out, const tk_cfg *cfg, const rec_proc *proc,
                          const char *raw_dir, const rec_wet_opts *o, tk_error *err);
tk_status tk_rec_wet_write(rec_wet *w, FILE *f, tk_error *err);
tk_status tk_rec_wet_write_history(rec_wet *w, FILE *f, tk_error *err);
void tk_rec_wet_get_stats(const rec_wet *w, rec_wet_stats *out);
void tk_rec_wet_free(rec_wet *w);

/* Static facts of a WET instruction, for the outputs. */
typedef struct rec_wi {
    uint64_t addr;
    const char *file, *func; /* NULL: unknown (no blank in them) */
    uint32_t line;
    uint32_t block; /* the DCFG block holding it (TK_CFG_NONE: none) */
    uint32_t ipdom; /* a branch: its block's immediate post-dominator (a block
                                   index; TK_CFG_NONE: the routine's end) */
    uint32_t pts; /* points in the raw wpts */
    uint32_t count; /* instances */
    uint16_t nports; /* data ports */
    uint8_t ctl, npoints, block_start, has_values;
} rec_wi;

/* The comprehensive form's store: every instance's dependences and value,
 * grouped by instruction, spilled to files beyond a memory bound. */
typedef struct rec_wstore rec_wstore;
tk_status tk_rec_wstore_new(rec_wstore **out, const rec_wi *wis, uint32_t n, uint64_t memory,
                            const char *tmpdir, tk_error *err);
tk_status tk_rec_wstore_dep(rec_wstore *s, uint32_t instr, uint32_t inst, uint32_t port,
                            uint32_t dep, uint32_t dep_inst, tk_error *err);
tk_status tk_rec_wstore_value(rec_wstore *s, uint32_t instr, uint32_t inst, const uint8_t *le,
                              uint32_t n, tk_error *err);
tk_status tk_rec_wstore_write(rec_wstore *s, FILE *f, tk_error *err);
uint32_t tk_rec_wstore_spills(const rec_wstore *s);
void tk_rec_wstore_free(rec_wstore *s);

/* The history form's circular buffer of the last dependences. */
typedef struct rec_wring rec_wring;
tk_status tk_rec_wring_new(rec_wring **out, uint64_t size, tk_error *err);
void tk_rec_wring_push(rec_wring *r, uint32_t instr, uint32_t inst, uint32_t port, uint32_t dep,
                       uint32_t dep_inst);
uint64_t tk_rec_wring_count(const rec_wring *r);
tk_status tk_rec_wring_write(rec_wring *r, const rec_wi *wis, uint32_t n, FILE *f, tk_error *err);
void tk_rec_wring_free(rec_wring *r);

/* Node ids of the special nodes of rec_cfg_new. */
#define REC_NODE_START 1u
#define REC_NODE_END 2u
#define REC_NODE_UNKNOWN 3u
#define REC_FIRST_BLOCK_ID 4u

#endif
