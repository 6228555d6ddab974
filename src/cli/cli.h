/* The tracekit command line: shared declarations. The CLI uses only the public API. */
#ifndef TK_CLI_H
#define TK_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "tracekit/tracekit.h"

/* Exit codes. */
enum { CLI_EXIT_OK = 0, CLI_EXIT_BAD_INPUT = 1, CLI_EXIT_USAGE = 2 };

/* ---- options --------------------------------------------------------------- */

typedef struct cli_opt {
    const char *name; /* long name without "--"; NULL ends a table */
    char short_name; /* 0 for none */
    const char *arg; /* NULL for a flag; else the value's name in help ("N", "FMT"), in
                         * brackets when the value may be left out ("[N]": --opt=N, or
                         * --opt N when N starts with a digit; cli_get gives "" without) */
    const char *help;
} cli_opt;

typedef struct cli_value {
    const cli_opt *opt;
    const char *value; /* "" for flags */
} cli_value;

typedef struct cli_args {
    const char **pos; /* positional arguments */
    int npos;
    cli_value *vals; /* options in command-line order */
    int nvals;
    /* After a failed parse (nothing else left): the index in argv of the word that failed
     * (-1: none), and whether it names no option of the tables (else its value is wrong). */
    int failed_at, unknown;
    /* diff's two sets (FILES... --vs FILES...): vs 1 when --vs was given (a table names the
     * option "vs"), vs_at the number of positional arguments before it (the first set). */
    int vs, vs_at;
} cli_args;

/* Parse argv[first..argc) against the option tables (a NULL-terminated list of
 * tables). On a usage error prints "tracekit CMD: ..." and returns -1.
 * lenient: unknown options are skipped instead of rejected. A long option may also be
 * written with one dash, as LLVM's tools spell them ("-top=10", "-sort count"); a word of
 * one dash that names no long option is short options ("-n10"). The value of an alias
 * (cli_aliases) is stored under the option it stands for. lenient may add
 * CLI_PARSE_QUIET: no usage error is printed (-1 is still returned). */
enum { CLI_PARSE_LENIENT = 1, CLI_PARSE_QUIET = 2 };
int cli_parse(const char *cmd, int argc, char **argv, int first, const cli_opt *const *tables,
              int lenient, cli_args *out);
void cli_args_free(cli_args *a);
/* The option of the tables that the option word s names ("--top=5", "-top=5", "-n5"; the
 * alias's target for an alias), or NULL. */
const cli_opt *cli_find_option(const cli_opt *const *tables, const char *s);
/* Whether option o's value may be left out (its arg is "[NAME]"). */
int cli_opt_value_optional(const cli_opt *o);
/* How many words argv[i] and its value take (1 or 2) as an option of table; 1 for anything
 * else. For a command whose own operands come after its options (record's PROG ARGS). */
int cli_option_words(const cli_opt *table, int argc, char **argv, int i);

/* Options that are another tool's spelling of another option (docs/cli.md): a table that has
 * the alias has the option it stands for too (tracekit help --lint checks it). */
typedef struct cli_alias {
    const char *alias, *name; /* NULL ends the table */
} cli_alias;
extern const cli_alias cli_aliases[];

/* -f/--force without -o FILE, which it would replace: a usage error (returns -1 after printing
 * it), but for a command that names its outputs itself without -o (cli_command.default_outputs:
 * record). Returns 0 otherwise. Every command's parse calls it. */
int cli_check_force(const char *cmd, const cli_args *a);

/* The arguments of a command of its own (decode, slice, ...): parses argv
 * against opts (which has "help"), prints the command's help for --help, refuses -f without
 * -o (cli_check_force), and requires exactly npos positional arguments (else prints npos_error as a
 * usage error). Returns 1 when the command should run (*exit_code is then
 * CLI_EXIT_OK; the caller frees args with cli_args_free), or 0 with *exit_code
 * set to the command's exit status and nothing left to free. */
int cli_parse_command(const char *cmd, int argc, char **argv, const cli_opt *opts, int npos,
                      const char *npos_error, cli_args *args, int *exit_code);

/* Last value of an option, or NULL when absent ("" for a present flag). */
const char *cli_get(const cli_args *a, const char *name);
int cli_has(const cli_args *a, const char *name);
/* All values of a repeated option, in order; returns how many (at most max). */
int cli_get_all(const cli_args *a, const char *name, const char **out, int max);
/* Unsigned number option: 0 ok (default when absent or its optional value left out), -1
 * after printing a usage error. */
