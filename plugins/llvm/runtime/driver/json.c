/* JSON in and out: the arguments object read against the ARGS types (exact
 * ints, no null, no fractions, no key twice, map keys in any order), and a
 * value written as `isu run` writes it (compact, object keys sorted as
 * strings, strings escaped as serde_json escapes them). */
#include "../isu_rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void isu_buf_put(IsuBuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->len + n + 1 > cap) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) isu_out_of_memory();
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void isu_buf_str(IsuBuf *b, const char *s) { isu_buf_put(b, s, strlen(s)); }

void isu_buf_int(IsuBuf *b, int64_t v) {
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    isu_buf_put(b, tmp, (size_t)n);
}

void isu_buf_json_str(IsuBuf *b, const unsigned char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    isu_buf_put(b, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        const char *esc = NULL;
        char u[7];
        switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        default:
            if (c < 0x20) {
                u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0', u[4] = hex[c >> 4], u[5] = hex[c & 15], u[6] = 0;
                esc = u;
            }
        }
        if (esc) {
            isu_buf_put(b, (const char *)s + run, i - run);
            isu_buf_str(b, esc);
            run = i + 1;
        }
    }
    isu_buf_put(b, (const char *)s + run, n - run);
    isu_buf_put(b, "\"", 1);
}

static const IsuObj *obj(uint64_t v) { return (const IsuObj *)(uintptr_t)v; }

typedef struct {
    char text[24];
    size_t len;
    int64_t index;
} IntKey;

static int by_text(const void *x, const void *y) {
    const IntKey *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->text, b->text, n);
    if (c) return c;
    return (a->len > b->len) - (a->len < b->len);
}

void isu_write_value(IsuBuf *b, uint64_t v, const IsuType *t) {
    switch (t->kind) {
    case ISU_INT: isu_buf_int(b, (int64_t)v); return;
    case ISU_BOOL: isu_buf_str(b, v ? "true" : "false"); return;
    case ISU_FLOAT: {
        /* Python's repr, which always has a `.` or an exponent: it reads
         * back as a float (`2.0`, `1e+16`). */
        char tmp[32];
        isu_buf_put(b, tmp, (size_t)isu_float_repr(isu_float_of_slot(v), tmp));
        return;
    }
    case ISU_STRING: isu_buf_json_str(b, ISU_DATA(obj(v)), (size_t)obj(v)->len); return;
    case ISU_ARRAY: {
        const IsuObj *xs = obj(v);
        int64_t w = isu_slot_width(t->a);
        isu_buf_put(b, "[", 1);
        for (int64_t i = 0; i < xs->len; i++) {
            if (i) isu_buf_put(b, ",", 1);
            isu_write_value(b, isu_load_slot(ISU_DATA(xs) + w * i, w), t->a);
        }
        isu_buf_put(b, "]", 1);
        return;
    }
    case ISU_STRUCT: {
        /* The fields in declaration order. */
        isu_buf_put(b, "{", 1);
        for (int64_t i = 0; i < t->nfields; i++) {
            if (i) isu_buf_put(b, ",", 1);
            isu_buf_json_str(b, (const unsigned char *)t->names[i], strlen(t->names[i]));
            isu_buf_put(b, ":", 1);
            isu_write_value(b, isu_load_slot(ISU_DATA(obj(v)) + 8 * i, 8), t->fields[i]);
        }
        isu_buf_put(b, "}", 1);
        return;
    }
    default: {
        const IsuObj *m = obj(v);
        isu_map_sort(m, t);
        isu_buf_put(b, "{", 1);
        if (t->a->kind == ISU_STRING) {
            /* Byte order is the map's order and JSON's. */
            for (int64_t i = 0; i < m->len; i++) {
                if (i) isu_buf_put(b, ",", 1);
                isu_write_value(b, isu_load_slot(ISU_DATA(m) + 16 * i, 8), t->a);
                isu_buf_put(b, ":", 1);
                isu_write_value(b, isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8), t->b);
            }
        } else {
            /* Int keys print as their decimal text, sorted as strings. */
            IntKey *keys = isu_alloc(sizeof(IntKey) * (size_t)(m->len ? m->len : 1));
            for (int64_t i = 0; i < m->len; i++) {
                int n = snprintf(keys[i].text, sizeof keys[i].text, "%lld",
                                 (long long)(int64_t)isu_load_slot(ISU_DATA(m) + 16 * i, 8));
                keys[i].len = (size_t)n;
                keys[i].index = i;
            }
            qsort(keys, (size_t)m->len, sizeof(IntKey), by_text);
            for (int64_t i = 0; i < m->len; i++) {
                if (i) isu_buf_put(b, ",", 1);
                isu_buf_put(b, "\"", 1);
                isu_buf_put(b, keys[i].text, keys[i].len);
                isu_buf_put(b, "\":", 2);
                isu_write_value(b, isu_load_slot(ISU_DATA(m) + 16 * keys[i].index + 8, 8), t->b);
            }
            free(keys);
        }
        isu_buf_put(b, "}", 1);
        return;
    }
    }
}

