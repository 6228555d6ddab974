/* A recording's raw files -> the cfg model (tk_record_read), with the
 * extra data of each process (TRACEKIT_RECORD). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "core/output.h"
#include "core/num.h"
#include "core/writer.h"
#include "model/cfg_internal.h"
#include "record/record_internal.h"
#include "tracekit/tracekit.h"

/* An exec'd program keeps its pid: generation g > 0 of a pid gets this many
 * times g added (beyond Linux's largest pid, 2^22), so that PROCESS_IDs stay
 * unique. */
#define REC_GEN_PID_STEP 10000000ull

static int proc_cmp(const void *a, const void *b)
{
    const rec_proc *x = a, *y = b;
    if (x->raw.pid != y->raw.pid) return x->raw.pid < y->raw.pid ? -1 : 1;
    return (x->raw.gen > y->raw.gen) - (x->raw.gen < y->raw.gen);
}

/* Whether a file's name is a raw file's: p<pid>.<gen>.tkr (decimal numbers). */
static int raw_name(const char *name)
{
    const char *p = name + 1, *end = name + strlen(name);
    uint64_t pid, gen;
    if (name[0] != 'p' || tk_num_scan_dec(&p, end, &pid) != TK_OK || *p != '.') return 0;
    p++;
    if (tk_num_scan_dec(&p, end, &gen) != TK_OK) return 0;
    return pid <= UINT32_MAX && gen <= UINT32_MAX && !strcmp(p, ".tkr");
}

/* The raw files of dir (p<pid>.<gen>.tkr), in order of pid and generation. */
static tk_status list_raw(rec_set *s, const char *dir, tk_error *err)
{
    DIR *dp = opendir(dir);
    if (!dp) return tk_error_set(err, TK_ERR_IO, "cannot open %s: %s", dir, strerror(errno));
    struct dirent *de;
    tk_status st = TK_OK;
    while (st == TK_OK && (de = readdir(dp))) {
        if (!raw_name(de->d_name)) continue;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        char *path = tk_malloc(len);
        rec_proc *t = tk_realloc(s->procs, sizeof *t * (s->n + 1));
        if (!path || !t) {
            tk_free(path);
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
            break;
        }
        s->procs = t;
        snprintf(path, len, "%s/%s", dir, de->d_name);
        rec_proc *p = &s->procs[s->n++];
        memset(p, 0, sizeof *p);
        st = tk_rec_raw_read(&p->raw, path, err);
        tk_free(path);
    }
    closedir(dp);
    if (st == TK_OK) qsort(s->procs, s->n, sizeof *s->procs, proc_cmp);
    return st;
}

/* A JSON string the way the DCFG writer writes them ('/' as "\/"). */
static void put_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\' || *p == '/')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* The TRACEKIT_RECORD object of a process (the caller's, tk_free; NULL when out of memory). */
static char *extra_json(const rec_proc *p)
{
    tk_bytes_out buf = {0};
    tk_wstream s;
    tk_error e;
    if (tk_wstream_open(&s, &(tk_writer){tk_bytes_write, &buf}, &e) != TK_OK) return NULL;
    FILE *f = s.f;
    const rec_raw *r = &p->raw;
    const rec_end_info *end = &p->end;
    fprintf(f, "{ \"TOOL\" : \"tracekit record %s (tkrecord, a Valgrind tool)\",\n", tk_version());
    fprintf(f,
            "          \"PID\" : %" PRIu64 ", \"PARENT_PID\" : %" PRIu64
            ", \"EXEC_GENERATION\" : %" PRIu32 ",\n          \"COMMAND\" : [ ",
            r->pid, r->ppid, r->gen);
    put_string(f, r->exe ? rec_str(r, r->exe) : "");
    for (size_t i = 0; i < r->args.len; i++) {
        fputs(", ", f);
        put_string(f, rec_str(r, r->args.data[i]));
    }
    fputs(" ],\n          \"END\" : ", f);
    put_string(f, end->how);
    if (end->signal)
        fprintf(f, ", \"SIGNAL\" : %d", end->signal);
    else if (!strcmp(end->how, "exit"))
        fprintf(f, ", \"EXIT_STATUS\" : %d", end->status);
    fprintf(f, ", \"COMPLETE\" : %d", end->complete ? 1 : 0);
    if (r->folded) fprintf(f, ", \"THREADS_FOLDED\" : %" PRIu32, r->folded);
    fputs(" }", f);
    if (tk_wstream_close(&s, TK_OK, &e) != TK_OK || !tk_bytes_cstr(&buf)) {
        tk_free(buf.p);
        return NULL;
    }
    return (char *)buf.p;
}

