/* The DCFG handlers of the generic commands. */
#include "dcfg.h"

const cli_format_ops cli_dcfg_ops = {
    .format = "dcfg",
    .opts = {[CLI_CHECK] = cli_dcfg_check_opts,
             [CLI_REPORT] = cli_dcfg_report_opts,
             [CLI_CONVERT] = cli_dcfg_convert_opts,
             [CLI_DIFF] = cli_dcfg_diff_opts,
             [CLI_DUMP] = cli_dcfg_dump_opts,
             [CLI_MERGE] = cli_dcfg_merge_opts},
    .run = {[CLI_INFO] = cli_dcfg_info,
            [CLI_CHECK] = cli_dcfg_check,
            [CLI_REPORT] = cli_dcfg_report,
            [CLI_CONVERT] = cli_dcfg_convert,
            [CLI_DUMP] = cli_dcfg_dump,
            [CLI_DIFF] = cli_dcfg_diff,
            [CLI_MERGE] = cli_dcfg_merge},
    .team = 1u << CLI_MERGE,
    .diff_sets = 1,
    .lazy = 1u << CLI_DIFF | 1u << CLI_MERGE | 1u << CLI_REPORT | 1u << CLI_DUMP | 1u << CLI_CHECK,
    .each = 1u << CLI_CHECK,
    .each_stops = 1u << CLI_REPORT | 1u << CLI_DUMP,
    .choices = {[CLI_REPORT] = cli_dcfg_report_choices,
                [CLI_CONVERT] = cli_dcfg_convert_choices,
                [CLI_DIFF] = cli_dcfg_diff_choices},
    .about = "Intel's dynamic control-flow graphs (DCFG 1.00, JSON), as Pin, PinPlay and SDE\n"
             "write them with -dcfg (PROG.dcfg.json.bz2) and tracekit record does: processes,\n"
             "images, basic blocks with their counts per thread, typed edges, routines, loops.\n\n"
             "report prints the hot blocks, routines and loops (with trip counts); check\n"
             "verifies the counts, routines and loops; convert writes canonical DCFG JSON, a\n"
             "dot graph of a routine, loop or image, a callgrind profile (for KCachegrind and\n"
             "callgrind_annotate) or CSI path-tracing metadata; diff matches two runs by\n"
             "address: images, routines, blocks and edges, the largest change first;\n"
             "merge adds up the counts of DCFGs of one program over the union of their\n"
             "graphs (runs that took other paths: a block one run entered in its middle is\n"
             "cut in two).\n"
             "report --table statistics, source-loops or inner-source-loops prints the\n"
             "tables of Intel's dcfg-reader as it does.\n",
    .examples =
        (const cli_example[]){
            {"report prog.dcfg.json.bz2", "the hot blocks, routines and loops"},
            {"report --table loops --top 0 prog.dcfg.json.bz2",
             "every loop with its iterations and instructions"},
            {"check prog.dcfg.json.bz2", "every rule of the format, each problem located"},
            {"convert --to dot --routine 4 prog.dcfg.json.bz2 | dot -Tsvg -o main.svg",
             "the control-flow graph of the routine of node 4, drawn by Graphviz"},
            {"convert --to callgrind -o callgrind.out.prog prog.dcfg.json.bz2",
             "a profile for KCachegrind"},
            {"diff before.dcfg.json.bz2 after.dcfg.json.bz2",
             "the images, routines, blocks and edges that changed between two runs"},
            {"merge -o all.dcfg.json run/*.dcfg.json.bz2",
             "the counts of every run of one program, added up"},
            {"report --table source-loops prog.dcfg.json.bz2",
             "dcfg-reader's -all_source_loops_stats file"},
            {NULL, NULL}},
};
