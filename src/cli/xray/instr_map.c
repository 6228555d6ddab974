/* tracekit instr-map: the XRay instrumentation map of an instrumented binary (function ids as the
 * runtime assigns them, addresses, names, source locations), like `llvm-xray extract`. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "xray.h"

const cli_opt cli_xray_instr_map_opts[] = {
    {"format", 0, "FMT", "text (default) or json"},
    CLI_OUTPUT_OPTS,
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_xray_instr_map_help(FILE *f)
{
    fputs("Reads the xray_instr_map section of a binary built with clang -fxray-instrument and\n"
          "lists its functions: id (1-based, in sled order, as the XRay runtime numbers them),\n"
          "address, number of sleds, flags (a: always instrumented, l: logs arguments), name\n"
          "(demangled) and file:line from DWARF.\n",
          f);
}

int cli_xray_instr_map(int argc, char **argv)
{
    cli_args args;
    int rc;
    if (!cli_parse_command("instr-map", argc, argv, cli_xray_instr_map_opts, 1,
                           "takes one instrumented binary (see 'tracekit instr-map --help')", &args,
                           &rc))
        return rc;
    int format = cli_get_choice("instr-map", &args, "format", cli_out_text_json, CLI_OUT_TEXT);
    if (format < 0) {
        rc = CLI_EXIT_USAGE;
        goto done;
    }
    tk_error err;
    tk_error_clear(&err);
    tk_xray_map *map;
    if (tk_xray_map_read(&map, args.pos[0], &err) != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    uint32_t n = tk_xray_map_count(map);
    if (format == CLI_OUT_TEXT)
        printf("# %s: %" PRIu32 " function%s, %" PRIu64 " sled%s, sled version %u\n"
               "# id address sleds flags name location\n",
               args.pos[0], n, cli_s(n), tk_xray_map_sleds(map), cli_s(tk_xray_map_sleds(map)),
               tk_xray_map_version(map));
    else
        printf("{\"version\":1,\"sled_version\":%u,\"sleds\":%" PRIu64 ",\"functions\":[",
               tk_xray_map_version(map), tk_xray_map_sleds(map));
    for (uint32_t id = 1; id <= n; id++) {
        const tk_xray_function *f = tk_xray_map_function(map, id);
        const char *base = f->file ? strrchr(f->file, '/') : NULL;
        base = base ? base + 1 : f->file;
        if (format == CLI_OUT_TEXT) {
            printf("%" PRIu32 " 0x%" PRIx64 " %" PRIu32 " %s%s%s %s", f->id, f->address, f->sleds,
                   f->always_instrument ? "a" : "", f->logs_args ? "l" : "",
                   f->always_instrument || f->logs_args ? "" : "-", f->name ? f->name : "?");
            if (base) printf(" %s:%" PRIu32, base, f->line);
            putchar('\n');
        } else {
            printf("%s\n{\"id\":%" PRIu32 ",\"address\":%" PRIu64 ",\"sleds\":%" PRIu32
                   ",\"always_instrument\":%s,\"logs_args\":%s,\"name\":",
                   id > 1 ? "," : "", f->id, f->address, f->sleds,
                   f->always_instrument ? "true" : "false", f->logs_args ? "true" : "false");
            if (f->name)
                cli_put_json_string(stdout, f->name);
            else
                fputs("null", stdout);
            fputs(",\"file\":", stdout);
            if (f->file)
                cli_put_json_string(stdout, f->file);
            else
                fputs("null", stdout);
            printf(",\"line\":%" PRIu32 "}", f->line);
        }
    }
    if (format == CLI_OUT_JSON) puts("\n]}");
    tk_xray_map_free(map);
done:
    cli_args_free(&args);
    return rc;
}

const cli_opt_choices cli_xray_instr_map_choices[] = {{"format", cli_out_text_json}, {NULL, NULL}};