/* ---- Reading ---- */

typedef struct {
    const unsigned char *p, *end;
    char *err;
    size_t errlen;
    /* Where in the arguments the reader is, for messages: `xs[2]`. */
    char path[160];
} Reader;

static int fail(Reader *r, const char *what) {
    snprintf(r->err, r->errlen, "%s%s%s", r->path, r->path[0] ? ": " : "", what);
    return 0;
}

static void skip_ws(Reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')) r->p++;
}

static int expect(Reader *r, char c) {
    skip_ws(r);
    if (r->p >= r->end || *r->p != (unsigned char)c) {
        char m[64];
        snprintf(m, sizeof m, "expected `%c`", c);
        return fail(r, m);
    }
    r->p++;
    return 1;
}

static int hex4(Reader *r, unsigned *out) {
    if (r->end - r->p < 4) return fail(r, "a \\u escape needs four hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = r->p[i];
        unsigned d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : 99;
        if (d > 15) return fail(r, "a \\u escape needs four hex digits");
        v = v * 16 + d;
    }
    r->p += 4;
    *out = v;
    return 1;
}

static void put_utf8(IsuBuf *b, unsigned c) {
    char u[4];
    size_t n;
    if (c < 0x80) {
        u[0] = (char)c, n = 1;
    } else if (c < 0x800) {
        u[0] = (char)(0xC0 | c >> 6), u[1] = (char)(0x80 | (c & 63)), n = 2;
    } else if (c < 0x10000) {
        u[0] = (char)(0xE0 | c >> 12), u[1] = (char)(0x80 | ((c >> 6) & 63)), u[2] = (char)(0x80 | (c & 63)), n = 3;
    } else {
        u[0] = (char)(0xF0 | c >> 18), u[1] = (char)(0x80 | ((c >> 12) & 63)), u[2] = (char)(0x80 | ((c >> 6) & 63)),
        u[3] = (char)(0x80 | (c & 63)), n = 4;
    }
    isu_buf_put(b, u, n);
}

/* The length of the valid UTF-8 sequence at p (0 when invalid). */
static size_t utf8_len(const unsigned char *p, const unsigned char *end) {
    unsigned char c = *p;
    size_t n;
    unsigned min, v;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c < 0xE0) n = 2, min = 0x80, v = c & 31;
    else if (c >= 0xE0 && c < 0xF0) n = 3, min = 0x800, v = c & 15;
    else if (c >= 0xF0 && c < 0xF5) n = 4, min = 0x10000, v = c & 7;
    else return 0;
    if ((size_t)(end - p) < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (p[i] & 63);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v < 0xE000)) return 0;
    return n;
}

