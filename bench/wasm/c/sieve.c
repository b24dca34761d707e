#include "bench.h"

static int64_t run(int64_t n) {
    char *flags = malloc(n > 0 ? (size_t)n : 1);
    memset(flags, 1, (size_t)n);
    int64_t count = 0;
    for (int64_t i = 2; i < n; i++) {
        if (flags[i]) {
            count++;
            for (int64_t j = i * i; j < n; j += i) flags[j] = 0;
        }
    }
    free(flags);
    return count;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2);
    volatile int64_t r = 0;
    TIMED(repeat, r = run(n));
    printf("%lld\n%lld\n", (long long)r, (long long)best);
    return 0;
}
