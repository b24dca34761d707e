/* Shared by the C versions of the benchmarks: argument parsing and timing.
 * Each program runs its computation REPEAT times (argv[1]), then prints the
 * result as JSON on the first line and the best time in nanoseconds on the
 * second. Arithmetic is plain int64_t, as a C programmer would write it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t arg(int argc, char **argv, int i) {
    if (i >= argc) {
        fprintf(stderr, "missing argument %d\n", i);
        exit(2);
    }
    return strtoll(argv[i], NULL, 10);
}

#define TIMED(repeat, body)                          \
    int64_t best = INT64_MAX;                        \
    for (int64_t rep_ = 0; rep_ < (repeat); rep_++) { \
        int64_t t0_ = now_ns();                      \
        body;                                        \
        int64_t dt_ = now_ns() - t0_;                \
        if (dt_ < best) best = dt_;                  \
    }
