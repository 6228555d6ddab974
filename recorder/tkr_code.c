/* Static information gathered at translation time: images (the mapped
 * objects code runs from), superblocks with their instructions and exits,
 * the symbols and source lines of their instructions. */
#include "tkr.h"

#include "pub_tool_aspacemgr.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"

tkr_exit tkr_start_exit = {NULL, 0, 0, TKR_K_START, 0, 0, NULL, NULL, 0};

/* ---- strings: interning (source file names) --------------------------------- */

typedef struct {
    HChar **keys;
    UInt *ids;
    UInt cap, n;
} strset;

static UInt str_hash(const HChar *s)
{
    UInt h = 2166136261u;
    for (; *s; s++) h = (h ^ (UChar)*s) * 16777619u;
    return h;
}

static void strset_grow(strset *t)
{
    UInt cap = t->cap ? 2 * t->cap : 256;
    HChar **keys = VG_(calloc)("tkr.strset", cap, sizeof *keys);
    UInt *ids = VG_(calloc)("tkr.strset", cap, sizeof *ids);
    for (UInt i = 0; i < t->cap; i++) {
        if (!t->keys[i]) continue;
        UInt j = str_hash(t->keys[i]) & (cap - 1);
        while (keys[j]) j = (j + 1) & (cap - 1);
        keys[j] = t->keys[i];
        ids[j] = t->ids[i];
    }
    if (t->keys) VG_(free)(t->keys);
    if (t->ids) VG_(free)(t->ids);
    t->keys = keys;
    t->ids = ids;
    t->cap = cap;
}

/* Id (1..) of s, added when new; *added tells. */
static UInt strset_id(strset *t, const HChar *s, Bool *added)
{
    if (2 * (t->n + 1) > t->cap) strset_grow(t);
    UInt j = str_hash(s) & (t->cap - 1);
    while (t->keys[j]) {
        if (VG_(strcmp)(t->keys[j], s) == 0) {
            *added = False;
            return t->ids[j];
        }
        j = (j + 1) & (t->cap - 1);
    }
    t->keys[j] = VG_(strdup)("tkr.str", s);
    t->ids[j] = ++t->n;
    *added = True;
    return t->n;
}

/* ---- images ------------------------------------------------------------------ */

typedef struct {
    Addr lo, hi; /* hi: last byte */
    Addr bias; /* of the object's addresses (its debug information's text bias) */
    ULong dev, ino;
    Bool file;
    HChar *name;
} tkr_image;

static tkr_image *images;
static UInt nimages, cap_images, last_image;

static Bool same_file(const NSegment *s, const NSegment *t)
{
    return t && (t->kind == SkFileC || t->kind == SkFileV) && t->kind == s->kind &&
           t->dev == s->dev && t->ino == s->ino;
}

static Bool image_matches(const tkr_image *im, Addr a, const NSegment *seg)
{
    if (a < im->lo || a > im->hi) return False;
    if (!seg) return !im->file;
    if (im->file)
        return (seg->kind == SkFileC || seg->kind == SkFileV) && seg->dev == im->dev &&
               seg->ino == im->ino;
    return seg->kind != SkFileC && seg->kind != SkFileV;
}

static UInt image_add(Addr a, const NSegment *seg)
{
    tkr_image im;
    VG_(memset)(&im, 0, sizeof im);
    if (seg && (seg->kind == SkFileC || seg->kind == SkFileV)) {
        im.file = True;
        im.dev = seg->dev;
        im.ino = seg->ino;
        im.lo = seg->start;
        im.hi = seg->end;
        const NSegment *t;
        while (im.lo > 0 && (t = VG_(am_find_nsegment)(im.lo - 1)) && same_file(seg, t))
            im.lo = t->start;
        while (im.hi + 1 != 0 && (t = VG_(am_find_nsegment)(im.hi + 1)) && same_file(seg, t))
            im.hi = t->end;
        const HChar *name = VG_(am_get_filename)(seg);
        im.name = VG_(strdup)("tkr.image", name ? name : "[unknown file]");
        DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
        im.bias = di ? (Addr)VG_(DebugInfo_get_text_bias)(di) : im.lo;
    } else {
        im.lo = seg ? seg->start : a;
        im.hi = seg ? seg->end : a;
        HChar buf[64];
        VG_(snprintf)(buf, sizeof buf, "[anonymous code at 0x%lx]", im.lo);
        im.name = VG_(strdup)("tkr.image", buf);
    }
    if (nimages == cap_images) {
        cap_images = cap_images ? 2 * cap_images : 16;
        images = VG_(realloc)("tkr.images", images, cap_images * sizeof *images);
    }
    images[nimages] = im;
    return ++nimages;
}

