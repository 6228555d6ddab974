/* The WET handlers of the generic commands. */
#include "wet.h"

const cli_format_ops cli_wet_ops = {
    .format = "wet",
    /* check opens each FILE when it reads it: of many traces, those waiting hold no memory */
    .lazy = 1u << CLI_CHECK,
    .opts = {[CLI_REPORT] = cli_wet_report_opts,
             [CLI_ANNOTATE] = cli_wet_annotate_opts,
             [CLI_CONVERT] = cli_wet_convert_opts},
    .run = {[CLI_INFO] = cli_wet_info,
            [CLI_CHECK] = cli_wet_check,
            [CLI_REPORT] = cli_wet_report,
            [CLI_ANNOTATE] = cli_wet_annotate,
            [CLI_CONVERT] = cli_wet_convert,
            [CLI_DUMP] = cli_wet_dump},
    .choices = {[CLI_REPORT] = cli_wet_report_choices,
                [CLI_ANNOTATE] = cli_wet_annotate_choices,
                [CLI_CONVERT] = cli_wet_convert_choices},
    .about = "Whole execution traces of WET (Zhang and Gupta): every executed instruction with\n"
             "its dynamic data and control dependences and the values it computed (the\n"
             "comprehensive form), or the last dependences of a circular buffer (the\n"
             "limited-history form).\n\n"
             "report lists the hottest lines and the longest dependence chains; slice computes\n"
             "backward or forward dynamic slices; chain finds a shortest dependence chain\n"
             "between two instances; values prints what an instruction computed; annotate\n"
             "shows the source lines with their instances; check verifies a limited-history\n"
             "trace against its comprehensive one; convert writes either form or JSON.\n",
    .examples =
        (const cli_example[]){
            {"report prog.wet", "the hottest lines and the longest dependence chains"},
            {"slice prog.wet --criterion 2118:0 --lines",
             "what instance 0 of instruction 2118 depends on, and its source lines"},
            {"slice prog.wet --criterion foo1.c:8 --forward --to dot | dot -Tsvg -o slice.svg",
             "what line 8 influences, drawn by Graphviz"},
            {"chain prog.wet 1873:0 2118:0", "how one instance depends on the other"},
            {"values prog.wet 2113", "every value instruction 2113 computed"},
            {"check prog.history prog.wet",
             "a limited-history trace against its comprehensive one"},
            {NULL, NULL}},
};
