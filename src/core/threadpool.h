/* tracekit core: a small fixed-size thread pool running parallel loops.
 *
 * tk_threadpool_for(pool, n, fn, ctx) calls fn(ctx, i, worker) once for each
 * i in [0, n), spread over the pool's threads (the calling thread works too),
 * and returns when all calls are done. Indexes are handed out in increasing
 * order. worker is in [0, tk_threadpool_size(pool)) and lets fn use
 * per-worker scratch space. One loop at a time per pool. */
#ifndef TK_CORE_THREADPOOL_H
#define TK_CORE_THREADPOOL_H

#include <stddef.h>

#include "tracekit/status.h"

typedef struct tk_threadpool tk_threadpool;

typedef void (*tk_threadpool_fn)(void *ctx, size_t index, unsigned worker);

/* threads: total workers including the caller (0 = number of online CPUs).
 * Returns TK_OK or TK_ERR_NOMEM / TK_ERR_IO (thread creation failed). */
tk_status tk_threadpool_create(tk_threadpool **out, unsigned threads, tk_error *err);
void tk_threadpool_free(tk_threadpool *pool);
unsigned tk_threadpool_size(const tk_threadpool *pool);
void tk_threadpool_for(tk_threadpool *pool, size_t n, tk_threadpool_fn fn, void *ctx);
/* Number of online CPUs (at least 1). */
unsigned tk_cpu_count(void);

#endif
