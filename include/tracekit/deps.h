/* tracekit: the deps model — dynamic dependences between instruction instances.
 *
 * A node is an instance (instr, k) of a static instruction: the k-th execution,
 * 0-based. Each instruction has use ports; port 0 is the control dependence,
 * ports 1.. are data dependences. A dependence entry of port p of instruction i
 * says "instance `inst` of i used, on port p, what instance `dep_inst` of
 * instruction `dep` produced". Entries of a port are sorted by `inst`.
 *
 * The limited-history form has no ports: every instruction (keyed by address)
 * has one port of kind TK_DEP_UNKNOWN that may hold several entries per instance.
 *
 * Values are up to 256 bits wide; tk_deps_values gives their low 64 bits,
 * tk_deps_value_hex the whole.
 *
 * Memory: 12 bytes per dependence entry, 12 bytes per value (32 more for a value
 * wider than 64 bits), a few dozen bytes
 * per static instruction; no allocation per entry. Instances are limited to
 * TK_DEPS_MAX_INSTANCE and the total number of instance nodes to 2^32-2. */
#ifndef TRACEKIT_DEPS_H
#define TRACEKIT_DEPS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_deps_form {
    TK_DEPS_COMPREHENSIVE = 0, /* WET comprehensive trace: ids, ports, values */
    TK_DEPS_HISTORY = 1 /* WET limited history: address#instance edges only */
} tk_deps_form;

typedef enum tk_dep_kind {
    TK_DEP_CONTROL = 0,
    TK_DEP_DATA = 1,
    TK_DEP_UNKNOWN = 2 /* limited-history dependences do not say */
} tk_dep_kind;

/* The widest value an instance can define: 256 bits (an AVX register), as 64-bit words,
 * and the room its hexadecimal text takes (digits and the terminating NUL). */
#define TK_DEPS_VALUE_WORDS 4
#define TK_DEPS_VALUE_HEX 65

/* Largest instance number accepted (instances are 0-based). */
#define TK_DEPS_MAX_INSTANCE 0xFFFFFFFDu
/* "No instruction" index. */
#define TK_DEPS_NONE UINT32_MAX

/* One dependence: instance `inst` of the owning instruction depends on
 * instance `dep_inst` of instruction index `dep`. */
typedef struct tk_dep {
    uint32_t inst;
    uint32_t dep;
    uint32_t dep_inst;
} tk_dep;

/* One reverse dependence: instance `inst` of instruction `user` used (on `port`)
 * the instance it is listed under. */
typedef struct tk_dep_use {
    uint32_t user;
    uint32_t inst;
    uint32_t port;
} tk_dep_use;

/* Static facts of an instruction, filled by tk_deps_get_instr (strings borrowed
 * from the model). */
typedef struct tk_deps_instr {
    uint64_t id; /* WET id; in the history form, the address */
    uint64_t addr;
    const char *file; /* NULL when unknown */
    const char *function; /* NULL when unknown */
    uint32_t line; /* 0 when unknown */
    uint32_t nports;
    uint32_t ninstances; /* executions: 1 + highest instance mentioned anywhere */
    uint32_t nvalues;
    int has_values; /* 1: "VALUES n" (n may be 0); 0: "NO VALUES" */
} tk_deps_instr;

typedef struct tk_deps_stats {
    uint64_t instructions;
    uint64_t instances; /* sum of ninstances */
    uint64_t deps_control;
    uint64_t deps_data;
    uint64_t deps_unknown;
    uint64_t values;
    uint64_t ports;
} tk_deps_stats;

typedef struct tk_deps tk_deps;

/* ---- building ------------------------------------------------------------ */

/* A new empty model. Returns TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_deps_open(tk_deps **out, tk_deps_form form, tk_error *err);
TK_API void tk_deps_free(tk_deps *d);

/* The index of the instruction with this id (address in the history form),
 * creating an undefined placeholder when it is new; `loc_line`/`loc_col` are
 * remembered as the place of the first reference. TK_OK, TK_ERR_LIMIT (more than
 * TK_DEPS_NONE - 1 instructions), TK_ERR_NOMEM. */
TK_API tk_status tk_deps_ref(tk_deps *d, uint64_t id, uint64_t loc_line, uint32_t loc_col,
                             uint32_t *index, tk_error *err);
/* Whether instruction `index` was defined by tk_deps_define; its definition line. */
TK_API int tk_deps_is_defined(const tk_deps *d, uint32_t index, uint64_t *def_line);

/* Define the static facts of an instruction and open its ports. file/function
 * may be NULL (unknown); line 0 = unknown. Then call tk_deps_add_dep for each
 * entry, tk_deps_next_port between ports (nports - 1 times), and
 * tk_deps_set_values / tk_deps_add_value. These and tk_deps_add_edge return TK_OK or
 * TK_ERR_NOMEM. */
TK_API tk_status tk_deps_define(tk_deps *d, uint32_t index, uint64_t def_line, uint32_t nports,
                                uint64_t addr, const char *file, size_t file_len,
                                const char *function, size_t function_len, uint32_t line,
                                tk_error *err);
TK_API tk_status tk_deps_next_port(tk_deps *d, tk_error *err);
TK_API tk_status tk_deps_add_dep(tk_deps *d, uint32_t inst, uint32_t dep, uint32_t dep_inst,
                                 tk_error *err);