int cli_get_u64(const char *cmd, const cli_args *a, const char *name, uint64_t dflt, uint64_t *out);
/* Percentage/real option. */
int cli_get_double(const char *cmd, const cli_args *a, const char *name, double dflt, double *out);
/* --jobs N (1..256, default the number of CPUs) into *out. Returns 0, or -1 after a usage
 * error. */
int cli_get_jobs(const char *cmd, const cli_args *a, unsigned *out);
/* -j of CSI and CSI coverage convert (CLI_CONVERT_JOBS_OPT): cli_get_jobs's, 1 under
 * tracekit-mpi (its first rank converts alone). Returns 0, or -1 after a usage error. */
int cli_convert_jobs(const char *cmd, const cli_args *a, unsigned *out);
/* A number for a library option where 0 stands for the library's default (tk_dot_options
 * thresholds, tk_folded_profile_options.min_share): not given, 0; given as 0 (or less), -1,
 * the library's "none". */
int cli_get_nonzero_double(const char *cmd, const cli_args *a, const char *name, double *out);

/* ---- the rows a table shows: one policy in every command and format (docs/cli.md) ----- */

/* -n/--top, --threshold (its alias --coverage) and --all as every command reads them. top:
 * at most this many rows per table (0: no limit); threshold: the rows, in the table's order,
 * until they cover this percentage of the total (100: no cut; callgrind_annotate's
 * --threshold); fixed: neither was given, the default cut applies. The default: a text
 * table shows its first CLI_ROWS_TEXT rows, JSON and CSV every row; --all shows every row
 * in every format (not with -n or --threshold). */
#define CLI_ROWS_TEXT 20
#define CLI_ROWS_TEXT_S "20"
typedef struct cli_rows {
    uint64_t top;
    double threshold;
    int fixed;
} cli_rows;
/* Returns 0, or -1 after printing a usage error. text: the output is a text table. */
int cli_get_rows(const char *cmd, const cli_args *a, int text, cli_rows *out);
/* The note under a text table cut at `shown` of `total` rows (nothing when none is
 * hidden): "(N more rows not shown: --all shows them)"; what: "row", "function", ... */
void cli_rows_note(FILE *f, uint64_t shown, uint64_t total, const char *what);
/* The entries of the option tables (`rows` names what is cut: "rows", "functions"). */
#define CLI_TOP_OPT(rows) \
    { \
        "top", 'n', "N", \
            "at most N " rows " (default: " CLI_ROWS_TEXT_S " in text, all in json " \
            "and csv; 0: all)" \
    }
/* -j of a handler that treats each FILE on its own (cli_format_ops.each_stops): the dispatcher
 * runs N FILEs at once, each in a process of its own, their outputs printed in their order. */
#define CLI_EACH_JOBS_OPT(files) \
    { \
        "jobs", 'j', "N", \
            "read N " files " at once in N processes, their outputs in order (default: the " \
            "number of CPUs; 1 when standard output and error are one file)" \
    }
/* -j of a convert whose output is one stream of every FILE's (cli_convert_jobs): each FILE read
 * and its text made on one of N threads, written in the FILEs' order. */
#define CLI_CONVERT_JOBS_OPT(files) \
    { \
        "jobs", 'j', "N", \
            "read N " files " at once on N threads, their text written in order (default: " \
            "the number of CPUs)" \
    }
#define CLI_ALL_OPT(rows) \
    { \
        "all", 0, NULL, "all the " rows ", in every format" \
    }
#define CLI_THRESHOLD_OPTS \
    {"threshold", 0, "PCT", \
     "the rows, in order, until they cover PCT% of the total " \
     "(callgrind_annotate's --threshold; 100: all)"}, \
    { \
        "coverage", 0, "PCT", "the same as --threshold" \
    }

/* A value an option may take: its name on the command line and the constant it
 * stands for (of an enum of the command's or the library's; never negative). */
typedef struct cli_choice {
    const char *name; /* NULL ends a table */
    int value;
} cli_choice;

/* The value of the choice named `name`, or -1 when there is none. */
int cli_choice_value(const cli_choice *choices, const char *name);
/* The value of option `name` among choices; dflt when the option is absent; -1 after a
 * usage error ("must be one of text|json|csv": the names in the table's order). */
