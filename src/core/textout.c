#include "core/textout.h"

#include <string.h>

size_t tk_json_quote(char *dst, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    char *q = dst;
    *q++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            *q++ = '\\';
            *q++ = (char)c;
        } else if (c < 0x20) {
            memcpy(q, "\\u00", 4);
            q[4] = hex[c >> 4];
            q[5] = hex[c & 15];
            q += 6;
        } else {
            *q++ = (char)c;
        }
    }
    *q++ = '"';
    *q = 0;
    return (size_t)(q - dst);
}

size_t tk_csv_quote(char *dst, const char *s, size_t n)
{
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    char *q = dst;
    if (quote) *q++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') *q++ = '"';
        *q++ = s[i];
    }
    if (quote) *q++ = '"';
    *q = 0;
    return (size_t)(q - dst);
}

void tk_put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void tk_put_csv_field(FILE *f, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
