/* The DCFG-Trace handlers of the generic commands. */
#include "dcfg_trace.h"

const cli_format_ops cli_dcfg_trace_ops = {
    .format = "dcfg-trace",
    .diff_sets_refused = "diff finds where two runs' edge sequences part, and a set of traces has "
                         "no merge to make it one sequence: give one trace a side",
    .opts = {[CLI_CHECK] = cli_dcfg_trace_check_opts,
             [CLI_REPORT] = cli_dcfg_trace_report_opts,
             [CLI_CONVERT] = cli_dcfg_trace_convert_opts,
             [CLI_DUMP] = cli_dcfg_trace_dump_opts,
             [CLI_DIFF] = cli_dcfg_trace_diff_opts},
    .whole = 1u << CLI_REPORT | 1u << CLI_CONVERT,
    .run = {[CLI_INFO] = cli_dcfg_trace_info,
            [CLI_CHECK] = cli_dcfg_trace_check,
            [CLI_REPORT] = cli_dcfg_trace_report,
            [CLI_CONVERT] = cli_dcfg_trace_convert,
            [CLI_DUMP] = cli_dcfg_trace_dump,
            [CLI_DIFF] = cli_dcfg_trace_diff},
    .choices = {[CLI_REPORT] = cli_dcfg_trace_report_choices,
                [CLI_CONVERT] = cli_dcfg_trace_convert_choices},
    .about = "Intel's DCFG-Trace (1.00): the order in which the edges of a DCFG were taken,\n"
             "per process, thread and chunk, as SDE writes it with -dcfg -dcfg:write_trace\n"
             "(PROG.trace.json.bz2) and tracekit record --trace does. Most commands want the\n"
             "DCFG of the same run (--dcfg).\n\n"
             "decode lists the edges as edge ids, blocks, addresses or calls; report counts\n"
             "edges and, with the DCFG, the instructions of the hottest blocks and loops;\n"
             "convert writes a timeline of the calls for Perfetto (chrome), folded stacks, a\n"
             "flame graph (svg), callgrind, a dot call graph or basic-block vectors (bbv, for\n"
             "SimPoint); encode writes a trace from a list of edges.\n",
    .examples =
        (const cli_example[]){
            {"check --dcfg prog.dcfg.json.bz2 prog.trace.json.bz2",
             "the trace, and that it agrees with its DCFG"},
            {"report --dcfg prog.dcfg.json.bz2 prog.trace.json.bz2",
             "edges, hottest blocks and loops of each thread"},
            {"decode --dcfg prog.dcfg.json.bz2 --what calls prog.trace.json.bz2",
             "every call and return, in order"},
            {"convert --to chrome --dcfg prog.dcfg.json.bz2 -o prog.json prog.trace.json.bz2",
             "a timeline of the calls for ui.perfetto.dev"},
            {"convert --to bbv --dcfg prog.dcfg.json.bz2 -o prog.bb prog.trace.json.bz2",
             "basic-block vectors for SimPoint"},
            {NULL, NULL}},
};
