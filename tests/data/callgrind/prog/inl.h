static inline __attribute__((always_inline)) long mix(long x)
{
    x ^= x << 13;
    x ^= x >> 7;
    return x * 31 + 5;
}