static void end_of(rec_proc *p, uint64_t root_pid, const rec_end_info *root_end)
{
    const rec_raw *r = &p->raw;
    memset(&p->end, 0, sizeof p->end);
    if (!r->done) {
        p->end.how = "killed";
    } else if (!strcmp(r->end_reason, "exec")) {
        p->end.how = "exec";
        p->end.complete = 1;
    } else if (root_end && r->pid == root_pid) {
        p->end = *root_end;
        if (!strcmp(p->end.how, "exec")) p->end.how = "exit"; /* the exec failed */
    } else {
        p->end.how = "exit";
        p->end.status = r->end_status;
        p->end.complete = 1;
    }
}

tk_status tk_rec_set_build(rec_set *s, const char *dir, int maps, uint64_t root_pid,
                           const rec_end_info *root_end, tk_cfg **out, tk_error *err)
{
    *out = NULL;
    memset(s, 0, sizeof *s);
    tk_status st = list_raw(s, dir, err);
    if (st == TK_OK && s->n == 0)
        st = tk_error_set(err, TK_ERR_FORMAT, "%s: no raw file of tkrecord", dir);
    rec_builder b;
    if (st == TK_OK) st = tk_rec_builder_init(&b, err);
    if (st != TK_OK) return st;
    for (size_t i = 0; i < s->n && st == TK_OK; i++) {
        rec_proc *p = &s->procs[i];
        end_of(p, root_pid, root_end);
        if (!p->raw.done) continue; /* nothing but its name: it wrote nothing */
        st = tk_rec_build_process(&b, &p->raw, maps ? &p->map : NULL, err);
        if (st != TK_OK) break;
        tk_cfg_process *cp = &b.cfg->processes[b.cfg->nprocesses - 1];
        p->process_id = cp->pid = p->raw.pid + REC_GEN_PID_STEP * p->raw.gen;
        char *x = extra_json(p);
        if (!x)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        else if ((cp->extra_json = tk_cfg_add_string(b.cfg, x, strlen(x))) == UINT32_MAX)
            st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
        tk_free(x);
    }
    tk_rec_builder_release(&b);
    if (st == TK_OK && b.cfg->nprocesses == 0)
        st = tk_error_set(err, TK_ERR_FORMAT, "%s: no process wrote its raw file", dir);
    if (st == TK_OK) st = tk_cfg_finish(b.cfg, dir, NULL, err);
    if (st != TK_OK) {
        tk_cfg_free(b.cfg);
        return st;
    }
    *out = b.cfg;
    return TK_OK;
}

void tk_rec_set_free(rec_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        tk_rec_raw_free(&s->procs[i].raw);
        tk_rec_trace_map_free(&s->procs[i].map);
    }
    tk_free(s->procs);
    memset(s, 0, sizeof *s);
}

tk_status tk_record_read(tk_cfg **out, const char *raw_dir, tk_error *err)
{
    rec_set s;
    tk_status st = tk_rec_set_build(&s, raw_dir, 0, 0, NULL, out, err);
    tk_rec_set_free(&s);
    return st;
}

/* ---- tk_record_run ------------------------------------------------------------------------ */

typedef tk_status (*write_fn)(void *ctx, FILE *f, tk_error *err);

/* Write an output through a temporary file renamed into place, compressed
 * as its name says. */
static tk_status write_output(const char *path, int force, write_fn fn, void *ctx, tk_error *err)
{
    tk_output *o;
    tk_compression comp = tk_rec_compression_of(path);
    tk_status st = tk_output_open(
        &o, path, (force ? TK_OUTPUT_FORCE : 0) | (comp ? TK_OUTPUT_BINARY : 0), err);
    if (st != TK_OK) return st;
    FILE *f = tk_output_stream(o), *z = comp ? tk_rec_zopen(f, comp) : f;
    if (!z) st = tk_error_set(err, TK_ERR_NOMEM, "out of memory");
    if (st == TK_OK) st = fn(ctx, z, err);
    if (z && z != f && fclose(z) != 0 && st == TK_OK)
        st = tk_error_set(err, TK_ERR_IO, "%s: cannot write the compressed stream", path);
    if (st != TK_OK) {
        tk_output_abort(o);
        if (st == TK_ERR_IO && err && !err->path[0] && !strstr(err->message, path))
            tk_error_prefix(err, "%s", path);
        return st;
    }
    return tk_output_commit(o, err);
}

static tk_status put_dcfg(void *ctx, FILE *f, tk_error *err)
{
    tk_writer w = {tk_write_to_file, f};
    return tk_dcfg_write(ctx, &w, err);
}

typedef struct trace_ctx {
    const tk_cfg *cfg;
    const rec_set *set;
    const char *dir;
    int level;
    uint64_t edges;
} trace_ctx;

