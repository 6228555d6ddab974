/* The public readers of the cfg model (tracekit/cfg.h): rows of its tables
 * into the caller's structs, and the index forms of the library's own
 * accessors (model/cfg_internal.h). */
#include <string.h>

#include "model/cfg_internal.h"

void tk_cfg_get(const tk_cfg *cfg, tk_cfg_info *out)
{
    memset(out, 0, sizeof *out);
    out->major_version = cfg->major_version;
    out->minor_version = cfg->minor_version;
    out->has_version = cfg->has_version != 0;
    out->nfile_names = cfg->nfile_names;
    out->nedge_types = cfg->nedge_types;
    out->nspecials = cfg->nspecials;
    out->nprocesses = cfg->nprocesses;
}

void tk_cfg_file_get(const tk_cfg *cfg, uint32_t i, tk_cfg_file_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= cfg->nfile_names) return;
    out->id = cfg->file_names[i].id;
    out->name = cfg_str(cfg, cfg->file_names[i].name);
    out->loc = cfg->file_names[i].loc;
}

void tk_cfg_edge_type_get(const tk_cfg *cfg, uint32_t i, tk_cfg_edge_type_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= cfg->nedge_types) return;
    out->id = cfg->edge_types[i].id;
    out->name = cfg_str(cfg, cfg->edge_types[i].name);
    out->kind = cfg->edge_types[i].kind;
    out->loc = cfg->edge_types[i].loc;
}

void tk_cfg_special_get(const tk_cfg *cfg, uint32_t i, tk_cfg_special_info *out)
{
    memset(out, 0, sizeof *out);
    if (i >= cfg->nspecials) return;
    out->id = cfg->specials[i].id;
    out->name = cfg_str(cfg, cfg->specials[i].name);
    out->kind = cfg->specials[i].kind;
    out->loc = cfg->specials[i].loc;
}

const tk_cfg_process *tk_cfg_process_at(const tk_cfg *cfg, uint32_t i)
{
    return i < cfg->nprocesses ? &cfg->processes[i] : NULL;
}

void tk_cfg_process_get(const tk_cfg *cfg, const tk_cfg_process *p, tk_cfg_process_info *out)
{
    memset(out, 0, sizeof *out);
    out->pid = p->pid;
    out->file_instr_count = p->file_instr_count;
    out->has_file_instr_count = p->has_file_instr_count;
    out->nthreads = p->nthreads;
    out->file_instr_count_per_thread = p->file_instr_count_per_thread;
    out->n_file_instr_count_per_thread = p->n_file_instr_count_per_thread;
    out->nimages = p->nimages;
    out->nblocks = p->nblocks;
    out->nsymbols = p->nsymbols;
    out->nsources = p->nsources;
    out->nedges = p->nedges;
    out->nroutines = p->nroutines;
    out->nloops = p->nloops;
    out->nnodes = p->nnodes;
    out->routines_computed = p->routines_computed;
    out->extra_json = p->extra_json ? cfg_str(cfg, p->extra_json) : NULL;
    out->loc = p->loc;
}

void tk_cfg_image_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t image,
                      tk_cfg_image_info *out)
{
    memset(out, 0, sizeof *out);
    if (image >= p->nimages) return;
    const tk_cfg_image *im = &p->images[image];
    out->id = im->id;
    out->file_name_id = im->file_name_id;
    out->file_name = im->file_name_id ? tk_cfg_file_name(cfg, im->file_name_id) : NULL;
    out->load_addr = im->load_addr;
    out->size = im->size;
    out->first_block = im->first_block;
    out->nblocks = im->nblocks;
    out->first_symbol = im->first_symbol;
    out->nsymbols = im->nsymbols;
    out->first_source = im->first_source;
    out->nsources = im->nsources;
    out->first_routine = im->first_routine;
    out->nroutines = im->nroutines;
    out->loc = im->loc;
}

void tk_cfg_block_get(const tk_cfg_process *p, uint32_t block, tk_cfg_block_info *out)
{
    memset(out, 0, sizeof *out);
    if (block >= p->nblocks) return;
    const tk_cfg_block *b = &p->blocks[block];
    out->id = b->id;
    out->image = tk_cfg_block_image(p, block);
    out->routine = b->routine;
    out->loop = b->loop;
    out->idom = b->idom;
    out->num_instrs = b->num_instrs;
    out->size = cfg_block_size(p, block);
    out->last_instr_offset = cfg_block_last_instr_offset(p, block);
    out->addr_offset = b->addr_offset;
    out->addr = tk_cfg_stored_block_addr(p, b);
    out->count = b->count;
    out->flags = p->block_flags ? p->block_flags[block] : 0;
    out->loc = cfg_block_loc(p, block);
}

void tk_cfg_symbol_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t symbol,
                       tk_cfg_symbol_info *out)
{
    memset(out, 0, sizeof *out);
    if (symbol >= p->nsymbols) return;
    const tk_cfg_symbol *s = &p->symbols[symbol];
    out->name = cfg_str(cfg, s->name);
    out->image = s->image;
    out->addr_offset = s->addr_offset;
    out->size = s->size;
}

