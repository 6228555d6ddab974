/* The raw file: a buffered writer to a temporary name, renamed into place
 * when complete (libtracekit never sees a half-written file). */
#include "tkr.h"

#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#define OUT_BUF 65536

struct tkr_out {
    Int fd;
    Bool failed;
    UInt n;
    HChar buf[OUT_BUF];
};

static void out_flush(tkr_out *o)
{
    UInt done = 0;
    while (done < o->n && !o->failed) {
        Int w = VG_(write)(o->fd, o->buf + done, (Int)(o->n - done));
        if (w <= 0)
            o->failed = True;
        else
            done += (UInt)w;
    }
    o->n = 0;
}

tkr_out *tkr_out_open(const HChar *path)
{
    SysRes r = VG_(open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, 0600);
    if (sr_isError(r)) return NULL;
    tkr_out *o = VG_(malloc)("tkr.out", sizeof *o);
    o->fd = (Int)sr_Res(r);
    o->failed = False;
    o->n = 0;
    return o;
}

void tkr_out_printf(tkr_out *o, const HChar *fmt, ...)
{
    if (o->n + 1024 > OUT_BUF) out_flush(o);
    va_list ap;
    va_start(ap, fmt);
    UInt n = VG_(vsnprintf)(o->buf + o->n, OUT_BUF - o->n, fmt, ap);
    va_end(ap);
    if (o->n + n >= OUT_BUF - 1) { /* longer than the room left: cut; a name never is */
        o->failed = True;
        return;
    }
    o->n += n;
}

/* A name to the end of the line: backslash and newline escaped. */
void tkr_out_name(tkr_out *o, const HChar *s)
{
    for (; *s; s++) {
        if (o->n + 4 > OUT_BUF) out_flush(o);
        if (*s == '\\') {
            o->buf[o->n++] = '\\';
            o->buf[o->n++] = '\\';
        } else if (*s == '\n') {
            o->buf[o->n++] = '\\';
            o->buf[o->n++] = 'n';
        } else {
            o->buf[o->n++] = *s;
        }
    }
    if (o->n + 1 > OUT_BUF) out_flush(o);
    o->buf[o->n++] = '\n';
}

/* Flush and close; frees o.  False when anything failed. */
Bool tkr_out_close(tkr_out *o)
{
    out_flush(o);
    VG_(close)(o->fd);
    Bool ok = !o->failed;
    VG_(free)(o);
    return ok;
}

/* DIR/p<pid>.<gen><suffix> (to free with VG_(free)). */
HChar *tkr_path(const HChar *suffix)
{
    SizeT len = VG_(strlen)(tkr_out_dir) + VG_(strlen)(suffix) + 64;
    HChar *p = VG_(malloc)("tkr.path", len);
    VG_(snprintf)(p, (Int)len, "%s/p%u.%u%s", tkr_out_dir, tkr_pid, tkr_gen, suffix);
    return p;
}
