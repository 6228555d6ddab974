/* Path tracing written by hand the way csi-cc's PathTracing.cpp does it: in
 * each instrumented function three locals, __PT_counter_arr (the last N path
 * numbers, a circular array whose last slot starts at -1), __PT_counter_idx
 * (the next slot) and __PT_current_path (the running sum); edges add their
 * increment, a completed path is written at its -1 point, and a back edge
 * restarts the sum at its printed increment. */
#ifndef PT_H
#define PT_H

#define PT_BEGIN(n)                                          \
    volatile long __PT_counter_arr[n];                       \
    volatile long __PT_counter_idx = 0;                      \
    volatile long __PT_current_path = 0;                     \
    __PT_counter_arr[(n) - 1] = -1
#define PT_INC(k) (__PT_current_path += (k))
#define PT_SET(k) (__PT_current_path = (k))
#define PT_SIZE (long)(sizeof __PT_counter_arr / sizeof __PT_counter_arr[0])
#define PT_WRITE()                                                    \
    (__PT_counter_arr[__PT_counter_idx] = __PT_current_path,          \
     __PT_counter_idx = (__PT_counter_idx + 1) % PT_SIZE)

#endif