/* A JSON string into `b` (its bytes, UTF-8). */
static int read_string(Reader *r, IsuBuf *b) {
    if (!expect(r, '"')) return 0;
    b->len = 0;
    isu_buf_put(b, "", 0);
    for (;;) {
        if (r->p >= r->end) return fail(r, "a string is not closed");
        unsigned char c = *r->p;
        if (c == '"') {
            r->p++;
            return 1;
        }
        if (c < 0x20) return fail(r, "a control character inside a string");
        if (c != '\\') {
            size_t n = utf8_len(r->p, r->end);
            if (!n) return fail(r, "a string that is not UTF-8");
            isu_buf_put(b, (const char *)r->p, n);
            r->p += n;
            continue;
        }
        r->p++;
        if (r->p >= r->end) return fail(r, "a string is not closed");
        c = *r->p++;
        switch (c) {
        case '"': isu_buf_put(b, "\"", 1); break;
        case '\\': isu_buf_put(b, "\\", 1); break;
        case '/': isu_buf_put(b, "/", 1); break;
        case 'b': isu_buf_put(b, "\b", 1); break;
        case 'f': isu_buf_put(b, "\f", 1); break;
        case 'n': isu_buf_put(b, "\n", 1); break;
        case 'r': isu_buf_put(b, "\r", 1); break;
        case 't': isu_buf_put(b, "\t", 1); break;
        case 'u': {
            unsigned u;
            if (!hex4(r, &u)) return 0;
            if (u >= 0xDC00 && u < 0xE000) return fail(r, "a lone low surrogate in a \\u escape");
            if (u >= 0xD800 && u < 0xDC00) {
                unsigned lo;
                if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
                    return fail(r, "a lone high surrogate in a \\u escape");
                r->p += 2;
                if (!hex4(r, &lo)) return 0;
                if (lo < 0xDC00 || lo >= 0xE000) return fail(r, "a lone high surrogate in a \\u escape");
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            }
            put_utf8(b, u);
            break;
        }
        default: return fail(r, "an unknown escape in a string");
        }
    }
}

/* An exact 64-bit int: `-?(0|[1-9][0-9]*)` with no fraction or exponent. */
static int read_int_text(const unsigned char *p, size_t n, int64_t *out) {
    size_t i = 0;
    int neg = 0;
    if (i < n && p[i] == '-') neg = 1, i++;
    if (i >= n) return 0;
    if (p[i] == '0' && n - i > 1) return 0;
    uint64_t mag = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)p[i] - '0';
        if (d > 9) return 0;
        if (mag > 922337203685477580ull) return 0;
        mag = mag * 10 + d;
    }
    if (mag > (uint64_t)INT64_MAX + (uint64_t)neg) return 0;
    if (neg && mag == 0) return 0;
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return 1;
}

static int read_number(Reader *r, int64_t *out) {
    skip_ws(r);
    const unsigned char *start = r->p;
    while (r->p < r->end && (*r->p == '-' || *r->p == '+' || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
                             (*r->p >= '0' && *r->p <= '9')))
        r->p++;
    if (r->p == start) return fail(r, "expected an int");
    if (!read_int_text(start, (size_t)(r->p - start), out))
        return fail(r, "not an int within 64 bits (Isu has no fractions, exponents or -0)");
    return 1;
}

static int read_value(Reader *r, const IsuType *t, uint64_t *out);

/* Whether the `n` bytes at `p` are a JSON number:
 * `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; `*integer` says
 * whether it has neither fraction nor exponent. */
static int json_number(const unsigned char *p, size_t n, int *integer) {
    size_t i = 0;
    if (i < n && p[i] == '-') i++;
    if (i < n && p[i] == '0') {
        i++;
    } else {
        if (i >= n || p[i] < '1' || p[i] > '9') return 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') i++;
    }
    *integer = i == n;
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || p[i] < '0' || p[i] > '9') return 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') i++;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        if (i >= n || p[i] < '0' || p[i] > '9') return 0;
        while (i < n && p[i] >= '0' && p[i] <= '9') i++;
    }
    return i == n;
}

/* A float: a JSON number with a fraction or an exponent, read to the
 * nearest double, which must be finite; or an int within 64 bits that a
 * double holds exactly. */
