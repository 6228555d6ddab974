/* tracekit info for WET traces: form, instructions, instances, dependences. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wet.h"

int cli_wet_info(cli_ctx *ctx, const cli_args *a)
{
    (void)a;
    for (int i = 0; i < ctx->ninputs; i++) {
        tk_deps *d;
        int rc = cli_wet_load_input(ctx, i, &d);
        if (rc != CLI_EXIT_OK) return rc;
        tk_deps_stats s;
        tk_deps_get_stats(d, &s);
        if (i) printf("\n");
        printf("form: %s\n", cli_wet_form_name(d));
        printf("instructions: %" PRIu64 "\n", s.instructions);
        printf("instances: %" PRIu64 "\n", s.instances);
        printf("dependences: %" PRIu64 " (control %" PRIu64 ", data %" PRIu64
               ", unspecified %" PRIu64 ")\n",
               s.deps_control + s.deps_data + s.deps_unknown, s.deps_control, s.deps_data,
               s.deps_unknown);
        if (tk_deps_get_form(d) == TK_DEPS_COMPREHENSIVE)
            printf("use ports: %" PRIu64 "\nvalues: %" PRIu64 "\n", s.ports, s.values);
        tk_deps_free(d);
    }
    return CLI_EXIT_OK;
}