int cli_get_choice(const char *cmd, const cli_args *a, const char *name, const cli_choice *choices,
                   int dflt);

/* The fixed values of an option: the table cli_get_choice reads, named here for the help
 * pages, the man pages and shell completion (help.c, man.c, completion.c). */
typedef struct cli_opt_choices {
    const char *opt; /* the option's long name; NULL ends a table */
    const cli_choice *choices;
} cli_opt_choices;

/* An example of `tracekit help FORMAT` and of the man pages. */
typedef struct cli_example {
    const char *line; /* the command line after "tracekit "; NULL ends a table */
    const char *what; /* what it does */
} cli_example;

/* --format: how a command prints. Each command accepts some: */
typedef enum cli_out_format {
    CLI_OUT_TEXT,
    CLI_OUT_JSON,
    CLI_OUT_CSV,
    CLI_OUT_FOLDED,
    CLI_OUT_SVG, /* a flame graph (cli_write_svg) */
    CLI_OUT_HTML /* report --format html (html.c) */
} cli_out_format;
extern const cli_choice cli_out_text_json[]; /* text|json */
extern const cli_choice cli_out_text_json_csv[]; /* text|json|csv */

void cli_print_options(FILE *f, const cli_opt *table);

/* ---- generic commands and per-format handlers --------------------------------- */

typedef enum cli_cmd_id {
    CLI_INFO,
    CLI_CHECK,
    CLI_REPORT,
    CLI_ANNOTATE,
    CLI_CONVERT,
    CLI_DUMP,
    CLI_DIFF,
    CLI_MERGE,
    CLI_NCMDS
} cli_cmd_id;

/* What a format handler receives. */
typedef struct cli_ctx {
    const char *command; /* "report", ... */
    const tk_format *format;
    tk_input **inputs; /* one per FILE argument, opened, nothing consumed */
    const char **paths; /* the FILE arguments as given */
    int ninputs;
    tk_input_options input_opt; /* for inputs the handler opens itself */
    int progress; /* show progress on stderr */
    /* tracekit-mpi (team.h): the team running the handler, whose member reads inputs
     * [lo, hi) only (their inputs[] opened, the others NULL) and merges its partial results
     * with the others'; NULL when this process runs it alone (lo 0, hi ninputs). */
    const struct cli_team *team;
    int lo, hi;
    /* diff: the inputs of the first set ([0, nfirst), the second [nfirst, ninputs)); 0 for
     * two files given without --vs. */
    int nfirst;
} cli_ctx;

/* The inputs of side 0 or 1 of a diff of two sets (ctx->nfirst), as a context of their own. */
cli_ctx cli_diff_side(const cli_ctx *ctx, int side);

/* A handler returns an exit code (CLI_EXIT_*). */
typedef int (*cli_run_fn)(cli_ctx *ctx, const cli_args *args);

/* A format's handlers of the generic commands (src/cli/<fmt>/ops.c). */
typedef struct cli_format_ops {
    const char *format; /* registry name */
    const cli_opt *opts[CLI_NCMDS]; /* options of each command (NULL: none) */
    cli_run_fn run[CLI_NCMDS]; /* NULL: the format does not support the command */
    const cli_opt_choices *choices[CLI_NCMDS]; /* the fixed values of those options (NULL: none) */
    /* The commands (bits 1u << id) whose handler runs in a team (ctx->team); tracekit-mpi
     * runs the others on its first rank alone. */
    unsigned team;
    /* The commands whose handler treats each input on its own, its output that of each in
     * turn: each, going on after an input that fails (check); each_stops, stopping at it.
     * A team runs them on each member's inputs (team.h: cli_team_each); tracekit runs an
     * each_stops handler whose options have --jobs (CLI_EACH_JOBS_OPT) on -j FILEs at once,
     * each in a process of its own (forked.h), as check -j does. */
    unsigned each, each_stops;
    /* The commands whose handler runs in a team with every member reading every input, each
     * doing its share of the work within them (a DCFG-Trace's chunks). */
    unsigned whole;
    /* The commands whose handler opens each input when it reads it (cli_input_at): of several
     * FILEs, the dispatcher closes each regular file once its format is known, so that the
     * inputs waiting to be read hold no memory (a buffer of more than a megabyte each). */
    unsigned lazy;
    /* diff of two sets (FILES... --vs FILES...) of more than one file a side: the handler
     * merges each set (ctx->nfirst); 0: refused, diff_sets_refused saying why. */
    int diff_sets;
    const char *diff_sets_refused;
    /* tracekit help FORMAT: what tracekit does with the format's files (paragraphs separated
     * by an empty line, lines of 80 columns at most), and examples. */
    const char *about;
    const cli_example *examples;
} cli_format_ops;