static tk_status put_trace(void *ctx, FILE *f, tk_error *err)
{
    trace_ctx *t = ctx;
    return tk_rec_write_trace(t->cfg, t->set, t->dir, t->level, f, &t->edges, err);
}

typedef struct wet_ctx {
    rec_wet *w;
} wet_ctx;

static tk_status put_wet(void *ctx, FILE *f, tk_error *err)
{
    return tk_rec_wet_write(((wet_ctx *)ctx)->w, f, err);
}

static tk_status put_wet_history(void *ctx, FILE *f, tk_error *err)
{
    return tk_rec_wet_write_history(((wet_ctx *)ctx)->w, f, err);
}

static int exists(const char *path)
{
    struct stat st;
    return path && strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* What Valgrind's exit says, and whether the program's raw file was written. */
/* Whether the program's raw file was written completely (1), only reserved
 * (0: the process died without Valgrind's end, e.g. SIGKILL) or not at all (-1:
 * Valgrind could not run the program). */
static int root_raw(const rec_run *run)
{
    char path[8300];
    snprintf(path, sizeof path, "%s/p%ld.0.tkr", run->raw, run->pid);
    tk_input *in;
    if (tk_rec_input_open(&in, path, NULL) != TK_OK) return -1;
    const char *line;
    size_t n;
    int done = 0;
    while (tk_input_getline(in, &line, &n, NULL) == TK_OK) /* the last line is "done\n" */
        done = n == 4 && !memcmp(line, "done", 4) &&
               tk_input_offset(in) == tk_input_line_offset(in) + 5;
    tk_input_free(in);
    return done;
}

/* What Valgrind's exit says of the program, when it ran. */
static tk_status outcome(const rec_run *run, tk_record_result *res, rec_end_info *end,
                         tk_error *err)
{
    memset(end, 0, sizeof *end);
    int raw = root_raw(run);
    if (raw < 0) {
        char msg[1024];
        tk_rec_valgrind_message(run, msg, sizeof msg);
        return tk_error_set(err, TK_ERR_UNSUPPORTED, "Valgrind could not run %s%s%s", run->program,
                            *msg ? ": " : " (see its message above)", msg);
    }
    if (WIFEXITED(run->status)) {
        res->exited = 1;
        res->exit_code = WEXITSTATUS(run->status);
        end->how = "exit";
        end->status = res->exit_code;
        end->complete = 1;
    } else if (WIFSIGNALED(run->status)) {
        res->signal = WTERMSIG(run->status);
        end->how = "signal";
        end->signal = res->signal;
    }
    if (raw == 0)
        return tk_error_set(err, TK_ERR_UNSUPPORTED,
                            "%s ended (%s %d) before tkrecord could write what it recorded: "
                            "nothing written",
                            run->program, res->signal ? "signal" : "exit status",
                            res->signal ? res->signal : res->exit_code);
    return TK_OK;
}

/* The folder of an output can take it (checked before the run, not after). */
static tk_status writable(const char *path, tk_error *err)
{
    if (!path || !strcmp(path, "-")) return TK_OK;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (access(dir, W_OK | X_OK) != 0)
        return tk_error_set(err, TK_ERR_IO, "%s: cannot write there: %s", path, strerror(errno));
    return TK_OK;
}

static void count(const tk_cfg *cfg, tk_record_result *res)
{
    res->processes = cfg->nprocesses;
    res->threads = cfg->nprocesses ? cfg->processes[0].nthreads : 0;
    for (uint32_t i = 0; i < cfg->nprocesses; i++) {
        const tk_cfg_process *p = &cfg->processes[i];
        res->blocks += p->nblocks;
        res->edges += p->nedges;
        res->instructions += p->file_instr_count;
    }
}

/* The WET replay of the program's process: the last program it exec'd (a wrapper script's
 * or a shim's exec is followed; children are not recorded). */
static tk_status wet_load(const rec_run *run, const tk_record_options *opt, const rec_set *set,
                          const tk_cfg *cfg, tk_record_result *res, rec_wet **out, tk_error *err)
{
    const rec_proc *root = NULL;
    for (size_t i = 0; i < set->n; i++) {
        const rec_raw *r = &set->procs[i].raw;
        if (r->wet && r->done && r->pid == (uint64_t)run->pid && (!root || r->gen > root->raw.gen))
            root = &set->procs[i];
    }
    if (!root) return tk_error_set(err, TK_ERR_FORMAT, "%s: tkrecord wrote no WET data", run->raw);
    rec_wet_opts wo = {opt->wet_path != NULL, 0, opt->wet_memory, run->dir};
    if (opt->wet_history_path)
        wo.history = opt->wet_history ? opt->wet_history : TK_RECORD_WET_HISTORY;
    tk_status st = tk_rec_wet_load(out, cfg, root, run->raw, &wo, err);
    if (st != TK_OK) return st;
    res->wet_execs = root->raw.gen;
    snprintf(res->wet_program, sizeof res->wet_program, "%s",
             root->raw.exe ? rec_str(&root->raw, root->raw.exe) : "");
    rec_wet_stats ws;
    tk_rec_wet_get_stats(*out, &ws);
    res->wet_instructions = ws.instructions;
    res->wet_instances = ws.instances;
    res->wet_deps = ws.deps;
    res->wet_history = ws.history;
    res->wet_spills = ws.spills;
    return TK_OK;
}

/* Every output asked for, in turn; when one fails, those written are removed (all or
 * nothing). */
static tk_status write_all(const tk_record_options *opt, const tk_cfg *cfg, trace_ctx *t,
                           rec_wet *w, tk_error *err)
{
    wet_ctx wc = {w};
    const char *paths[4] = {opt->dcfg_path, opt->trace_path, opt->wet_path, opt->wet_history_path};
    write_fn fns[4] = {put_dcfg, put_trace, put_wet, put_wet_history};
    void *ctxs[4] = {(void *)cfg, t, &wc, &wc};
    tk_status st = TK_OK;
    int k = 0;
    for (; k < 4 && st == TK_OK; k++)
        if (paths[k]) st = write_output(paths[k], opt->force, fns[k], ctxs[k], err);
    if (st != TK_OK)
        for (int j = 0; j < k - 1; j++)
            if (paths[j] && strcmp(paths[j], "-")) unlink(paths[j]);
    return st;
}

static tk_status record_outputs(const rec_run *run, const tk_record_options *opt,
                                tk_record_result *res, const rec_end_info *end, tk_error *err)
{
    rec_set set;
    tk_cfg *cfg = NULL;
    rec_wet *w = NULL;
    tk_status st = tk_rec_set_build(&set, run->raw, opt->trace_path != NULL, (uint64_t)run->pid,
                                    end, &cfg, err);
    if (st == TK_OK) {
        res->complete = 1;
        for (size_t i = 0; i < set.n; i++) {
            res->complete &= set.procs[i].end.complete;
            res->exec_stopped |= !opt->trace_children && !opt->wet_path && !opt->wet_history_path &&
                                 set.procs[i].end.how && !strcmp(set.procs[i].end.how, "exec");
        }
        count(cfg, res);
    }
    if (st == TK_OK && (opt->wet_path || opt->wet_history_path))
        st = wet_load(run, opt, &set, cfg, res, &w, err);
    trace_ctx t = {cfg, &set, run->raw, opt->trace_level, 0};
    if (st == TK_OK) st = write_all(opt, cfg, &t, w, err);
    res->trace_edges = t.edges;
    tk_rec_wet_free(w);
    tk_cfg_free(cfg);
    tk_rec_set_free(&set);
    return st;
}

tk_status tk_record_run(const char *const *argv, const tk_record_options *opt,
                        tk_record_result *res, tk_error *err)
{
    memset(res, 0, sizeof *res);
    if (!opt || !((opt->dcfg_path && *opt->dcfg_path) || opt->wet_path || opt->wet_history_path))
        return tk_error_set(err, TK_ERR_ARG, "no output file");
    if (opt->trace_path && !opt->dcfg_path)
        return tk_error_set(err, TK_ERR_ARG, "a DCFG-Trace needs its DCFG");
    const char *outs[4] = {opt->dcfg_path, opt->trace_path, opt->wet_path, opt->wet_history_path};
    for (int i = 0; i < 4; i++)
        if (!opt->force && exists(outs[i]))
            return tk_error_set(err, TK_ERR_EXISTS, "%s exists (--force overwrites it)", outs[i]);
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++)
            if (outs[i] && outs[j] && !strcmp(outs[i], outs[j]) && strcmp(outs[i], "-"))
                return tk_error_set(err, TK_ERR_ARG, "two outputs named %s", outs[i]);
    if ((opt->wet_path || opt->wet_history_path) && opt->trace_children)
        return tk_error_set(err, TK_ERR_ARG,
                            "a WET trace is of one process: it cannot follow the children");
    for (int i = 0; i < 4; i++)
        if (writable(outs[i], err) != TK_OK) return TK_ERR_IO;
    rec_run run;
    tk_status st = tk_rec_prepare(&run, argv, opt, err);
    if (st == TK_OK) st = tk_rec_spawn(&run, argv, opt, err);
    rec_end_info end;
    if (st == TK_OK) st = outcome(&run, res, &end, err);
    if (st == TK_OK) st = record_outputs(&run, opt, res, &end, err);
    tk_rec_cleanup(&run, opt);
    return st;
}
