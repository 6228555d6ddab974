/* The callgrind handlers of the generic commands. */
#include "callgrind.h"

const cli_format_ops cli_callgrind_ops = {
    .format = "callgrind",
    .opts = {[CLI_INFO] = cli_callgrind_info_opts,
             [CLI_CHECK] = cli_callgrind_check_opts,
             [CLI_REPORT] = cli_callgrind_report_opts,
             [CLI_ANNOTATE] = cli_callgrind_annotate_opts,
             [CLI_CONVERT] = cli_callgrind_convert_opts,
             [CLI_DUMP] = cli_callgrind_dump_opts,
             [CLI_DIFF] = cli_callgrind_diff_opts,
             [CLI_MERGE] = cli_callgrind_merge_opts},
    .team = 1u << CLI_REPORT | 1u << CLI_MERGE,
    .lazy = 1u << CLI_REPORT | 1u << CLI_MERGE | 1u << CLI_DIFF,
    .diff_sets = 1,
    .run = {[CLI_INFO] = cli_callgrind_info,
            [CLI_CHECK] = cli_callgrind_check,
            [CLI_REPORT] = cli_callgrind_report,
            [CLI_ANNOTATE] = cli_callgrind_annotate,
            [CLI_CONVERT] = cli_callgrind_convert,
            [CLI_DUMP] = cli_callgrind_dump,
            [CLI_DIFF] = cli_callgrind_diff,
            [CLI_MERGE] = cli_callgrind_merge},
    .choices = {[CLI_REPORT] = cli_callgrind_report_choices,
                [CLI_CONVERT] = cli_callgrind_convert_choices,
                [CLI_DIFF] = cli_callgrind_diff_choices},
    .about = "Profiles written by valgrind --tool=callgrind (callgrind.out.PID; with\n"
             "--separate-threads=yes a file per thread) and by other writers of the format\n"
             "(pprof, xdebug, iai-callgrind).\n\n"
             "report prints the tables of callgrind_annotate, with its numbers: self and\n"
             "inclusive cost per function, file, object or line, callers and callees (--tree),\n"
             "call cycles (--cycles). annotate prints the source lines with their costs.\n"
             "convert writes callgrind again (for KCachegrind and speedscope), a dot call\n"
             "graph, folded stacks or a flame graph (svg); diff compares two profiles, merge\n"
             "adds up profiles of one program.\n",
    .examples =
        (const cli_example[]){
            {"report callgrind.out.1234", "the functions of highest self cost, as "
                                          "callgrind_annotate prints them"},
            {"report --inclusive --top 20 callgrind.out.1234",
             "the 20 functions with the highest inclusive cost"},
            {"report --tree both --top 3 callgrind.out.1234",
             "the callers and callees of the 3 hottest functions"},
            {"report --by file --format csv -o files.csv callgrind.out.1234",
             "the cost of each source file, for a spreadsheet"},
            {"annotate -I src callgrind.out.1234",
             "source lines with their costs (sources in src/)"},
            {"convert --to svg -o profile.svg callgrind.out.1234", "a flame graph"},
            {"convert --to dot callgrind.out.1234 | dot -Tsvg -o calls.svg",
             "the call graph, drawn by Graphviz"},
            {"diff callgrind.out.1234 callgrind.out.1235", "what changed, function by function"},
            {"diff --mod-filename 's,^/tmp/[ab]/,,' callgrind.out.1234 callgrind.out.1235",
             "two builds made in /tmp/a and /tmp/b: paths rewritten as cg_diff's option does, "
             "so that each function is matched with itself (--match name: by name alone)"},
            {"merge -o all.out callgrind.out.1234 callgrind.out.1235", "one profile of both runs"},
            {"report --format html -o profile.html callgrind.out.1234",
             "one page: the tables and the flame graph"},
            {NULL, NULL}},
};
