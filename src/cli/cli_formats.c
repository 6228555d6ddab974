/* The per-format command handlers, one table per format (src/cli/fmt_<name>.c). */
#include <string.h>

#include "cli.h"

extern const cli_format_ops cli_fmt_callgrind;
extern const cli_format_ops cli_fmt_xray;
extern const cli_format_ops cli_fmt_dcfg;
extern const cli_format_ops cli_fmt_dcfg_trace;
extern const cli_format_ops cli_fmt_csi;
extern const cli_format_ops cli_fmt_wet;

static const cli_format_ops *const handlers[] = {
    &cli_fmt_callgrind, &cli_fmt_xray, &cli_fmt_dcfg, &cli_fmt_dcfg_trace, &cli_fmt_csi, &cli_fmt_wet,
};

const cli_format_ops *cli_format_ops_at(size_t i)
{
    return i < sizeof handlers / sizeof handlers[0] ? handlers[i] : NULL;
}

const cli_format_ops *cli_format_ops_find(const char *format)
{
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(handlers[i]->format, format) == 0) return handlers[i];
    return NULL;
}
