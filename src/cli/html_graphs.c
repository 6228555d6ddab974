/* report --format html's graphs: the loops a DCFG or DCFG-Trace report shows (each loop's CFG,
 * tk_cfg_write_dot of the DCFG) and the functions a CSI report shows (each one's CFG, convert
 * --to dot --function, with its paths, paths --list --format json), drawn by Graphviz's dot
 * (dot -Tsvg, run with the dot source in a temporary file as its standard input). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

extern char **environ;

#define MAX_GRAPHS 50 /* graphs on a page (the report's first ones) */
#define MAX_DOT (1 << 20) /* a larger dot source is not drawn */
#define PATHS_LIMIT "500" /* paths listed per function */

/* The keys the report shows, each once, at most MAX_GRAPHS. */
typedef struct keys {
    char *v[MAX_GRAPHS];
    size_t n;
} keys;

static tk_status add_key(void *user, const char *s, size_t len)
{
    keys *k = user;
    for (size_t i = 0; i < k->n; i++)
        if (strlen(k->v[i]) == len && memcmp(k->v[i], s, len) == 0) return TK_OK;
    if (k->n == MAX_GRAPHS) return TK_OK;
    k->v[k->n] = strndup(s, len);
    if (!k->v[k->n]) return TK_ERR_NOMEM;
    k->n++;
    return TK_OK;
}

/* Everything readable from fd into *buf (malloc'd, NUL-terminated). 0, or -1. */
static int read_all(int fd, char **buf, size_t *len)
{
    size_t cap = 1 << 16;
    *len = 0;
    *buf = malloc(cap);
    for (;;) {
        if (!*buf) return -1;
        if (*len + 1 == cap) {
            char *b = realloc(*buf, cap *= 2);
            if (!b) free(*buf);
            *buf = b;
            continue;
        }
        ssize_t r = read(fd, *buf + *len, cap - 1 - *len);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        *len += (size_t)r;
    }
    (*buf)[*len] = '\0';
    return 0;
}

/* dot -Tsvg of in (a file at its start) to *svg; its messages to /dev/null. Returns 0, or the
 * note that tells why there is no SVG. */
