#include "bench.h"

static void run(int64_t n, int64_t seed, int64_t out[2]) {
    int64_t *a = malloc(sizeof(int64_t) * (size_t)(n * n + 1));
    int64_t *b = malloc(sizeof(int64_t) * (size_t)(n * n + 1));
    int64_t *c = malloc(sizeof(int64_t) * (size_t)(n * n + 1));
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) {
        for (int64_t j = 0; j < 2 * n; j++) {
            x = (x * 1103515245 + 12345) % 2147483648;
            if (j < n) a[i * n + j] = x % 201;
            else b[i * n + (j - n)] = x % 201;
        }
    }
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t s = 0;
            for (int64_t k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
    int64_t tr = 0, sum = 0;
    for (int64_t i = 0; i < n; i++) {
        tr += c[i * n + i];
        for (int64_t j = 0; j < n; j++) sum = (sum * 31 + c[i * n + j]) % 1000000007;
    }
    free(a);
    free(b);
    free(c);
    out[0] = tr;
    out[1] = sum;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2), seed = arg(argc, argv, 3);
    int64_t r[2] = {0, 0};
    TIMED(repeat, run(n, seed, r));
    printf("[%lld, %lld]\n%lld\n", (long long)r[0], (long long)r[1], (long long)best);
    return 0;
}
