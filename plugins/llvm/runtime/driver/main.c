/* The executable's driver: reads the arguments as JSON (a file, or standard
 * input), runs the program, prints the result as JSON; a runtime error is
 * printed as `isu run` prints it and the exit code is `isu run`'s (5).
 *
 *   NAME [ARGS.json | -] [--max-steps N] [--max-size N] [--max-memory N] [--format human|json] [--repeat N]
 *
 * `--repeat N` runs the function N times (each on freshly read arguments) and
 * prints the least time one run took, in nanoseconds, on standard error: the
 * benchmarks time the function this way, without the process around it.
 *
 * Exit codes: 0 the result, 1 an I/O failure or running out of memory, 2 bad
 * usage, 5 a runtime error (invalid arguments included). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "../isu_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t isu_max_steps;
int64_t isu_max_size;
int64_t isu_max_memory;

static int format_json;

enum { EXIT_RUNTIME = 5, EXIT_USAGE = 2, EXIT_IO = 1 };

static const char *code_name(int32_t code) {
    static const char *const names[] = {
        "internal_error",     "int_overflow",       "division_by_zero", "index_out_of_range",
        "missing_key",        "zero_step",          "parse_int_failed", "empty_collection",
        "negative_count",     "uninitialized_read", "no_return",        "step_limit",
        "size_limit",         "invalid_argument",
        /* 14: the executor's own out_of_memory, which isu_out_of_memory reports */
        "internal_error",     "memory_limit",       "empty_separator",  "out_of_domain",
        "float_not_finite",   "invalid_number",
    };
    if (code < 0 || code >= (int32_t)(sizeof names / sizeof names[0])) return "internal_error";
    return names[code];
}