/* The table of format handlers (commands.c). */
const cli_format_ops *cli_format_ops_find(const char *format);
const cli_format_ops *cli_format_ops_at(size_t i);

/* ---- the command table (commands.c) ------------------------------------------------ */

typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage; /* the synopsis after "tracekit " */
    /* A command of its own: its entry point (argv[0] is the command name), what its help
     * prints after the synopsis and summary (may be NULL; the options follow), its options,
     * their fixed values, and the format it belongs to (NULL: none). */
    int (*run)(int argc, char **argv);
    void (*help)(FILE *f);
    const cli_opt *opts;
    const cli_opt_choices *choices;
    const char *format;
    /* 1: a command of its own that prints its result on standard output, which its -o/--output
     * (CLI_OUTPUT_OPTS in its table) sends to a file (cli_stdout_open) */
    int prints;
    /* 1: a command of its own whose outputs have names without -o (record: from the program's),
     * so that -f/--force alone replaces them (cli_check_force) */
    int default_outputs;
    /* A generic command (run is NULL), run by cli_dispatch: which, and its help text. */
    cli_cmd_id generic;
    const char *about;
} cli_command;

const cli_command *cli_command_find(const char *name);
size_t cli_command_count(void);
const cli_command *cli_command_at(size_t i);
/* Run a command: its own entry point or the generic dispatcher. */
int cli_command_run(const cli_command *c, int argc, char **argv);
void cli_command_help(const cli_command *c, FILE *f);

/* The options the dispatcher adds to a format's table of command id: -o/--output and
 * -f/--force (cli_output_opts) for a command that writes a result (all but info and check)
 * whose handler prints on standard output, when the table has no --output of its own; check's
 * -j/--jobs (several FILEs at once) when the table has no --jobs of its own; else NULL. */
const cli_opt *cli_format_output_opts(const cli_format_ops *ops, cli_cmd_id id);
/* tracekit's main (main.c; tracekit.c and tracekit-mpi's src/mpi/main.c call it). */
int cli_main(int argc, char **argv);

/* Run a generic command (dispatch.c): detection, option checking, the format's handler. */
int cli_dispatch(const cli_command *c, int argc, char **argv);

/* tracekit formats, tracekit help (formats.c, help.c), and the usage main prints. */
extern const cli_opt cli_formats_opts[], cli_help_opts[];
int cli_formats(int argc, char **argv);
int cli_help(int argc, char **argv);
void cli_help_help(FILE *f);
void cli_main_usage(FILE *f);
/* What tracekit is (one line), and the notes under the list of commands (main.c). */
extern const char cli_main_summary[], cli_main_notes[];

/* ---- help pages, man pages and completion: all from the tables above -------------------- */

/* The options of command c: for a generic command the common ones, report's --format html
 * ones, then those of every format that has the command, each once (a long name twice when
 * formats give it different short letters); for a command of its own, its table. Returns
 * how many are in out (at most max). */
size_t cli_command_opts(const cli_command *c, const cli_opt **out, size_t max);
/* The fixed values of option opt of command c (of a generic command: those of every format,
 * each once; --from: the formats). Returns how many are in out (at most max). */
size_t cli_command_opt_values(const cli_command *c, const char *opt, const char **out, size_t max);
/* Whether an option's value is a path (its argument is FILE, OUT, DIR, DCFG, ...). */
int cli_opt_takes_path(const cli_opt *o);
/* The commands that read files of format, space-separated, on f. */
void cli_format_commands(const char *format, FILE *f);
/* The man page `page` ("tracekit", "tracekit-report" or "report") in roff on f; the names of
 * every page, one a line (man.c). Return an exit code. */
int cli_man_page(const char *page, FILE *f);
int cli_man_pages(FILE *f);
/* The completion script of shell ("bash" or "zsh") on f (completion.c). Returns an exit
 * code. */
int cli_completion(const char *shell, FILE *f);

/* ---- helpers ------------------------------------------------------------------- */

/* The plural ending of a count: "s" unless n is 1 ("%" PRIu64 " thread%s", n, cli_s(n)). */
const char *cli_s(uint64_t n);
/* The article of a format's name as it is spoken: "an" for "xray" ("ex-ray"), else "a". */
const char *cli_a(const char *name);

