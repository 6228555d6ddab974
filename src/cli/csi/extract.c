/* tracekit extract: copy a section (default .debug_PT) out of an ELF
 * executable or object, like csi-cc's extract-section --require. */
#include <stdlib.h>

#include "csi.h"

const cli_opt cli_csi_extract_opts[] = {
    {"section", 0, "NAME",
     "section to extract (default .debug_PT); all sections of that name "
     "are concatenated"},
    {"output", 'o', "OUT", "write to OUT (default: standard output)"},
    {"force", 'f', NULL, "replace an existing OUT"},
    {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

void cli_csi_extract_help(FILE *f)
{
    fputs("Prints the raw bytes of a section of an ELF file. Exit status 1 when the file is\n"
          "not ELF or has no such section. CSI metadata: .debug_PT, .debug_CC, .debug_BBC,\n"
          ".debug_FC.\n",
          f);
}

int cli_csi_extract(int argc, char **argv)
{
    cli_args args;
    int rc;
    if (!cli_parse_command("extract", argc, argv, cli_csi_extract_opts, 1,
                           "expected one FILE (an executable or object)", &args, &rc))
        return rc;
    tk_input *in = NULL;
    uint8_t *data = NULL;
    const char *path = args.pos[0];
    const char *section = cli_get(&args, "section");
    if (!section) section = ".debug_PT";
    rc = cli_open_input(path, 0, &in);
    if (rc != CLI_EXIT_OK) goto done;
    tk_error err;
    tk_error_clear(&err);
    const uint8_t *img;
    size_t ilen, len;
    tk_status st = tk_input_map(in, &img, &ilen, &err);
    if (st == TK_OK && !tk_csi_is_elf(img, ilen)) {
        fprintf(stderr, "tracekit: %s: error: not an ELF file (no \\x7fELF magic)\n", path);
        rc = CLI_EXIT_BAD_INPUT;
        goto done;
    }
    if (st == TK_OK) st = tk_csi_elf_section(path, img, ilen, section, &data, &len, &err);
    if (st == TK_END) {
        fprintf(stderr, "tracekit: %s: error: no section %s\n", path, section);
        rc = CLI_EXIT_BAD_INPUT;
        goto done;
    }
    if (st != TK_OK) {
        rc = cli_error(&err);
        goto done;
    }
    tk_output *o;
    rc = cli_output_open(&args, 0, &o);
    if (rc != CLI_EXIT_OK) goto done;
    fwrite(data, 1, len, cli_output_file(o));
    rc = cli_output_commit(o);
done:
    tk_free(data);
    tk_input_free(in);
    cli_args_free(&args);
    return rc;
}
