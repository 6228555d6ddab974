/* Single-threaded XRay test program: recursion, a 40-deep chain, leaf calls, a forced tail call
 * (TailExit), logged arguments (EnterArgs + CallArgument), custom events and, when built with
 * -DWITH_TYPED_EVENTS, typed events. Usage: calltree [rounds] [pause_ms]. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "xray_ctl.h"

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static unsigned long ackermann(unsigned long m, unsigned long n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

struct node { struct node *left, *right; int value; };

__attribute__((noinline)) static struct node *tree_build(int depth, int value)
{
    struct node *n = malloc(sizeof *n);
    n->value = value;
    n->left = depth > 0 ? tree_build(depth - 1, value * 2) : NULL;
    n->right = depth > 0 ? tree_build(depth - 1, value * 2 + 1) : NULL;
    return n;
}

__attribute__((noinline)) static long tree_sum(const struct node *n)
{
    return n ? n->value + tree_sum(n->left) + tree_sum(n->right) : 0;
}

__attribute__((noinline)) static void tree_free(struct node *n)
{
    if (!n)
        return;
    tree_free(n->left);
    tree_free(n->right);
    free(n);
}

#define CHAIN_FN(i, next)                                                                   \
    __attribute__((noinline)) static unsigned long chain_##i(unsigned long x)             \
    {                                                                                       \
        return next(x + i) + 1;                                                             \
    }

__attribute__((noinline)) static unsigned long chain_end(unsigned long x) { return x * 3; }
CHAIN_FN(39, chain_end) CHAIN_FN(38, chain_39) CHAIN_FN(37, chain_38) CHAIN_FN(36, chain_37)
CHAIN_FN(35, chain_36) CHAIN_FN(34, chain_35) CHAIN_FN(33, chain_34) CHAIN_FN(32, chain_33)
CHAIN_FN(31, chain_32) CHAIN_FN(30, chain_31) CHAIN_FN(29, chain_30) CHAIN_FN(28, chain_29)
CHAIN_FN(27, chain_28) CHAIN_FN(26, chain_27) CHAIN_FN(25, chain_26) CHAIN_FN(24, chain_25)
CHAIN_FN(23, chain_24) CHAIN_FN(22, chain_23) CHAIN_FN(21, chain_22) CHAIN_FN(20, chain_21)
CHAIN_FN(19, chain_20) CHAIN_FN(18, chain_19) CHAIN_FN(17, chain_18) CHAIN_FN(16, chain_17)
CHAIN_FN(15, chain_16) CHAIN_FN(14, chain_15) CHAIN_FN(13, chain_14) CHAIN_FN(12, chain_13)
CHAIN_FN(11, chain_12) CHAIN_FN(10, chain_11) CHAIN_FN(9, chain_10) CHAIN_FN(8, chain_9)
CHAIN_FN(7, chain_8) CHAIN_FN(6, chain_7) CHAIN_FN(5, chain_6) CHAIN_FN(4, chain_5)
CHAIN_FN(3, chain_4) CHAIN_FN(2, chain_3) CHAIN_FN(1, chain_2) CHAIN_FN(0, chain_1)

__attribute__((noinline)) static int leaf_add(int a, int b) { return a + b; }
__attribute__((noinline)) static int leaf_mul(int a, int b) { return a * b; }
__attribute__((noinline)) static int leaf_mix(int a) { return leaf_add(a, 3) ^ leaf_mul(a, 5); }

__attribute__((noinline)) static unsigned long tail_target(unsigned long x) { return x * 7 + 1; }

__attribute__((noinline)) static unsigned long tail_caller(unsigned long x)
{
    sink += x;
    __attribute__((musttail)) return tail_target(x + 1);
}

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline))
static long logged_square(long v)
{
    return v * v;
}

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline))
static long logged_step(long v)
{
    return v > 0 ? logged_square(v) + logged_step(v - 1) : 0;
}

#ifdef WITH_TYPED_EVENTS
/* The llvm-14 __xray_TypedEvent trampoline does not realign the stack; its handler crashes on a movaps
 * unless the caller's frame leaves rsp 16-byte aligned at the call, which this frame layout does. */
__attribute__((noinline)) static void emit_typed(int round)
{
    struct { uint32_t round; uint32_t magic; uint64_t stamp; } payload = { (uint32_t)round, 0xC0FFEEu, 42 };
    __xray_typedevent(7, (const char *)&payload, sizeof payload);
}
#endif

__attribute__((noinline)) static void emit_marker(int round)
{
    char text[32];
    int len = snprintf(text, sizeof text, "round %d begins", round);
    __xray_customevent(text, (size_t)len);
#ifdef WITH_TYPED_EVENTS
    emit_typed(round);
#endif
}

__attribute__((noinline)) static void idle_pause(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void run_round(int round)
{
    emit_marker(round);
    sink += fib(12);
    sink += ackermann(2, 3);
    struct node *t = tree_build(5, 1);
    sink += (unsigned long)tree_sum(t);
    tree_free(t);
    sink += chain_0((unsigned long)round);
    for (int i = 0; i < 20; i++)
        sink += (unsigned long)leaf_mix(i);
    sink += tail_caller((unsigned long)round);
    sink += (unsigned long)logged_step(round % 5 + 2);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    long pause_ms = argc > 2 ? atol(argv[2]) : 0;
    xray_ctl_start();
    for (int r = 0; r < rounds; r++)
        run_round(r);
    if (pause_ms > 0) {
        idle_pause(pause_ms);
        run_round(rounds);
    }
    xray_ctl_stop();
    printf("%lu\n", sink);
    return 0;
}
