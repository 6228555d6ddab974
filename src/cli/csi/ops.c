/* The CSI handlers of the generic commands. */
#include "csi.h"

const cli_format_ops cli_csi_ops = {
    .format = "csi",
    .opts = {[CLI_REPORT] = cli_csi_report_opts,
             [CLI_ANNOTATE] = cli_csi_annotate_opts,
             [CLI_CONVERT] = cli_csi_convert_opts,
             [CLI_DUMP] = cli_csi_dump_opts},
    .run = {[CLI_INFO] = cli_csi_info,
            [CLI_CHECK] = cli_csi_check,
            [CLI_REPORT] = cli_csi_report,
            [CLI_ANNOTATE] = cli_csi_annotate,
            [CLI_CONVERT] = cli_csi_convert,
            [CLI_DUMP] = cli_csi_dump},
    .choices = {[CLI_REPORT] = cli_csi_report_choices, [CLI_CONVERT] = cli_csi_convert_choices},
    .each = 1u << CLI_CHECK,
    .each_stops = 1u << CLI_REPORT | 1u << CLI_ANNOTATE | 1u << CLI_DUMP,
    .lazy = 1u << CLI_CHECK | 1u << CLI_REPORT | 1u << CLI_ANNOTATE | 1u << CLI_CONVERT |
            1u << CLI_DUMP,
    .about = "The path-tracing metadata of CSI (csi-cc, Crash Scene Investigation): the\n"
             "control-flow graph of each instrumented function with its Ball-Larus increments,\n"
             "as text in the .debug_PT section of objects and executables. tracekit reads the\n"
             "text, or the section straight from the ELF file.\n\n"
             "check verifies the grammar and the Ball-Larus numbering; report lists the\n"
             "functions by their number of paths; paths lists and regenerates paths and\n"
             "decodes runtime path-tracing states; extract copies the section out of the ELF\n"
             "file; convert writes canonical metadata or a dot graph with the increments.\n",
    .examples =
        (const cli_example[]){
            {"check prog", "the metadata of an executable built by csi-cc"},
            {"report --top 10 prog", "the 10 functions with the most paths"},
            {"paths prog.debug_PT --function main --list", "every path of main"},
            {"paths prog.debug_PT --function main --decode 2", "the blocks and lines of path 2"},
            {"extract prog -o prog.debug_PT", "the metadata as a text file"},
            {"convert --to dot prog.debug_PT | dot -Tsvg -o cfg.svg",
             "the graphs with their increments, drawn by Graphviz"},
            {NULL, NULL}},
};