/* "tracekit: <error>" on stderr; returns the exit code for the status. */
int cli_error(const tk_error *err);
/* "tracekit CMD: <message>" on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_exit_code(tk_status st);

/* Input options with the progress meter when wanted. */
void cli_input_options(tk_input_options *opt, int progress);
/* Threads for decompressing the inputs opened from now on (a command's --jobs; 0 = CPUs). */
void cli_set_input_threads(unsigned threads);
/* Input i of the context, opened by its path if the dispatcher closed it (cli_format_ops.lazy):
 * *out. Returns an exit code (the error printed). */
int cli_input_at(cli_ctx *ctx, int i, tk_input **out);
/* Input i closed again when `reopened` (it was NULL before cli_input_at), so that the inputs
 * read hold no memory either. */
void cli_input_close_reopened(cli_ctx *ctx, int i, int reopened);
/* Open a file argument (for commands that open their own inputs). */
int cli_open_input(const char *path, int progress, tk_input **out);
/* After a file given where a `want` file was expected failed to read: when its
 * content is another format, say so ("tracekit: PATH: this is a dcfg file
 * (...), not a dcfg-trace file") under the error. Prints nothing otherwise. */
void cli_note_other_format(const char *path, const char *want);

/* A diagnostics sink that prints "path:line:col: error: ..." to stderr. */
void cli_diag_init(tk_diag *d);
/* "tracekit: path:line:col: warning: message" (the location as given) on stderr. */
void cli_warning(const tk_location *loc, const char *message);
/* "path: N errors, M warnings" on stderr; returns 0 or 1 (errors present). */
int cli_diag_summary(const tk_diag *d, const char *path);

/* Open the output named by -o/--output (default stdout) honouring --force.
 * binary: refuse a terminal. Returns 0 or prints the error and returns an exit code. */
int cli_output_open(const cli_args *a, int binary, tk_output **out);
/* Commit; prints the error. Returns an exit code. */
int cli_output_commit(tk_output *o);
/* Discard (accepts NULL). */
void cli_output_abort(tk_output *o);
/* -o/--output and -f/--force for a handler that prints on standard output: with -o FILE
 * (not "-"), standard output goes into FILE's temporary file (cli_output_open) until
 * cli_stdout_close, which renames it when rc is CLI_EXIT_OK and removes it otherwise, and
 * returns rc (or the error of the commit). cli_stdout_open returns an exit code. */
typedef struct cli_stdout_redirect {
    tk_output *o; /* NULL: standard output as it is */
    int saved; /* the standard output to restore */
} cli_stdout_redirect;
int cli_stdout_open(const cli_args *a, cli_stdout_redirect *r);
int cli_stdout_close(cli_stdout_redirect *r, int rc);
/* -o/--output and -f/--force, for the tables of the commands that write a result. */
#define CLI_OUTPUT_OPTS \
    {"output", 'o', "FILE", "write to FILE instead of standard output (whole or not at all)"}, \
    { \
        "force", 'f', NULL, "overwrite FILE" \
    }
extern const cli_opt cli_output_opts[]; /* CLI_OUTPUT_OPTS */
/* diff's --vs, between two sets of FILEs (cli_args.vs, cli_ctx.nfirst): WHAT says what a set
 * becomes. It is recognised among the operands before -- (after it, a FILE). */
#define CLI_VS_OPT(what) \
    { \
        "vs", 0, NULL, "FILES... --vs FILES...: compare two sets of files, " what \
    }
/* The stream the command writes its output to: stdout, or a stream of its own over the
 * output's file (tk_output_fd) that cli_output_open opened and cli_output_commit and
 * cli_output_abort close. */
FILE *cli_output_file(tk_output *o);
/* A writer (tracekit/writer.h) into the stream f, for the library's writing functions:
 * tk_dcfg_write(cfg, CLI_WRITER(f), &err). */
int cli_write_file(void *f, const void *data, size_t len);
#define CLI_WRITER(f) (&(tk_writer){cli_write_file, (f)})
/* s as a JSON string literal (tk_json_quote; NULL is ""), as a CSV field (tk_csv_quote;
 * NULL is empty). */