void tk_cfg_source_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t source,
                       tk_cfg_source_info *out)
{
    memset(out, 0, sizeof *out);
    if (source >= p->nsources) return;
    const tk_cfg_source *s = &p->sources[source];
    out->file_name_id = s->file_name_id;
    out->file_name = tk_cfg_file_name(cfg, s->file_name_id);
    out->line_num = s->line_num;
    out->num_instrs = s->num_instrs;
    out->addr_offset = s->addr_offset;
    out->size = cfg_source_size(p, source);
}

void tk_cfg_edge_get(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge,
                     tk_cfg_edge_info *out)
{
    memset(out, 0, sizeof *out);
    if (edge >= p->nedges) return;
    const tk_cfg_edge *e = &p->edges[edge];
    out->id = e->id;
    out->src = e->src;
    out->tgt = e->tgt;
    out->type = e->type;
    out->kind = tk_cfg_stored_edge_kind(cfg, e);
    out->nthreads = cfg_edge_nthreads(p, edge);
    out->count = cfg_edge_count(p, e);
    out->loc = cfg_edge_loc(p, edge);
}

void tk_cfg_routine_get(const tk_cfg_process *p, uint32_t routine, tk_cfg_routine_info *out)
{
    memset(out, 0, sizeof *out);
    if (routine >= p->nroutines) return;
    const tk_cfg_routine *r = &p->routines[routine];
    out->id = cfg_routine_id(p, routine);
    out->entry = r->entry;
    out->image = r->image;
    out->exits = cfg_list(p, r->exits);
    out->nexits = r->nexits;
    out->nodes = cfg_list(p, r->nodes);
    out->nnodes = r->nnodes;
    out->first_loop = r->first_loop;
    out->nloops = r->nloops;
    out->flags = r->flags;
    out->loc = r->loc;
}

void tk_cfg_loop_get(const tk_cfg_process *p, uint32_t loop, tk_cfg_loop_info *out)
{
    memset(out, 0, sizeof *out);
    if (loop >= p->nloops) return;
    const tk_cfg_loop *l = &p->loops[loop];
    out->id = cfg_loop_id(p, loop);
    out->head = l->head;
    out->routine = l->routine;
    out->parent = l->parent;
    out->depth = l->depth;
    out->back_srcs = cfg_list(p, l->back_srcs);
    out->nback_srcs = l->nback_srcs;
    out->nodes = cfg_list(p, l->nodes);
    out->nnodes = l->nnodes;
    out->flags = l->flags;
    out->loc = l->loc;
}

tk_edge_kind tk_cfg_edge_kind(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge)
{
    return edge < p->nedges ? tk_cfg_stored_edge_kind(cfg, &p->edges[edge]) : TK_EDGE_OTHER;
}

const char *tk_cfg_edge_type_name(const tk_cfg *cfg, const tk_cfg_process *p, uint32_t edge)
{
    return edge < p->nedges ? tk_cfg_stored_edge_type_name(cfg, &p->edges[edge]) : NULL;
}

uint64_t tk_cfg_block_addr(const tk_cfg_process *p, uint32_t block)
{
    return block < p->nblocks ? tk_cfg_stored_block_addr(p, &p->blocks[block]) : 0;
}

uint64_t tk_cfg_block_last_instr_addr(const tk_cfg_process *p, uint32_t block)
{
    return block < p->nblocks ? tk_cfg_stored_block_last_instr_addr(p, &p->blocks[block]) : 0;
}

uint64_t tk_cfg_block_count(const tk_cfg_process *p, uint32_t block)
{
    return block < p->nblocks ? p->blocks[block].count : 0;
}

uint32_t tk_cfg_edge_nthreads(const tk_cfg_process *p, uint32_t edge)
{
    return edge < p->nedges ? cfg_edge_nthreads(p, edge) : 0;
}

uint64_t tk_cfg_edge_count_thread(const tk_cfg_process *p, uint32_t edge, uint32_t thread)
{
    return edge < p->nedges ? cfg_edge_count_thread(p, &p->edges[edge], thread) : 0;
}

uint64_t tk_cfg_edge_count(const tk_cfg_process *p, uint32_t edge)
{
    return edge < p->nedges ? cfg_edge_count(p, &p->edges[edge]) : 0;
}

const uint32_t *tk_cfg_out_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count)
{
    return cfg_out_edges(p, node, count);
}

const uint32_t *tk_cfg_in_edges(const tk_cfg_process *p, uint32_t node, uint32_t *count)
{
    return cfg_in_edges(p, node, count);
}

int tk_cfg_loop_encloses(const tk_cfg_process *p, uint32_t outer, uint32_t inner)
{
    return cfg_loop_encloses(p, outer, inner);
}

uint64_t tk_cfg_routine_entry_count(const tk_cfg_process *p, uint32_t routine)
{
    return routine < p->nroutines ? tk_cfg_stored_routine_entry_count(p, &p->routines[routine]) : 0;
}