static int read_float(Reader *r, double *out) {
    skip_ws(r);
    const unsigned char *start = r->p;
    while (r->p < r->end && (*r->p == '-' || *r->p == '+' || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
                             (*r->p >= '0' && *r->p <= '9')))
        r->p++;
    size_t n = (size_t)(r->p - start);
    int integer = 0;
    if (n == 0 || !json_number(start, n, &integer)) return fail(r, "expected a float");
    if (integer) {
        int64_t i;
        /* 2^63 is a double, but no int. */
        if (!read_int_text(start, n, &i) || (double)i == 9223372036854775808.0 || (int64_t)(double)i != i)
            return fail(r, "an int that no float holds exactly");
        *out = (double)i;
        return 1;
    }
    char *text = isu_alloc(n + 1);
    memcpy(text, start, n);
    text[n] = 0;
    double d = strtod(text, NULL);
    free(text);
    if (!isfinite(d)) return fail(r, "a float too large for 64 bits");
    *out = d;
    return 1;
}

static int key_cmp_int(const void *x, const void *y) {
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

static int key_cmp_str(const void *x, const void *y) {
    return isu_str_cmp(obj(*(const uint64_t *)x), obj(*(const uint64_t *)y));
}

static void drop_entries(IsuObj *m, const IsuType *t) {
    isu_drop((uint64_t)(uintptr_t)m, t);
}

/* After an item of an array (`close` is `]`) or an object (`}`): 1 when a
 * `,` says another follows, 0 when `close` ends it, -1 (the error written)
 * otherwise. */
static int next_item(Reader *r, char close) {
    skip_ws(r);
    if (r->p < r->end && *r->p == ',') {
        r->p++;
        return 1;
    }
    if (r->p < r->end && *r->p == (unsigned char)close) {
        r->p++;
        return 0;
    }
    fail(r, close == ']' ? "expected `,` or `]` in an array" : "expected `,` or `}` in an object");
    return -1;
}

/* How `read_named` speaks of a key in its messages. */
typedef enum { KEY_FIELD, KEY_ARGUMENT } KeyKind;

/* Where the reader is when at the key `name`: `.x` inside a struct, `the
 * argument `x`` at the top. */
static void at_key(Reader *r, size_t pathlen, KeyKind kind, const char *name, size_t n) {
    int len = n > 60 ? 60 : (int)n;
    if (kind == KEY_FIELD) {
        snprintf(r->path + pathlen, sizeof r->path - pathlen, ".%.*s", len, name);
    } else {
        snprintf(r->path + pathlen, sizeof r->path - pathlen, "the argument `%.*s`", len, name);
    }
}

/* The members of an object whose `{` is read, to its `}`: `member` is
 * called with each key and the reader at its value, and reads the value (1)
 * or writes an error (0). 1 when the object is read to its end. */
typedef int (*Member)(Reader *r, const IsuBuf *key, void *ctx);

static int read_members(Reader *r, Member member, void *ctx) {
    IsuBuf key = {0, 0, 0};
    int ok = 1;
    skip_ws(r);
    if (r->p < r->end && *r->p == '}') {
        r->p++;
    } else {
        for (;;) {
            if (!read_string(r, &key) || !expect(r, ':') || !member(r, &key, ctx)) {
                ok = 0;
                break;
            }
            int more = next_item(r, '}');
            if (more == 1) continue;
            ok = more == 0;
            break;
        }
    }
    free(key.p);
    return ok;
}

/* An object with exactly the keys `names`, in any order: key `i`'s value,
 * of type `types[i]`, goes to `out[i]`, which holds 0 until then. */
typedef struct {
    int64_t n;
    const char *const *names;
    const IsuType *const *types;
    uint64_t *out;
    char *seen;
    size_t pathlen;
    KeyKind kind;
} Named;

static int named_member(Reader *r, const IsuBuf *key, void *ctx) {
    Named *c = ctx;
    int64_t i = 0;
    while (i < c->n && !(strlen(c->names[i]) == key->len && !memcmp(c->names[i], key->p, key->len))) i++;
    at_key(r, c->pathlen, c->kind, key->p, key->len);
    if (i == c->n) return fail(r, c->kind == KEY_FIELD ? "no field of the struct" : "not one of the function's ARGS");
    if (c->seen[i]) return fail(r, "given twice");
    if (!read_value(r, c->types[i], &c->out[i])) return 0;
    r->path[c->pathlen] = 0;
    c->seen[i] = 1;
    return 1;
}

/* The rest of an object (its `{` read) as `Named` says: a struct's fields
 * and the arguments object are read so. */
static int read_named(Reader *r, int64_t n, const char *const *names, const IsuType *const *types,
                      uint64_t *out, KeyKind kind) {
    Named c = {n, names, types, out, isu_alloc((size_t)n + 1), strlen(r->path), kind};
    memset(c.seen, 0, (size_t)n + 1);
    int ok = read_members(r, named_member, &c);
    for (int64_t i = 0; ok && i < n; i++) {
        if (!c.seen[i]) {
            at_key(r, c.pathlen, kind, names[i], strlen(names[i]));
            ok = fail(r, "missing");
        }
    }
    free(c.seen);
    return ok;
}

/* A map's entries, in the order read: its keys from the object's, its
 * values read as `t->b`. */
typedef struct {
    IsuObj *m;
    const IsuType *t;
    size_t pathlen;
} Entries;

static int map_member(Reader *r, const IsuBuf *key, void *ctx) {
    Entries *c = ctx;
    const IsuType *t = c->t;
    uint64_t k;
    if (t->a->kind == ISU_INT) {
        int64_t i;
        if (!read_int_text((const unsigned char *)key->p, key->len, &i))
            return fail(r, "a key of a map with int keys that is not the decimal text of an int");
        k = (uint64_t)i;
    } else {
        k = (uint64_t)(uintptr_t)isu_str_new((const unsigned char *)key->p, (int64_t)key->len);
    }
    uint64_t v;
    snprintf(r->path + c->pathlen, sizeof r->path - c->pathlen, "[\"%.40s\"]", key->p);
    if (!read_value(r, t->b, &v)) {
        isu_drop(k, t->a);
        return 0;
    }
    r->path[c->pathlen] = 0;
    if (c->m->len == c->m->cap) c->m = isu_unique(c->m, t, 1);
    isu_store_slot(ISU_DATA(c->m) + 16 * c->m->len, 8, k);
    isu_store_slot(ISU_DATA(c->m) + 16 * c->m->len + 8, 8, v);
    c->m->len++;
    return 1;
}

/* A struct: an object with exactly the declared fields. */
static int read_struct(Reader *r, const IsuType *t, uint64_t *out) {
    r->p++;
    IsuObj *p = isu_struct_new(t->nfields);
    /* The fields are read straight into the struct's slots, all 8 bytes. */
    if (!read_named(r, t->nfields, t->names, t->fields, (uint64_t *)(void *)ISU_DATA(p), KEY_FIELD)) {
        /* Fields not read hold 0, which dropping leaves alone. */
        isu_drop((uint64_t)(uintptr_t)p, t);
        return 0;
    }
    *out = (uint64_t)(uintptr_t)p;
    return 1;
}

static int read_value(Reader *r, const IsuType *t, uint64_t *out) {
    skip_ws(r);
    if (r->p >= r->end) return fail(r, "the JSON ends too early");
    unsigned char c = *r->p;
    size_t pathlen = strlen(r->path);
    switch (t->kind) {
    case ISU_INT: {
        int64_t v;
        if (c != '-' && (c < '0' || c > '9')) return fail(r, "expected an int");
        if (!read_number(r, &v)) return 0;
        *out = (uint64_t)v;
        return 1;
    }
    case ISU_FLOAT: {
        double d;
        if (c != '-' && (c < '0' || c > '9')) return fail(r, "expected a float");
        if (!read_float(r, &d)) return 0;
        *out = isu_float_slot(d);
        return 1;
    }
    case ISU_BOOL:
        if ((size_t)(r->end - r->p) >= 4 && !memcmp(r->p, "true", 4)) {
            r->p += 4;
            *out = 1;
            return 1;
        }
        if ((size_t)(r->end - r->p) >= 5 && !memcmp(r->p, "false", 5)) {
            r->p += 5;
            *out = 0;
            return 1;
        }
        return fail(r, "expected a bool");
    case ISU_STRING: {
        if (c != '"') return fail(r, "expected a string");
        IsuBuf b = {0, 0, 0};
        if (!read_string(r, &b)) {
            free(b.p);
            return 0;
        }
        *out = (uint64_t)(uintptr_t)isu_str_new((const unsigned char *)b.p, (int64_t)b.len);
        free(b.p);
        return 1;
    }
    case ISU_ARRAY: {
        if (c != '[') return fail(r, "expected an array");
        r->p++;
        int64_t w = isu_slot_width(t->a);
        IsuObj *xs = isu_obj_new(4, w);
        skip_ws(r);
        if (r->p < r->end && *r->p == ']') {
            r->p++;
            *out = (uint64_t)(uintptr_t)xs;
            return 1;
        }
        for (;;) {
            uint64_t v;
            snprintf(r->path + pathlen, sizeof r->path - pathlen, "[%lld]", (long long)xs->len);
            if (!read_value(r, t->a, &v)) {
                drop_entries(xs, t);
                return 0;
            }
            r->path[pathlen] = 0;
            if (xs->len == xs->cap) xs = isu_unique(xs, t, 1);
            isu_store_slot(ISU_DATA(xs) + w * xs->len, w, v);
            xs->len++;
            int more = next_item(r, ']');
            if (more == 1) continue;
            if (more == 0) {
                *out = (uint64_t)(uintptr_t)xs;
                return 1;
            }
            drop_entries(xs, t);
            return 0;
        }
    }
    case ISU_STRUCT:
        if (c != '{') return fail(r, "expected an object (a struct)");
        return read_struct(r, t, out);
    default: {
        if (c != '{') return fail(r, "expected an object (a map)");
        r->p++;
        Entries e = {isu_obj_new(4, 16), t, pathlen};
        int ok = read_members(r, map_member, &e);
        IsuObj *m = e.m;
        if (ok) {
            /* Sort the entries by key; a key twice is an error. */
            qsort(ISU_DATA(m), (size_t)m->len, 16, t->a->kind == ISU_INT ? key_cmp_int : key_cmp_str);
            for (int64_t i = 1; i < m->len; i++) {
                uint64_t a = isu_load_slot(ISU_DATA(m) + 16 * (i - 1), 8);
                uint64_t b = isu_load_slot(ISU_DATA(m) + 16 * i, 8);
                if (isu_eq(a, b, t->a)) {
                    ok = fail(r, "an object with a key twice");
                    break;
                }
            }
        }
        if (!ok) {
            drop_entries(m, t);
            return 0;
        }
        *out = (uint64_t)(uintptr_t)m;
        return 1;
    }
    }
}

int isu_read_args(const char *text, size_t len, uint64_t *args, char *err, size_t errlen) {
    Reader r = {(const unsigned char *)text, (const unsigned char *)text + len, err, errlen, {0}};
    int64_t n = isu_program.nargs;
    memset(args, 0, sizeof(uint64_t) * (size_t)n);
    skip_ws(&r);
    if (r.p >= r.end || *r.p != '{')
        return fail(&r, "the arguments must be a JSON object mapping each ARGS name to its value");
    r.p++;
    if (!read_named(&r, n, isu_program.arg_names, isu_program.arg_types, args, KEY_ARGUMENT)) return 0;
    skip_ws(&r);
    if (r.p != r.end) return fail(&r, "text after the arguments object");
    return 1;
}
