/* The XRay handlers of the generic commands. */
#include "xray.h"

const cli_format_ops cli_xray_ops = {
    .format = "xray",
    .diff_sets = 1,
    .opts = {[CLI_INFO] = cli_xray_info_opts,
             [CLI_CHECK] = cli_xray_check_opts,
             [CLI_REPORT] = cli_xray_report_opts,
             [CLI_CONVERT] = cli_xray_convert_opts,
             [CLI_DUMP] = cli_xray_dump_opts,
             [CLI_DIFF] = cli_xray_diff_opts},
    .run = {[CLI_INFO] = cli_xray_info,
            [CLI_CHECK] = cli_xray_check,
            [CLI_REPORT] = cli_xray_report,
            [CLI_CONVERT] = cli_xray_convert,
            [CLI_DUMP] = cli_xray_dump,
            [CLI_DIFF] = cli_xray_diff},
    .team = 1u << CLI_REPORT | 1u << CLI_CONVERT,
    .each = 1u << CLI_CHECK,
    .each_stops = 1u << CLI_DUMP,
    .choices = {[CLI_REPORT] = cli_xray_report_choices,
                [CLI_CONVERT] = cli_xray_convert_choices,
                [CLI_DIFF] = cli_xray_diff_choices},
    .about = "Traces of LLVM's XRay runtime: a program built with clang -fxray-instrument and\n"
             "run with XRAY_OPTIONS=\"patch_premain=true xray_mode=xray-fdr\" writes\n"
             "xray-log.PROG.XXXXXX. FDR mode (versions 1 to 5) and basic mode (1 to 3) are\n"
             "read. Functions are numbered in the trace: -m BIN (--instr-map) names them from\n"
             "the xray_instr_map section of the instrumented binary, with their source lines.\n\n"
             "report is llvm-xray account: count, min, median, 90th and 99th percentile, max\n"
             "and sum of the time spent in each function, per thread with --per-thread, and\n"
             "its self time (the sum less the calls it made; --sort self), which account has\n"
             "not. --unit s|ms|us|ns: the unit of the times of report and diff (text, CSV,\n"
             "JSON) and of convert --to dot.\n"
             "convert writes a timeline for Perfetto and speedscope (chrome), folded stacks, a\n"
             "flame graph (svg), a callgrind profile or the call graph (dot, as llvm-xray\n"
             "graph); diff puts two traces of one binary side by side.\n"
             "A recursive function's time: report's sum adds up every call, the nested ones\n"
             "too (account's sum; quicksort of mtpool: 3.85 ms), so it can pass the run's\n"
             "time; convert --to dot's inclusive time counts the outermost calls only (0.88\n"
             "ms), the time the program was inside the function, which percentages of the\n"
             "total can be made of.\n",
    .examples =
        (const cli_example[]){
            {"report -m ./fib xray-log.fib.Ab3dEf", "the time spent in each function, as llvm-xray "
                                                    "account prints it"},
            {"report -m ./fib --sort count --top 10 --unit ms xray-log.fib.Ab3dEf",
             "the 10 functions called most often, times in milliseconds"},
            {"info xray-log.fib.Ab3dEf", "mode, version, clock, threads and records of the trace"},
            {"convert --to chrome -m ./fib -o fib.json xray-log.fib.Ab3dEf",
             "a timeline for ui.perfetto.dev or speedscope"},
            {"convert --to svg -m ./fib -o fib.svg xray-log.fib.Ab3dEf", "a flame graph"},
            {"instr-map ./fib", "the instrumented functions of the binary: ids, names, lines"},
            {"diff -m ./fib xray-log.fib.Ab3dEf xray-log.fib.Xy9zWv",
             "two runs side by side, function by function"},
            {NULL, NULL}},
};
