/* A tiny unit-test harness. In a test file:
 *
 *   #include "tk_test.h"
 *   static void test_something(void) { TK_CHECK(1 + 1 == 2); TK_CHECK_EQ_U64(x, 3); }
 *   TK_TEST_MAIN(TK_CASE(test_something), TK_CASE(test_other))
 *
 * Each case passes when none of its checks fails. The binary prints one line
 * per failed check and per case, then "RESULT pass=N fail=M" for tests/run.sh.
 * Run one case: ./test_x test_something. */
#ifndef TK_TEST_H
#define TK_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracekit/status.h"
#include "tracekit/writer.h"

/* A writer (tracekit/writer.h) into the stream f: tk_dcfg_write(cfg, TK_TEST_WRITER(f), &err). */
static inline int tk_test_write_file_(void *f, const void *data, size_t len)
{
    return len && fwrite(data, 1, len, (FILE *)f) != len ? -1 : 0;
}
#define TK_TEST_WRITER(f) (&(tk_writer){tk_test_write_file_, (f)})

typedef struct tk_test_case {
    const char *name;
    void (*fn)(void);
} tk_test_case;

static int tk_test_failures_;

static inline int tk_test_fail_(const char *file, int line, const char *what)
{
    fprintf(stderr, "  %s:%d: check failed: %s\n", file, line, what);
    tk_test_failures_++;
    return 0;
}

#define TK_CHECK(cond) ((cond) ? 1 : tk_test_fail_(__FILE__, __LINE__, #cond))

/* What write(what, writer, NULL) writes, as a NUL-terminated text (the caller's: free); NULL
 * when no stream could be opened (a failed write is a failed check). */
static inline char *tk_test_text_of(tk_status (*write)(const void *, const tk_writer *, tk_error *),
                                    const void *what)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    TK_CHECK(write(what, TK_TEST_WRITER(f), NULL) == TK_OK);
    fclose(f);
    return buf;
}

#define TK_CHECK_EQ_U64(a, b) \
    do { \
        uint64_t tk_a_ = (uint64_t)(a), tk_b_ = (uint64_t)(b); \
        if (tk_a_ != tk_b_) { \
            char tk_m_[768]; \
            snprintf(tk_m_, sizeof tk_m_, "%.200s == %.200s (%" PRIu64 " != %" PRIu64 ")", #a, #b, \
                     tk_a_, tk_b_); \
            tk_test_fail_(__FILE__, __LINE__, tk_m_); \
        } \
    } while (0)

#define TK_CHECK_EQ_I64(a, b) \
    do { \
        int64_t tk_a_ = (int64_t)(a), tk_b_ = (int64_t)(b); \
        if (tk_a_ != tk_b_) { \
            char tk_m_[768]; \
            snprintf(tk_m_, sizeof tk_m_, "%.200s == %.200s (%" PRId64 " != %" PRId64 ")", #a, #b, \
                     tk_a_, tk_b_); \
            tk_test_fail_(__FILE__, __LINE__, tk_m_); \
        } \
    } while (0)

#define TK_CHECK_STR(a, b) \
    do { \
        const char *tk_a_ = (a), *tk_b_ = (b); \
        if (!tk_a_ || !tk_b_ || strcmp(tk_a_, tk_b_) != 0) { \
            char tk_m_[768]; \
            snprintf(tk_m_, sizeof tk_m_, "%.100s == %.100s (\"%.200s\" != \"%.200s\")", #a, #b, \
                     tk_a_ ? tk_a_ : "(null)", tk_b_ ? tk_b_ : "(null)"); \
            tk_test_fail_(__FILE__, __LINE__, tk_m_); \
        } \
    } while (0)

/* Compare a memory block with a NUL-terminated expectation. */
#define TK_CHECK_MEM(ptr, len, expect) \
    TK_CHECK((len) == strlen(expect) && memcmp((ptr), (expect), (len)) == 0)

#define TK_CASE(fn) \
    { \
#fn, fn \
    }

static inline int tk_test_run_(const tk_test_case *cases, size_t n, int argc, char **argv)
{
    int pass = 0, fail = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1) {
            int wanted = 0;
            for (int k = 1; k < argc; k++) wanted |= strcmp(argv[k], cases[i].name) == 0;
            if (!wanted) continue;
        }
        int before = tk_test_failures_;
        cases[i].fn();
        if (tk_test_failures_ == before) {
            pass++;
        } else {
            fail++;
            fprintf(stderr, "FAIL %s\n", cases[i].name);
        }
    }
    printf("RESULT pass=%d fail=%d\n", pass, fail);
    return fail ? 1 : 0;
}

#define TK_TEST_MAIN(...) \
    int main(int argc, char **argv) \
    { \
        static const tk_test_case cases_[] = {__VA_ARGS__}; \
        return tk_test_run_(cases_, sizeof cases_ / sizeof cases_[0], argc, argv); \
    }

#endif