static void put_fmt(IsuBuf *b, const char *fmt, long long x, long long y) {
    char tmp[160];
    int n = snprintf(tmp, sizeof tmp, fmt, x, y);
    if (n > 0) isu_buf_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* `(OP X Y)` of two floats, given by their bits. */
static void put_float_op(IsuBuf *b, const char *op, int64_t x, int64_t y) {
    char tmp[32];
    isu_buf_str(b, "(");
    isu_buf_str(b, op);
    isu_buf_str(b, " ");
    isu_buf_put(b, tmp, (size_t)isu_float_repr(isu_float_of_slot((uint64_t)x), tmp));
    isu_buf_str(b, " ");
    isu_buf_put(b, tmp, (size_t)isu_float_repr(isu_float_of_slot((uint64_t)y), tmp));
    isu_buf_str(b, ")");
}

static const char *op_name(int32_t what) {
    switch (what) {
    case ISU_W_ADD: return "add";
    case ISU_W_SUB: return "sub";
    case ISU_W_MUL: return "mul";
    case ISU_W_DIV: return "div";
    default: return "mod";
    }
}

/* The message of error `code` at `s`, with the values it shows. */
static void message(IsuBuf *m, int32_t code, const IsuSite *s, int64_t a, int64_t b) {
    if (s->what == ISU_W_PACK) {
        /* A pack function raised it (isu_pack_fail, isu_pack_check_size). */
        isu_buf_str(m, s->name ? s->name : "a pack function");
        isu_buf_str(m, ": ");
        switch (code) {
        case ISU_E_INT_OVERFLOW: isu_buf_str(m, "the result does not fit in 64 bits"); return;
        case ISU_E_INDEX_OUT_OF_RANGE: isu_buf_str(m, "a position or count is outside the string"); return;
        case ISU_E_EMPTY_COLLECTION: isu_buf_str(m, "the array is empty"); return;
        case ISU_E_OUT_OF_DOMAIN: isu_buf_str(m, "an argument is outside the values the function is defined for"); return;
        case ISU_E_SIZE_LIMIT: put_fmt(m, "the result would hold %lld items, more than the size limit of %lld", a, b); return;
        default: break;
        }
    }
    switch (code) {
    case ISU_E_INT_OVERFLOW:
        if (s->what == ISU_W_NEG) {
            put_fmt(m, "neg %lld does not fit in 64 bits", a, b);
        } else if (s->what == ISU_W_ABS) {
            put_fmt(m, "ABS(%lld) does not fit in 64 bits", a, b);
        } else {
            isu_buf_str(m, "(");
            isu_buf_str(m, op_name(s->what));
            put_fmt(m, " %lld %lld) does not fit in 64 bits", a, b);
        }
        return;
    case ISU_E_DIVISION_BY_ZERO:
        if (s->what == ISU_W_FDIV) {
            put_float_op(m, "div", a, b);
            isu_buf_str(m, ": division by zero");
            return;
        }
        isu_buf_str(m, "(");
        isu_buf_str(m, op_name(s->what));
        put_fmt(m, " %lld %lld): division by zero", a, b);
        return;
    case ISU_E_INDEX_OUT_OF_RANGE:
        if (s->what == ISU_W_SLICE) {
            put_fmt(m, "SLICE from %lld to %lld is outside 0 <= start <= end <= LEN", a, b);
        } else if (s->what == ISU_W_CHAR) {
            put_fmt(m, "index %lld is out of range for a string of length %lld", a, b);
        } else {
            put_fmt(m, "index %lld is out of range for an array of length %lld", a, b);
        }
        return;
    case ISU_E_MISSING_KEY: put_fmt(m, "the key is not in the map (%lld keys)", a, b); return;
    case ISU_E_ZERO_STEP: isu_buf_str(m, "a range ITER whose STEP is 0"); return;
    case ISU_E_PARSE_INT_FAILED: isu_buf_str(m, "PARSE_INT of text that is not a decimal int within 64 bits"); return;
    case ISU_E_EMPTY_COLLECTION: isu_buf_str(m, "POP of an empty array"); return;
    case ISU_E_NEGATIVE_COUNT: put_fmt(m, "REPEAT with the count %lld, below 0", a, b); return;
    case ISU_E_UNINITIALIZED_READ:
        isu_buf_str(m, "`");
        isu_buf_str(m, s->name ? s->name : "?");
        isu_buf_str(m, "` is read before any assignment to it");
        return;
    case ISU_E_STEP_LIMIT: put_fmt(m, "the run used up its step budget of %lld units (loop rounds and work)", isu_max_steps, 0); return;
    case ISU_E_SIZE_LIMIT: put_fmt(m, "a value would hold %lld items, more than the size limit of %lld", a, b); return;
    case ISU_E_EMPTY_SEPARATOR: isu_buf_str(m, "SPLIT with the empty separator"); return;
    case ISU_E_OUT_OF_DOMAIN: isu_buf_str(m, "an argument outside the values a function is defined for"); return;
    case ISU_E_FLOAT_NOT_FINITE:
        if (s->what >= ISU_W_ADD && s->what <= ISU_W_DIV) {
            put_float_op(m, op_name(s->what), a, b);
            isu_buf_str(m, " is not a finite float");
        } else {
            isu_buf_str(m, "the result is beyond the float range");
        }
        return;
    case ISU_E_INVALID_NUMBER: isu_buf_str(m, "PARSE_FLOAT of text that is not a decimal number"); return;
    case ISU_E_MEMORY_LIMIT:
        put_fmt(m, "this store adds at least %lld to what the variables hold, past the memory limit of %lld", a, b);
        return;
    default: isu_buf_str(m, code_name(code)); return;
    }
}

/* Prints a runtime error as `isu run` does and exits with its code. */
static _Noreturn void report(int32_t code, const IsuSite *site, const char *msg, size_t msglen) {
    const char *step = NULL;
    if (site && site->step >= 0 && site->step < isu_program.nsteps) step = isu_program.steps[site->step];
    int has_span = site && (site->line || site->col || site->lo || site->hi);
    IsuBuf out = {0, 0, 0};
    if (format_json) {
        isu_buf_str(&out, "{\"diagnostics\":[{\"code\":\"");
        isu_buf_str(&out, code_name(code));
        isu_buf_str(&out, "\",\"kind\":\"RuntimeError\",\"message\":");
        isu_buf_json_str(&out, (const unsigned char *)msg, msglen);
        isu_buf_str(&out, ",\"severity\":\"error\"");
        if (has_span) {
            isu_buf_str(&out, ",\"span\":{\"column\":");
            isu_buf_int(&out, site->col);
            isu_buf_str(&out, ",\"end\":");
            isu_buf_int(&out, site->hi);
            isu_buf_str(&out, ",\"line\":");
            isu_buf_int(&out, site->line);
            isu_buf_str(&out, ",\"start\":");
            isu_buf_int(&out, site->lo);
            isu_buf_str(&out, "}");
        }
        if (step) {
            isu_buf_str(&out, ",\"step\":\"");
            isu_buf_str(&out, step);
            isu_buf_str(&out, "\"");
        }
        isu_buf_str(&out, "}],\"ok\":false}\n");
        fwrite(out.p, 1, out.len, stdout);
        fflush(stdout);
    } else {
        isu_buf_str(&out, "error[");
        isu_buf_str(&out, code_name(code));
        isu_buf_str(&out, "]: RuntimeError: ");
        isu_buf_put(&out, msg, msglen);
        isu_buf_str(&out, "\n");
        if (has_span) {
            isu_buf_str(&out, "  ┌─ ");
            isu_buf_str(&out, isu_program.source);
            isu_buf_str(&out, ":");
            isu_buf_int(&out, site->line);
            isu_buf_str(&out, ":");
            isu_buf_int(&out, site->col);
            isu_buf_str(&out, "\n");
        }
        if (step) {
            isu_buf_str(&out, "  = in step ");
            isu_buf_str(&out, step);
            isu_buf_str(&out, "\n");
        }
        fwrite(out.p, 1, out.len, stderr);
        fflush(stderr);
    }
    exit(EXIT_RUNTIME);
}

_Noreturn void isu_fail(int32_t code, int32_t site, int64_t a, int64_t b) {
    static const IsuSite nowhere = {-1, ISU_W_PLAIN, 0, 0, 0, 0, NULL};
    const IsuSite *s = site >= 0 && site < isu_program.nsites ? &isu_program.sites[site] : &nowhere;
    IsuBuf m = {0, 0, 0};
    message(&m, code, s, a, b);
    report(code, s, m.p, m.len);
}

_Noreturn void isu_fail_code(int32_t code, const char *msg) { report(code, NULL, msg, strlen(msg)); }

_Noreturn void isu_out_of_memory(void) {
    static const char msg[] = "the program ran out of memory";
    if (format_json) {
        fputs("{\"diagnostics\":[{\"code\":\"out_of_memory\",\"kind\":\"BackendError\",\"message\":\"", stdout);
        fputs(msg, stdout);
        fputs("\",\"severity\":\"error\"}],\"ok\":false}\n", stdout);
        fflush(stdout);
    } else {
        fprintf(stderr, "error[out_of_memory]: %s\n", msg);
    }
    exit(EXIT_IO);
}

static _Noreturn void usage(const char *why) {
    fprintf(stderr,
            "%s: %s\nusage: %s [ARGS.json | -] [--max-steps N] [--max-size N] [--max-memory N] [--format human|json] [--repeat N]\n"
            "Runs the Isu function `%s` on its arguments, a JSON object read from the file (or standard\n"
            "input), and prints the result as JSON.\n",
            isu_program.name, why, isu_program.name, isu_program.name);
    exit(EXIT_USAGE);
}

static int64_t count_arg(const char *flag, const char *text) {
    if (!text) usage("a flag without its value");
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (!*text || *end || v < 0 || text[0] == '-' || text[0] == '+') {
        static char why[200];
        snprintf(why, sizeof why, "%s takes a count (0 or more), not %.100s", flag, text);
        usage(why);
    }
    return (int64_t)v;
}

static char *read_all(FILE *f, size_t *len) {
    size_t cap = 4096, n = 0;
    char *p = isu_alloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            char *q = realloc(p, cap);
            if (!q) isu_out_of_memory();
            p = q;
        }
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(p);
        return NULL;
    }
    *len = n;
    return p;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int main(int argc, char **argv) {
    const char *path = NULL;
    int64_t repeat = 0;
    isu_max_steps = isu_program.max_steps;
    isu_max_size = isu_program.max_size;
    isu_max_memory = isu_program.max_memory;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--max-steps")) {
            isu_max_steps = count_arg(a, argv[++i]);
        } else if (!strcmp(a, "--max-size")) {
            isu_max_size = count_arg(a, argv[++i]);
        } else if (!strcmp(a, "--max-memory")) {
            isu_max_memory = count_arg(a, argv[++i]);
        } else if (!strcmp(a, "--repeat")) {
            repeat = count_arg(a, argv[++i]);
        } else if (!strcmp(a, "--format")) {
            const char *f = argv[++i];
            if (f && !strcmp(f, "json")) {
                format_json = 1;
            } else if (f && !strcmp(f, "human")) {
                format_json = 0;
            } else {
                usage("--format takes human or json");
            }
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage("help");
        } else if (a[0] == '-' && a[1] == '-') {
            usage("an unknown flag");
        } else if (path) {
            usage("more than one arguments file");
        } else {
            path = a;
        }
    }
    FILE *f = stdin;
    if (path && strcmp(path, "-")) {
        f = fopen(path, "rb");
        if (!f) {
            perror(path);
            return EXIT_IO;
        }
    }
    size_t len = 0;
    char *text = read_all(f, &len);
    if (!text) {
        perror(path ? path : "standard input");
        return EXIT_IO;
    }
    if (f != stdin) fclose(f);
    uint64_t *args = isu_alloc(sizeof(uint64_t) * (size_t)(isu_program.nargs + 1));
    char err[512];
    uint64_t result = 0;
    int64_t best = INT64_MAX;
    for (int64_t round = 0; round < (repeat ? repeat : 1); round++) {
        /* A call takes its arguments and gives back only its result. */
        if (round) isu_drop(result, isu_program.returns);
        if (!isu_read_args(text, len, args, err, sizeof err)) isu_fail_code(ISU_E_INVALID_ARGUMENT, err);
        int64_t start = now_ns();
        isu_run(args, &result);
        int64_t took = now_ns() - start;
        if (took < best) best = took;
    }
    free(text);
    if (repeat) fprintf(stderr, "%lld\n", (long long)best);
    IsuBuf out = {0, 0, 0};
    if (format_json) isu_buf_str(&out, "{\"diagnostics\":[],\"ok\":true,\"value\":");
    isu_write_value(&out, result, isu_program.returns);
    if (format_json) isu_buf_str(&out, "}");
    isu_buf_str(&out, "\n");
    if (fwrite(out.p, 1, out.len, stdout) != out.len || fflush(stdout)) {
        perror("writing the result");
        return EXIT_IO;
    }
    return 0;
}