static const char *run_dot(FILE *in, char **svg, size_t *len)
{
    int fds[2];
    if (pipe(fds) != 0) return "no pipe for Graphviz's dot";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    char *argv[] = {"dot", "-Tsvg", NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (e != 0) {
        close(fds[0]);
        return e == ENOENT ? "Graphviz's dot was not found: install graphviz to see the graph"
                           : "Graphviz's dot could not be started";
    }
    int bad = read_all(fds[0], svg, len);
    close(fds[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (bad || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(*svg);
        *svg = NULL;
        return bad ? "out of memory reading Graphviz's SVG" : "Graphviz's dot failed on the graph";
    }
    return NULL;
}

/* g (kind, key set) with the dot source dot[0..len) (owned by g from now on): its SVG, or a
 * note. */
static void draw(tk_html_graph *g, char *dot, size_t len)
{
    g->dot = dot;
    g->dot_len = len;
    if (len > MAX_DOT) {
        g->note = "too large to draw on the page (more than 1 MB of dot)";
        return;
    }
    FILE *in = tmpfile();
    if (!in || fwrite(dot, 1, len, in) != len || fflush(in) != 0 || fseek(in, 0, SEEK_SET)) {
        g->note = "no temporary file for Graphviz's dot";
    } else {
        char *svg = NULL;
        g->note = run_dot(in, &svg, &g->svg_len);
        g->svg = svg;
    }
    if (in) fclose(in);
}

static tk_html_graph *new_graph(cli_html_graphs *out, const char *kind, char *key)
{
    tk_html_graph *g = &out->graphs[out->n++];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->key = key;
    return g;
}

/* The loops of ks, each a graph of cfg (the DCFG at path). Returns an exit code. */
static int loop_graphs(const char *path, keys *ks, cli_html_graphs *out)
{
    tk_cfg *cfg;
    tk_error err;
    tk_error_clear(&err);
    if (tk_dcfg_read_path(&cfg, path, NULL, &err) != TK_OK) return cli_error(&err);
    for (size_t i = 0; i < ks->n; i++) {
        tk_html_graph *g = new_graph(out, "loop", ks->v[i]);
        ks->v[i] = NULL;
        uint64_t id;
        char *dot = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&dot, &len);
        tk_cfg_dot_options o = TK_CFG_DOT_OPTIONS_INIT;
        uint32_t loop;
        if (!m || tk_parse_u64(g->key, strlen(g->key), &id, NULL) != TK_OK || id > UINT32_MAX) {
            g->note = "not a loop head id";
        } else {
            loop = (uint32_t)id;
            o.loops = &loop;
            o.nloops = 1;
            if (tk_cfg_write_dot(cfg, &o, CLI_WRITER(m), &err) != TK_OK)
                g->note = "no graph of this loop";
        }
        if (m) fclose(m);
        if (g->note)
            free(dot);
        else
            draw(g, dot, len);
    }
    tk_cfg_free(cfg);
    return CLI_EXIT_OK;
}

/* An own command's run for cli_capture: argv[0] its name. */
typedef struct own_run {
    int argc;
    char **argv;
} own_run;

static int run_own(void *arg)
{
    own_run *o = arg;
    const cli_command *c = cli_command_find(o->argv[0]);
    return c ? cli_command_run(c, o->argc, o->argv) : CLI_EXIT_USAGE;
}

/* A CSI function's graph (convert --to dot --function KEY) and paths (paths --list --format
 * json --function KEY: the one element of its array). Returns an exit code. */
static int function_graph(cli_ctx *ctx, tk_html_graph *g)
{
    const cli_format_ops *ops = cli_format_ops_find("csi");
    char *cv[] = {"convert", "--to", "dot", "--function", (char *)g->key, (char *)ctx->paths[0],
                  NULL};
    cli_captured dot = {0}, paths = {0};
    int rc = cli_run_captured(ctx, ops, CLI_CONVERT, "convert", 6, cv, &dot);
    if (rc != CLI_EXIT_OK) return rc;
    draw(g, dot.data, dot.len);
    char *pv[] = {"paths",      "--list",       "--format",
                  "json",       "-n",           PATHS_LIMIT,
                  "--function", (char *)g->key, (char *)ctx->paths[0],
                  NULL};
    own_run o = {9, pv};
    if (cli_capture("paths", run_own, &o, &paths) == CLI_EXIT_OK) {
        char *a = strchr(paths.data, '{'), *b = strrchr(paths.data, '}');
        if (a && b && b > a) {
            memmove(paths.data, a, (size_t)(b + 1 - a));
            g->data = paths.data;
            g->data_len = (size_t)(b + 1 - a);
            paths.data = NULL;
        }
    }
    free(paths.data);
    return CLI_EXIT_OK;
}

int cli_html_graphs_make(cli_ctx *ctx, const cli_args *loose, const cli_captured *report,
                         cli_html_graphs *out)
{
    const char *fmt = ctx->format->name;
    const char *array = NULL, *member = NULL, *dcfg = NULL;
    if (strcmp(fmt, "dcfg") == 0) array = "loop_table", member = "loop", dcfg = ctx->paths[0];
    if (strcmp(fmt, "dcfg-trace") == 0) array = "hot_loops", member = "head";
    if (strcmp(fmt, "dcfg-trace") == 0) dcfg = cli_get(loose, "dcfg");
    if (strcmp(fmt, "csi") == 0) array = "rows", member = "function";
    if (!array || (!dcfg && strcmp(fmt, "csi") != 0)) return CLI_EXIT_OK;
    keys ks = {{0}, 0};
    tk_error err;
    tk_error_clear(&err);
    int rc = CLI_EXIT_OK;
    if (tk_html_report_keys(report->data, report->len, array, member, add_key, &ks, &err) != TK_OK)
        rc = cli_error(&err);
    out->graphs = rc == CLI_EXIT_OK ? calloc(ks.n ? ks.n : 1, sizeof *out->graphs) : NULL;
    if (rc == CLI_EXIT_OK && !out->graphs) rc = cli_usage_error("report", "out of memory");
    if (rc == CLI_EXIT_OK && dcfg) rc = loop_graphs(dcfg, &ks, out);
    for (size_t i = 0; rc == CLI_EXIT_OK && !dcfg && i < ks.n; i++) {
        tk_html_graph *g = new_graph(out, "function", ks.v[i]);
        ks.v[i] = NULL;
        rc = function_graph(ctx, g);
    }
    for (size_t i = 0; i < ks.n; i++) free(ks.v[i]);
    return rc;
}

void cli_html_graphs_free(cli_html_graphs *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free((void *)g->graphs[i].key);
        free((void *)g->graphs[i].svg);
        free((void *)g->graphs[i].dot);
        free((void *)g->graphs[i].data);
    }
    free(g->graphs);
    g->graphs = NULL;
    g->n = 0;
}
