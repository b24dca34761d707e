#include "bench.h"

static int64_t run(int64_t n) {
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++) s = (s + i * i) % 1000000007;
    return s;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2);
    volatile int64_t r = 0;
    TIMED(repeat, r = run(n));
    printf("%lld\n%lld\n", (long long)r, (long long)best);
    return 0;
}
