/* The static table of commands. */
#include <string.h>

#include "cli.h"
#include "commands.h"

static const cli_command commands[] = {
    {"info", "what a file is: format, version, processes, threads, functions, events",
     "info [--from FMT] FILE...", cmd_info, cmd_info_help},
    {"check", "validate against the format's rules; located errors, exit 1 if any",
     "check [--from FMT] FILE...", cmd_check, cmd_check_help},
    {"report", "hot functions/lines/blocks/loops/paths, latency tables",
     "report [OPTIONS] FILE...", cmd_report, cmd_report_help},
    {"annotate", "source lines with costs", "annotate [OPTIONS] FILE", cmd_annotate, cmd_annotate_help},
    {"convert", "write another format (--to FMT -o OUT)", "convert --to FMT [-o OUT] [--force] FILE",
     cmd_convert, cmd_convert_help},
    {"dump", "canonical deterministic text of the model", "dump FILE", cmd_dump, cmd_dump_help},
    {"diff", "compare two files", "diff [OPTIONS] FILE1 FILE2", cmd_diff, cmd_diff_help},
    {"merge", "add up files of the same program", "merge [-o OUT] FILE...", cmd_merge, cmd_merge_help},
    {"slice", "dynamic slice of a WET trace", "slice TRACE --criterion C [--forward] [--deps KIND] [--depth N] [--lines] [--format FMT] [--to dot]", cmd_slice, cmd_slice_help},
    {"chain", "shortest dependence chain between two instances of a WET trace", "chain [--deps KIND] TRACE FROM TO", cmd_chain, cmd_chain_help},
    {"values", "values computed by instructions of a WET trace", "values TRACE INSTR[:INSTANCE]", cmd_values, cmd_values_help},
    {"paths", "CSI: list, decode and regenerate Ball-Larus paths; decode runtime states",
     "paths META [--function NAME] (--list [--limit N] | --decode ID | --state FILE)", cmd_paths,
     cmd_paths_help},
    {"extract", "copy a section (default .debug_PT) out of an ELF executable or object",
     "extract BIN [--section NAME] [-o OUT] [--force]", cmd_extract, cmd_extract_help},
    {"decode", "DCFG-Trace: the edge sequence as edges, blocks, addresses or calls",
     "decode [--dcfg DCFG] [--what edges|blocks|addrs|calls|count] [--pid P] [--thread T] TRACE",
     cmd_decode, cmd_decode_help},
    {"encode", "DCFG-Trace: write a trace from an edge list",
     "encode [--dcfg DCFG] [--level N] [--chunk-instrs N] [--compat=intel] -o TRACE EDGES",
     cmd_encode, cmd_encode_help},
    {"instr-map", "XRay: function ids, names and source lines of an instrumented binary",
     "instr-map [--format=text|json] BINARY", cmd_instr_map, cmd_instr_map_help},
    {"record", "run a program under Valgrind and write its DCFG (and DCFG-Trace)",
     "record [-o PREFIX] [--trace] [--trace-children] [--threads-limit N] -- PROG ARGS...",
     cmd_record, cmd_record_help},
    {"formats", "every format and what tracekit can do with it", "formats", cmd_formats, NULL},
    {"help", "help on tracekit or a command", "help [COMMAND]", cmd_help, NULL},
};

size_t cli_command_count(void) { return sizeof commands / sizeof commands[0]; }

const cli_command *cli_command_at(size_t i) { return i < cli_command_count() ? &commands[i] : NULL; }

const cli_command *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_command_count(); i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

void cli_command_help(const cli_command *c, FILE *f)
{
    fprintf(f, "usage: tracekit %s\n\n%s.\n", c->usage, c->summary);
    if (c->help) {
        fputc('\n', f);
        c->help(f);
    }
}
