/* Entry points of the commands (one cmd_<name>.c each). */
#ifndef TK_CLI_COMMANDS_H
#define TK_CLI_COMMANDS_H

#include <stdio.h>

int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_formats(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
void cmd_decode_help(FILE *f);
void cmd_encode_help(FILE *f);
int cmd_extract(int argc, char **argv);
int cmd_instr_map(int argc, char **argv);
void cmd_extract_help(FILE *f);
void cmd_instr_map_help(FILE *f);
int cmd_help(int argc, char **argv);
int cmd_slice(int argc, char **argv);
int cmd_chain(int argc, char **argv);
int cmd_values(int argc, char **argv);
int cmd_paths(int argc, char **argv);
int cmd_record(int argc, char **argv);
void cmd_record_help(FILE *f);

void cmd_info_help(FILE *f);
void cmd_check_help(FILE *f);
void cmd_report_help(FILE *f);
void cmd_annotate_help(FILE *f);
void cmd_convert_help(FILE *f);
void cmd_dump_help(FILE *f);
void cmd_diff_help(FILE *f);
void cmd_merge_help(FILE *f);
void cmd_slice_help(FILE *f);
void cmd_chain_help(FILE *f);
void cmd_values_help(FILE *f);
void cmd_paths_help(FILE *f);

#endif
