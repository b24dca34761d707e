#include "bench.h"

static int64_t run(int64_t n, int64_t seed) {
    int64_t *xs = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        xs[i] = x % 100000;
    }
    for (int64_t i = 1; i < n; i++)
        for (int64_t j = 0; j < n - i; j++)
            if (xs[j] > xs[j + 1]) {
                int64_t t = xs[j];
                xs[j] = xs[j + 1];
                xs[j + 1] = t;
            }
    int64_t sum = 0;
    for (int64_t i = 0; i < n; i++) sum = (sum * 31 + xs[i]) % 1000000007;
    free(xs);
    return sum;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2), seed = arg(argc, argv, 3);
    volatile int64_t r = 0;
    TIMED(repeat, r = run(n, seed));
    printf("%lld\n%lld\n", (long long)r, (long long)best);
    return 0;
}
