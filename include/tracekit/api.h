/* tracekit: what the shared library exports. The library is built with
 * -fvisibility=hidden and TK_BUILDING_LIBRARY: only the declarations marked
 * TK_API in these headers are exported, so no internal helper is part of the
 * ABI (tests/integration/install_api.sh compares the exported symbols with the
 * declared ones, both ways). For a program using the library TK_API is empty.
 * Compiler extensions appear in the public headers only through the macros
 * here, which are empty for a compiler without them. */
#ifndef TRACEKIT_API_H
#define TRACEKIT_API_H

#if defined(TK_BUILDING_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define TK_API __attribute__((visibility("default")))
#else
#define TK_API
#endif

/* printf-style format checking of a function's arguments where the compiler
 * has it (GCC, clang); nothing elsewhere: the headers are plain C11 then. */
#if defined(__GNUC__) || defined(__clang__)
#define TK_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define TK_PRINTF(fmt, first)
#endif

#endif