/* Image id (1..) of the object holding address a, registered when new. */
UInt tkr_image_of(Addr a)
{
    const NSegment *seg = VG_(am_find_nsegment)(a);
    if (last_image && image_matches(&images[last_image - 1], a, seg)) return last_image;
    /* the newest image first: an object mapped where another one was */
    for (UInt i = nimages; i > 0; i--) {
        if (image_matches(&images[i - 1], a, seg)) return last_image = i;
    }
    return last_image = image_add(a, seg);
}

/* Every object with debug information (mapped ELF objects), also those
 * no code of which ran. */
void tkr_images_add_mapped(void)
{
    for (const DebugInfo *di = VG_(next_DebugInfo)(NULL); di; di = VG_(next_DebugInfo)(di)) {
        if (VG_(DebugInfo_get_text_size)(di) == 0) continue;
        (void)tkr_image_of(VG_(DebugInfo_get_text_avma)(di));
    }
}

/* ---- symbols ----------------------------------------------------------------- */

typedef struct {
    Addr start;
    UInt image;
    HChar *name;
} tkr_sym;

static tkr_sym *syms;
static UInt nsyms, cap_syms;
static UInt *sym_slots, sym_cap; /* open addressing over syms (index + 1) */

static UInt addr_hash(Addr a)
{
    ULong x = (ULong)a * 0x9E3779B97F4A7C15ULL;
    return (UInt)(x >> 32);
}

static void sym_rehash(void)
{
    UInt cap = sym_cap ? 2 * sym_cap : 1024;
    UInt *slots = VG_(calloc)("tkr.syms", cap, sizeof *slots);
    for (UInt i = 0; i < nsyms; i++) {
        UInt j = addr_hash(syms[i].start) & (cap - 1);
        while (slots[j]) j = (j + 1) & (cap - 1);
        slots[j] = i + 1;
    }
    if (sym_slots) VG_(free)(sym_slots);
    sym_slots = slots;
    sym_cap = cap;
}

/* Id (1..) of the symbol starting at start in image, added when new. */
static UInt sym_note(UInt image, Addr start, const HChar *name, SizeT len)
{
    if (2 * (nsyms + 1) > sym_cap) sym_rehash();
    UInt j = addr_hash(start) & (sym_cap - 1);
    for (; sym_slots[j]; j = (j + 1) & (sym_cap - 1)) {
        const tkr_sym *s = &syms[sym_slots[j] - 1];
        if (s->start == start && s->image == image) return sym_slots[j];
    }
    if (nsyms == cap_syms) {
        cap_syms = cap_syms ? 2 * cap_syms : 1024;
        syms = VG_(realloc)("tkr.syms", syms, cap_syms * sizeof *syms);
    }
    tkr_sym *s = &syms[nsyms];
    s->start = start;
    s->image = image;
    s->name = VG_(malloc)("tkr.sym", len + 1);
    VG_(memcpy)(s->name, name, len);
    s->name[len] = 0;
    sym_slots[j] = ++nsyms;
    return nsyms;
}

/* Id of the symbol holding a (0: none): Valgrind gives "name+offset" (or
 * "name" at offset 0). */
static UInt sym_of(DiEpoch ep, UInt image, Addr a)
{
    const HChar *s;
    if (!VG_(get_fnname_w_offset)(ep, a, &s) || !*s) return 0;
    SizeT len = VG_(strlen)(s), k = len;
    while (k > 0 && VG_(isdigit)(s[k - 1])) k--;
    ULong off = 0;
    if (k > 0 && k < len && s[k - 1] == '+') {
        for (SizeT i = k; i < len; i++) off = off * 10 + (ULong)(s[i] - '0');
        len = k - 1;
    }
    if (off > a) return 0;
    return sym_note(image, a - (Addr)off, s, len);
}

/* ---- superblocks ----------------------------------------------------------------- */

static tkr_sb **sb_slots;
static UInt sb_cap, nsbs;
static tkr_sb **sb_list;
static UInt cap_sb_list;
static UInt next_exit_id = 1;
static strset files;

static tkr_exit **dyn_exits;
static UInt ndyn, cap_dyn;

static Bool sb_same(const tkr_sb *sb, UInt image, UInt n, const UChar *lens, UInt nexits,
                    const tkr_exit *exits)
{
    if (sb->image != image || sb->ninstrs != n || sb->nexits != nexits) return False;
    if (VG_(memcmp)(sb->lens, lens, n) != 0) return False;
    for (UInt i = 0; i < nexits; i++) {
        const tkr_exit *a = &sb->exits[i], *b = &exits[i];
        if (a->instr != b->instr || a->kind != b->kind || a->has_dst != b->has_dst ||
            a->dst != b->dst)
            return False;
    }
    return True;
}

