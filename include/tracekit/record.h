/* tracekit: recording a DCFG (and a DCFG-Trace, and WET traces) of a Linux program.
 *
 * tk_record_run runs the program under Valgrind with tkrecord, tracekit's
 * own Valgrind tool (recorder/ in the source tree), which writes one raw file
 * per recorded process into a temporary directory (and, with a trace, each
 * thread's edges to a spill file).  The raw files are then turned into a DCFG
 * (the cfg model, tracekit/cfg.h, written by tk_dcfg_write) and the spills
 * into a DCFG-Trace (tracekit/dcfg_trace.h's encoder).  With a WET output,
 * tkrecord also follows every instruction's data dependences (shadow
 * registers and memory) and writes the stream of executed instances, which
 * becomes the WET trace (control dependences from the DCFG's post-dominators).
 * docs/record.md describes how blocks and edges are made, how they differ
 * from Intel SDE's, and what a WET trace holds.
 *
 *     tk_record_options o = TK_RECORD_OPTIONS_INIT;
 *     o.dcfg_path = "ls.dcfg.json";
 *     tk_record_result r;
 *     const char *argv[] = {"/bin/ls", "-l", NULL};
 *     if (tk_record_run(argv, &o, &r, &err) == TK_OK) exit(r.exit_code);
 */
#ifndef TRACEKIT_RECORD_H
#define TRACEKIT_RECORD_H

#include <stdint.h>

#include "tracekit/cfg.h"
#include "tracekit/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_record_options {
    const char *dcfg_path; /* where the DCFG goes (required unless a WET output is asked
                                  for); compressed when it ends in .gz, .bz2, .xz or .zst */
    const char *trace_path; /* where the DCFG-Trace goes (with a DCFG); NULL: no trace */
    int trace_children; /* record forked and exec'd children as processes too */
    uint32_t threads_limit; /* threads counted apart (0: 256); later ones share the last */
    int force; /* overwrite existing outputs */
    int trace_level; /* DCFG-Trace encoder level (tk_dcfg_trace_encode_options; 0: the
                                  encoder's default) */
    const char *tool_dir; /* folder holding tkrecord-amd64-linux (NULL: search, see
                                  tk_record_find_tool) */
    const char *valgrind; /* the valgrind program (NULL: "valgrind" from PATH) */
    const char *keep_raw; /* a folder to keep the raw files and spills in (NULL: a
                                  temporary folder, removed) */
    const char *wet_path; /* the WET trace, comprehensive form (NULL: none) */
    const char *wet_history_path; /* the WET limited-history form (NULL: none) */
    uint64_t wet_history; /* its buffer: the last dependences kept (0: 100,000) */
    uint64_t wet_memory; /* bytes of the comprehensive form's instances kept in
                                  memory before they are spilled to files (0: 512 MiB) */
} tk_record_options;

#define TK_RECORD_OPTIONS_INIT \
    { \
        NULL, NULL, 0, 0, 0, 0, NULL, NULL, NULL, NULL, NULL, 0, 0 \
    }

/* The default size of the WET history buffer (the WET format's). */
#define TK_RECORD_WET_HISTORY 100000u

typedef struct tk_record_result {
    int exited; /* the program ended with exit(): exit_code is its status */
    int exit_code;
    int signal; /* the program was killed by this signal (0: it was not) */
    int complete; /* every recorded process ended and wrote its data */
    uint32_t processes; /* processes in the DCFG */
    uint32_t threads; /* threads of the first process */
    uint64_t blocks, edges; /* in all processes */
    uint64_t instructions; /* executed, in all processes */
    uint64_t trace_edges; /* edges written to the DCFG-Trace */
    uint64_t wet_instructions; /* WET: static instructions */
    uint64_t wet_instances; /* WET: executed instances */
    uint64_t wet_deps; /* WET: dependences (control and data) */
    uint64_t wet_history; /* WET: dependences in the history form */
    uint32_t wet_spills; /* WET: spill files the comprehensive form needed */
    uint32_t wet_execs; /* WET: execs followed to the program traced (a wrapper
                                  script's, a shim's): 0 when it is PROG itself */
    char wet_program[256]; /* WET: the program traced (cut to 255 bytes) */
    int exec_stopped; /* the recording stopped where the program exec'd another
                                  (without trace_children: a wrapper script's, a shim's) */
} tk_record_result;

/* Run argv[0] (found through PATH like a shell does when it has no '/')
 * with its arguments under Valgrind and tkrecord, then write the DCFG (and
 * the DCFG-Trace).  The program's standard streams are tracekit's.
 * Returns TK_OK when the outputs were written (whatever the program's exit
 * status: see *res), TK_ERR_ARG (no such program, not executable, options),
 * TK_ERR_UNSUPPORTED (Valgrind or tkrecord missing, a program Valgrind cannot
 * run), TK_ERR_EXISTS, TK_ERR_IO, TK_ERR_NOMEM, TK_ERR_FORMAT (a raw file the
 * tool wrote cannot be read).  No output is half-written, no temporary file
 * is left behind. */
TK_API tk_status tk_record_run(const char *const *argv, const tk_record_options *opt,
                               tk_record_result *res, tk_error *err);

/* The folder holding tkrecord-amd64-linux: opt->tool_dir, else
 * $TRACEKIT_RECORDER_DIR, else tracekit/ beside the shared library (an
 * installation: LIBDIR/tracekit), else recorder/ beside the running program
 * (a build tree), else ../lib/tracekit, ../lib64/tracekit and
 * ../lib/x86_64-linux-gnu/tracekit beside it.  Writes it to buf; TK_OK or
 * TK_ERR_UNSUPPORTED with a message naming the places looked at. */
TK_API tk_status tk_record_find_tool(const tk_record_options *opt, char *buf, size_t size,
                                     tk_error *err);

/* Turn the raw files of a recording (a folder written by tkrecord) into the
 * cfg model: one process per raw file, in order of (pid, generation).
 * *out is the caller's (tk_cfg_free).  TK_ERR_FORMAT, TK_ERR_IO,
 * TK_ERR_NOMEM. */
TK_API tk_status tk_record_read(tk_cfg **out, const char *raw_dir, tk_error *err);

#ifdef __cplusplus
}
#endif
#endif
