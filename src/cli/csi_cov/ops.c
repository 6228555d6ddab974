/* The handlers of the generic commands for csi-cc, csi-fc and csi-bbc files:
 * one set of handlers, the kind from the format. */
#include "csi_cov.h"

#define COV_OPTS \
    .opts = {[CLI_REPORT] = cli_csi_cov_report_opts, \
             [CLI_ANNOTATE] = cli_csi_cov_annotate_opts, \
             [CLI_CONVERT] = cli_csi_cov_convert_opts, \
             [CLI_DUMP] = cli_csi_cov_dump_opts}, \
    .choices = \
        {[CLI_REPORT] = cli_csi_cov_report_choices, [CLI_CONVERT] = cli_csi_cov_convert_choices}, \
    .each = 1u << CLI_CHECK, .each_stops = 1u << CLI_REPORT | 1u << CLI_ANNOTATE | 1u << CLI_DUMP, \
    .lazy = 1u << CLI_CHECK | 1u << CLI_REPORT | 1u << CLI_ANNOTATE | 1u << CLI_CONVERT | \
            1u << CLI_DUMP

/* What tracekit help csi-cc, csi-fc and csi-bbc say of the three. */
#define COV_ABOUT(what_, section_) \
    "The " what_ " coverage metadata of CSI (csi-cc, Crash Scene\n" \
    "Investigation): for each instrumented function, its entries and their source\n" \
    "lines, as text in the " section_ " section of objects and executables (both\n" \
    "forms: csi-cc 1.3+ labels and the plain form of the guide). An ELF file is\n" \
    "read as its .debug_PT first: --from picks this section.\n\n" \
    "check verifies the entries and their array names; report lists the functions\n" \
    "with their entries and lines; convert writes the canonical text in either form;\n" \
    "coverage tells what a crashed program had covered, from its core file.\n"

/* The handlers of the three kinds: all the generic commands but annotate for csi-fc,
 * whose functions have no entries. */
#define COV_FORMAT_OPS(format_, what_, section_, examples_, annotate_) \
    { \
        .format = format_, COV_OPTS, .about = COV_ABOUT(what_, section_), .examples = examples_, \
        .run = {[CLI_INFO] = cli_csi_cov_info,       [CLI_CHECK] = cli_csi_cov_check, \
                [CLI_REPORT] = cli_csi_cov_report,   [CLI_ANNOTATE] = annotate_, \
                [CLI_CONVERT] = cli_csi_cov_convert, [CLI_DUMP] = cli_csi_cov_dump}, \
    }

static const cli_example cc_examples[] = {
    {"check --from csi-cc prog", "the call-site metadata of an executable built by csi-cc"},
    {"report --from csi-cc prog", "each function's call sites and their lines"},
    {"coverage prog core", "what the crashed program had run: functions, call sites, "
                           "blocks, lines"},
    {"coverage --format csv -o covered.csv prog core", "the same as a table"},
    {"extract prog --section .debug_CC -o prog.CC", "the section as a text file"},
    {"convert --to csi-cc --form plain prog.CC", "the plain form of the guide"},
    {NULL, NULL}};

static const cli_example fc_examples[] = {
    {"info --from csi-fc prog", "the instrumented functions of an executable"},
    {"report --from csi-fc prog", "the functions and their arrays"},
    {"coverage prog core", "which functions the crashed program had entered"},
    {NULL, NULL}};

static const cli_example bbc_examples[] = {
    {"annotate --from csi-bbc prog", "each source line with the blocks on it"},
    {"report --from csi-bbc prog", "each function's blocks and lines"},
    {"coverage --format annotate --source-dir src prog core",
     "the sources with the lines the crashed program had run marked"},
    {NULL, NULL}};

const cli_format_ops cli_csi_cc_ops =
    COV_FORMAT_OPS("csi-cc", "call-site", ".debug_CC", cc_examples, cli_csi_cov_annotate);
const cli_format_ops cli_csi_fc_ops =
    COV_FORMAT_OPS("csi-fc", "function", ".debug_FC", fc_examples, NULL);
const cli_format_ops cli_csi_bbc_ops =
    COV_FORMAT_OPS("csi-bbc", "basic-block", ".debug_BBC", bbc_examples, cli_csi_cov_annotate);
