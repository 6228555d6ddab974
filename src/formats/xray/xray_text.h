/* Text writers shared by the XRay commands (dump, info, check). */
#ifndef TK_FORMATS_XRAY_TEXT_H
#define TK_FORMATS_XRAY_TEXT_H

#include <stdio.h>

#include "tracekit/xray.h"

/* A payload as a quoted string when printable ASCII, else 0x-prefixed hex. */
void tk_xray_write_payload(FILE *out, const uint8_t *data, size_t size);
void tk_xray_write_header(FILE *out, const tk_xray_header *h);
/* One line: "@offset kind fields...". map may be NULL. */
void tk_xray_write_record(FILE *out, const tk_xray_header *h, const tk_xray_map *map,
                          const tk_xray_record *rec);

#endif