static void sb_rehash(void)
{
    UInt cap = sb_cap ? 2 * sb_cap : 4096;
    tkr_sb **slots = VG_(calloc)("tkr.sbs", cap, sizeof *slots);
    for (UInt i = 0; i < sb_cap; i++) {
        tkr_sb *sb = sb_slots[i];
        while (sb) {
            tkr_sb *next = sb->hnext;
            UInt j = addr_hash(sb->addr) & (cap - 1);
            sb->hnext = slots[j];
            slots[j] = sb;
            sb = next;
        }
    }
    if (sb_slots) VG_(free)(sb_slots);
    sb_slots = slots;
    sb_cap = cap;
}

/* Source file and line of each instruction, and the symbols they are in. */
static void sb_describe(tkr_sb *sb)
{
    DiEpoch ep = VG_(current_DiEpoch)();
    Addr a = sb->addr;
    sb->lines = VG_(malloc)("tkr.sb.lines", 3 * sizeof(UInt) * sb->ninstrs);
    for (UInt i = 0; i < sb->ninstrs; a += sb->lens[i], i++) {
        sb->lines[3 * i + 2] = sym_of(ep, sb->image, a);
        const HChar *file, *dir;
        UInt line = 0, id = 0;
        if (VG_(get_filename_linenum)(ep, a, &file, &dir, &line) && *file) {
            HChar buf[4096];
            if (dir && *dir && file[0] != '/') {
                VG_(snprintf)(buf, sizeof buf, "%s/%s", dir, file);
            } else {
                VG_(snprintf)(buf, sizeof buf, "%s", file);
            }
            Bool added;
            id = strset_id(&files, buf, &added);
        }
        sb->lines[3 * i] = id;
        sb->lines[3 * i + 1] = id ? line : 0;
    }
}

/* The superblock record of a translation: an existing one when the code is
 * the same (a retranslation), else a new one. */
tkr_sb *tkr_sb_get(Addr addr, UInt n, const UChar *lens, UInt nexits, const tkr_exit *exits)
{
    UInt image = tkr_image_of(addr);
    if (!sb_cap) sb_rehash();
    UInt j = addr_hash(addr) & (sb_cap - 1);
    for (tkr_sb *sb = sb_slots[j]; sb; sb = sb->hnext)
        if (sb->addr == addr && sb_same(sb, image, n, lens, nexits, exits)) return sb;
    tkr_sb *sb = VG_(calloc)("tkr.sb", 1, sizeof *sb);
    sb->addr = addr;
    sb->id = ++nsbs;
    sb->image = image;
    sb->ninstrs = n;
    sb->nexits = nexits;
    sb->lens = VG_(malloc)("tkr.sb.lens", n);
    VG_(memcpy)(sb->lens, lens, n);
    sb->exits = VG_(malloc)("tkr.sb.exits", nexits * sizeof *sb->exits);
    for (UInt i = 0; i < nexits; i++) {
        sb->exits[i] = exits[i];
        sb->exits[i].sb = sb;
        sb->exits[i].id = next_exit_id++;
        sb->exits[i].c_sb = NULL;
        sb->exits[i].c_edge = NULL;
    }
    sb->inprog.sb = sb;
    sb->inprog.kind = TKR_K_FAULT;
    sb_describe(sb);
    sb->hnext = sb_slots[j];
    sb_slots[j] = sb;
    if (nsbs > cap_sb_list) {
        cap_sb_list = cap_sb_list ? 2 * cap_sb_list : 4096;
        sb_list = VG_(realloc)("tkr.sblist", sb_list, cap_sb_list * sizeof *sb_list);
    }
    sb_list[nsbs - 1] = sb;
    if (nsbs > 2 * sb_cap) sb_rehash();
    return sb;
}

/* Every exit's cache of the edge record it led to last is emptied (a forked child drops
 * the parent's records: its own are numbered from 1). */
void tkr_code_forget_edges(void)
{
    for (UInt i = 0; i < nsbs; i++) {
        tkr_sb *sb = sb_list[i];
        for (UInt k = 0; k < sb->nexits; k++) {
            sb->exits[k].c_sb = NULL;
            sb->exits[k].c_edge = NULL;
        }
        sb->inprog.c_sb = NULL;
        sb->inprog.c_edge = NULL;
    }
    for (UInt i = 0; i < ndyn; i++) {
        dyn_exits[i]->c_sb = NULL;
        dyn_exits[i]->c_edge = NULL;
    }
    tkr_start_exit.c_sb = NULL;
    tkr_start_exit.c_edge = NULL;
}