void cli_put_json_string(FILE *f, const char *s);
void cli_put_csv_field(FILE *f, const char *s);
/* --per-thread callgrind: the profile's parts as OUT-01, OUT-02, ... (-o OUT, required:
 * usage error without it, which cli_need_parts_output gives before any reading); --force
 * overwrites; positions: the TK_POS_* columns written (0: the parts'). Return an exit code. */
int cli_write_callgrind_parts(const char *command, const cli_args *a, const tk_profile *p,
                              unsigned positions);
int cli_need_parts_output(const char *command, const cli_args *a);
/* --to chrome -o NAME.chrome.json: a warning that speedscope reads such a name as a Chrome
 * performance recording and refuses the trace (docs/viewers.md). */
void cli_warn_chrome_name(const cli_args *a);
/* --to svg: a flame graph (tk_flamegraph_svg) of the folded stacks that folded(job, f, err)
 * writes; --title, --width, --reverse; unit names the counts. Returns an exit code (the
 * error printed). */
typedef tk_status (*cli_folded_fn)(void *job, FILE *f, tk_error *err);
/* The flame graph's options of --title, --width and --reverse (unit: what the counts are).
 * Returns an exit code (a usage error printed). */
int cli_flame_options(const char *command, const cli_args *a, const char *unit,
                      tk_flame_options *o);
int cli_write_svg(const char *command, const cli_args *a, const char *unit, cli_folded_fn folded,
                  void *job, FILE *out);
#define CLI_SVG_OPTS \
    {"title", 0, "TEXT", "svg: the flame graph's title"}, \
        {"width", 0, "PX", "svg: width in pixels (default 1200)"}, \
    { \
        "reverse", 0, NULL, "svg: an icicle graph (roots at the top)" \
    }
/* --to dot of a call graph: --full-names, --node-threshold, --edge-threshold and --all (every
 * function and call: not with the thresholds) into o (from TK_DOT_OPTIONS_INIT); when the
 * target is not dot (dot == 0), each of them is a usage error. Returns an exit code (a usage
 * error printed). */
int cli_dot_options(const char *command, const cli_args *a, int dot, tk_dot_options *o);
#define CLI_DOT_ALL_OPT \
    { \
        "all", 0, NULL, \
            "dot: every function and call (default: of the functions over " \
            "--node-threshold, the 100 of highest inclusive and the 20 of highest self " \
            "cost, which dot lays out in a second; the graph's label says what is left out)" \
    }
#define CLI_CHROME_NAMES \
    "speedscope and Perfetto open it as NAME.json (speedscope takes " \
    "NAME.chrome.json for a Chrome performance recording and refuses it)"

/* report --format html (html.c): the format's own report (its handler run with --format
 * json), the folded stacks and the trace events of the input (its convert handler), as one
 * page (tk_html_report_write). cli_html_opts: the page's options, which every format's report
 * takes with --format html; cli_html_wanted: whether the loose parse asks for the page. */
extern const cli_opt cli_html_opts[];
extern const cli_opt_choices cli_html_choices[]; /* --format html */
int cli_html_wanted(const cli_args *loose);
int cli_html_report(cli_ctx *ctx, const cli_args *loose, int argc, char **argv);

/* What a run wrote to standard output (data NUL-terminated; free(data)). */
typedef struct cli_captured {
    char *data;
    size_t len;
} cli_captured;
/* fn(arg) with standard output sent to *cap (a temporary file). Returns fn's exit code, or a
 * usage error's when no temporary file can be made. */
int cli_capture(const char *cmd, int (*fn)(void *arg), void *arg, cli_captured *cap);
/* ops' handler of command id on argv (parsed against its options) over ctx's inputs opened
 * anew, its standard output into *cap. Returns an exit code. */
int cli_run_captured(cli_ctx *ctx, const cli_format_ops *ops, cli_cmd_id id, const char *cmd,
                     int argc, char **argv, cli_captured *cap);

/* report --format html's graphs (html_graphs.c): a DCFG's or DCFG-Trace's hot loops and a CSI
 * report's functions with their paths, drawn by Graphviz's dot (its SVG; without dot, its
 * source and a note). */
typedef struct cli_html_graphs {
    tk_html_graph *graphs;
    size_t n;
} cli_html_graphs;
int cli_html_graphs_make(cli_ctx *ctx, const cli_args *loose, const cli_captured *report,
                         cli_html_graphs *out);
void cli_html_graphs_free(cli_html_graphs *g);

/* Options every generic command accepts. */
extern const cli_opt cli_common_opts[];

#endif