/* Index (in the whole model) of the entry that the next tk_deps_add_dep creates. */
TK_API uint64_t tk_deps_entry_count(const tk_deps *d);
TK_API void tk_deps_set_values(tk_deps *d, int has_values);
/* A value of the current instruction's instance inst. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_deps_add_value(tk_deps *d, uint32_t inst, uint64_t value, tk_error *err);
/* A value of up to 256 bits: nwords (1..TK_DEPS_VALUE_WORDS) 64-bit words, the lowest
 * first. TK_OK or TK_ERR_NOMEM. */
TK_API tk_status tk_deps_add_value_wide(tk_deps *d, uint32_t inst, const uint64_t *words,
                                        uint32_t nwords, tk_error *err);

/* History form: instance from_inst of `from` depends on instance to_inst of `to`. TK_OK or
 * TK_ERR_NOMEM. */
TK_API tk_status tk_deps_add_edge(tk_deps *d, uint32_t from, uint32_t from_inst, uint32_t to,
                                  uint32_t to_inst, tk_error *err);

/* Finish building: sorts, counts instances, numbers the nodes. Instruction
 * indexes change here: the comprehensive form puts the instructions in the
 * order of their tk_deps_define calls, the history form in address order
 * (look them up again with tk_deps_find_id / tk_deps_find_addr). Undefined
 * placeholders must have been reported by the caller (the comprehensive form
 * requires every instruction to be defined: TK_ERR_FORMAT otherwise).
 * TK_ERR_LIMIT when there are more than 2^32-2 instance nodes. */
TK_API tk_status tk_deps_finish(tk_deps *d, tk_error *err);

/* ---- reading ------------------------------------------------------------- */

TK_API tk_deps_form tk_deps_get_form(const tk_deps *d);
TK_API uint32_t tk_deps_count(const tk_deps *d);
TK_API void tk_deps_get_instr(const tk_deps *d, uint32_t index, tk_deps_instr *out);
/* Index of the instruction with this id / address, or TK_DEPS_NONE. */
TK_API uint32_t tk_deps_find_id(const tk_deps *d, uint64_t id);
TK_API uint32_t tk_deps_find_addr(const tk_deps *d, uint64_t addr);
/* Where instruction instr is in the source, into buf (snprintf's rules): "file:line", or
 * "0xADDR" when it has no file; one with no file takes the file:line of the instruction at
 * its address in statics (a comprehensive trace of the same program; NULL: none). */
TK_API const char *tk_deps_source(const tk_deps *d, const tk_deps *statics, uint32_t instr,
                                  char *buf, size_t size);
TK_API void tk_deps_get_stats(const tk_deps *d, tk_deps_stats *out);

/* Kind of port `port` (control for port 0, data for the others, unknown in
 * the history form). */
TK_API tk_dep_kind tk_deps_port_kind(const tk_deps *d, uint32_t port);

/* The entries of a port (sorted by inst), copied: entries first .. first + max - 1 (those
 * that exist) into out. Returns the port's number of entries (max 0: only that). */
TK_API size_t tk_deps_port_entries(const tk_deps *d, uint32_t index, uint32_t port, size_t first,
                                   tk_dep *out, size_t max);
/* The entries of a port for one instance (0 or 1 in the comprehensive form), copied: at
 * most max of them into out. Returns how many the instance has. */
TK_API size_t tk_deps_port_find(const tk_deps *d, uint32_t index, uint32_t port, uint32_t inst,
                                tk_dep *out, size_t max);
/* The values of an instruction (instances sorted), copied: values first .. first + max - 1
 * (those that exist), their instances into insts and their low 64 bits into values (either
 * may be NULL). Returns the instruction's number of values (max 0: only that). */
TK_API size_t tk_deps_values(const tk_deps *d, uint32_t index, size_t first, uint32_t *insts,
                             uint64_t *values, size_t max);
/* The k-th value of instruction index (k < its count) in hexadecimal, lowercase, without
 * "0x" or leading zeros, wide values complete; buf holds TK_DEPS_VALUE_HEX bytes.
 * Returns the number of digits. (tk_deps_values gives the low 64 bits of each.) */
TK_API size_t tk_deps_value_hex(const tk_deps *d, uint32_t index, size_t k, char *buf);
/* The value instance `inst` computed (its low 64 bits): 1 and *value when listed, else 0. */
TK_API int tk_deps_value_at(const tk_deps *d, uint32_t index, uint32_t inst, uint64_t *value);

/* Dense numbering of instance nodes: node = base(index) + inst. */
TK_API uint64_t tk_deps_node_count(const tk_deps *d);
TK_API uint64_t tk_deps_node_base(const tk_deps *d, uint32_t index);

/* Build the reverse index (who depends on me) once; TK_ERR_NOMEM. */
TK_API tk_status tk_deps_build_reverse(tk_deps *d, tk_error *err);
/* The users of instance inst of instruction index (after tk_deps_build_reverse), copied:
 * users first .. first + max - 1 (those that exist) into out. Returns how many it has (max
 * 0: only that; 0 before tk_deps_build_reverse). */
TK_API size_t tk_deps_users(const tk_deps *d, uint32_t index, uint32_t inst, size_t first,
                            tk_dep_use *out, size_t max);

#ifdef __cplusplus
}
#endif
#endif