/* A pseudo exit of sb at an instruction (where a signal interrupted it). */
tkr_exit *tkr_exit_dynamic(tkr_sb *sb, UInt instr, UInt kind)
{
    for (UInt i = 0; i < ndyn; i++) {
        tkr_exit *e = dyn_exits[i];
        if (e->sb == sb && e->instr == instr && e->kind == kind) return e;
    }
    tkr_exit *e = VG_(calloc)("tkr.dynexit", 1, sizeof *e);
    e->sb = sb;
    e->instr = (UShort)instr;
    e->kind = (UChar)kind;
    e->id = next_exit_id++;
    if (ndyn == cap_dyn) {
        cap_dyn = cap_dyn ? 2 * cap_dyn : 16;
        dyn_exits = VG_(realloc)("tkr.dynexits", dyn_exits, cap_dyn * sizeof *dyn_exits);
    }
    dyn_exits[ndyn++] = e;
    return e;
}

/* The newest superblock whose instructions hold address a, and the index of
 * that instruction. */
tkr_sb *tkr_sb_containing(Addr a, UInt *instr)
{
    for (UInt k = nsbs; k > 0; k--) {
        tkr_sb *sb = sb_list[k - 1];
        Addr at = sb->addr;
        if (a < at) continue;
        for (UInt i = 0; i < sb->ninstrs; at += sb->lens[i], i++) {
            if (at == a) {
                *instr = i;
                return sb;
            }
            if (at > a) break;
        }
    }
    return NULL;
}

/* ---- output ------------------------------------------------------------------------ */

static const HChar *const kind_names[TKR_K_COUNT] = {"start", "fall",  "cond", "jmp", "ijmp",
                                                     "call",  "icall", "ret",  "sys", "rep",
                                                     "other", "sig",   "fault"};

const HChar *tkr_kind_name(UInt kind) { return kind < TKR_K_COUNT ? kind_names[kind] : "?"; }

static void write_exit(tkr_out *o, const tkr_exit *e)
{
    if (e->has_dst)
        tkr_out_printf(o, "exit %u %u %u %s %lx\n", e->id, e->sb->id, (UInt)e->instr,
                       kind_names[e->kind], e->dst);
    else
        tkr_out_printf(o, "exit %u %u %u %s -\n", e->id, e->sb->id, (UInt)e->instr,
                       kind_names[e->kind]);
}

static void write_sb(tkr_out *o, const tkr_sb *sb)
{
    tkr_out_printf(o, "sb %u %u %lx ", sb->id, sb->image, sb->addr);
    for (UInt i = 0; i < sb->ninstrs; i++) tkr_out_printf(o, i ? ",%u" : "%u", (UInt)sb->lens[i]);
    tkr_out_printf(o, "\n");
    UInt file = 0, line = 0, sym = 0;
    for (UInt i = 0; i < sb->ninstrs; i++) {
        const UInt *l = &sb->lines[3 * i];
        if (!i || l[0] != file || l[1] != line)
            tkr_out_printf(o, "src %u %u %u %u\n", sb->id, i, l[0], l[1]);
        if (!i || l[2] != sym) tkr_out_printf(o, "fn %u %u %u\n", sb->id, i, l[2]);
        file = l[0];
        line = l[1];
        sym = l[2];
    }
    for (UInt i = 0; i < sb->nexits; i++) write_exit(o, &sb->exits[i]);
}

void tkr_code_write(void *out)
{
    tkr_out *o = out;
    tkr_images_add_mapped();
    for (UInt i = 0; i < nimages; i++) {
        tkr_out_printf(o, "image %u %lx %lu %lx ", i + 1, images[i].lo,
                       images[i].hi - images[i].lo + 1, images[i].bias);
        tkr_out_name(o, images[i].name);
    }
    for (UInt i = 0; i < files.cap; i++) {
        if (!files.keys[i]) continue;
        tkr_out_printf(o, "file %u ", files.ids[i]);
        tkr_out_name(o, files.keys[i]);
    }
    for (UInt i = 0; i < nsyms; i++) {
        tkr_out_printf(o, "sym %u %u %lx ", i + 1, syms[i].image, syms[i].start);
        tkr_out_name(o, syms[i].name);
    }
    for (UInt i = 0; i < nsbs; i++) write_sb(o, sb_list[i]);
    for (UInt i = 0; i < ndyn; i++) write_exit(o, dyn_exits[i]);
}

void tkr_code_init(void)
{
    sb_rehash();
    sym_rehash();
}
