#include "bench.h"

static void run(int64_t n, int64_t out[2]) {
    int64_t total = 0, longest = 0;
    for (int64_t i = 1; i < n; i++) {
        int64_t x = i, len = 1;
        while (x != 1) {
            if (x % 2 == 0) x = x / 2;
            else x = x * 3 + 1;
            len++;
        }
        total += len;
        if (len > longest) longest = len;
    }
    out[0] = total;
    out[1] = longest;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2);
    volatile int64_t r[2] = {0, 0};
    TIMED(repeat, { int64_t o[2]; run(n, o); r[0] = o[0]; r[1] = o[1]; });
    printf("[%lld, %lld]\n%lld\n", (long long)r[0], (long long)r[1], (long long)best);
    return 0;
}
