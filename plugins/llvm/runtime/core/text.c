/* Strings: UTF-8 bytes with their length in bytes and in Unicode scalar
 * values (so `LEN` is O(1) and an all-ASCII string slices by bytes); ints to
 * and from their decimal text. */
#include "../isu_rt.h"

#include <stdlib.h>
#include <string.h>

int64_t isu_count_chars(const unsigned char *p, int64_t n) {
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) c += (p[i] & 0xC0) != 0x80;
    return c;
}

/* A new string of the `len` bytes at `bytes`. */
IsuObj *isu_str_new(const unsigned char *bytes, int64_t len) {
    IsuObj *s = isu_obj_new(len, 1);
    memcpy(ISU_DATA(s), bytes, (size_t)len);
    s->len = len;
    s->chars = isu_count_chars(bytes, len);
    return s;
}

static int is_space(unsigned char b) { return b == ' ' || (b >= 9 && b <= 13); }

static const IsuType STRING = {ISU_STRING, 0, 0, 0, 0, 0};
const IsuType isu_strings_type = {ISU_ARRAY, &STRING, 0, 0, 0, 0};

/* The words seen by one split, by hash: open addressing, at most half full. */
typedef struct Words {
    IsuObj **slot;
    uint64_t mask;
    int64_t used;
} Words;

static void words_grow(Words *t) {
    uint64_t size = t->slot ? 2 * (t->mask + 1) : 64;
    IsuObj **slot = isu_alloc(sizeof(IsuObj *) * (size_t)size);
    memset(slot, 0, sizeof(IsuObj *) * (size_t)size);
    for (uint64_t i = 0; t->slot && i <= t->mask; i++) {
        IsuObj *w = t->slot[i];
        if (!w) continue;
        uint64_t at = isu_bytes_hash(ISU_DATA(w), w->len) & (size - 1);
        while (slot[at]) at = (at + 1) & (size - 1);
        slot[at] = w;
    }
    free(t->slot);
    t->slot = slot;
    t->mask = size - 1;
}

/* The word `p[0..n)`: the object an equal word of this split made, one more
 * reference to it, or a new one. Strings never change, so sharing one is
 * invisible; it saves an object per repeated word, and a map keyed by the
 * words compares them by address. */
static IsuObj *word(Words *t, const unsigned char *p, int64_t n) {
    if (2 * (t->used + 1) > (int64_t)(t->mask + 1)) words_grow(t);
    uint64_t at = isu_bytes_hash(p, n) & t->mask;
    for (IsuObj *w; (w = t->slot[at]); at = (at + 1) & t->mask) {
        if (w->len == n && isu_bytes_eq(ISU_DATA(w), p, n)) {
            w->rc++;
            return w;
        }
    }
    IsuObj *w = isu_str_new(p, n);
    t->slot[at] = w;
    t->used++;
    return w;
}

IsuObj *isu_split_whitespace(const IsuObj *s) {
    IsuObj *out = isu_obj_new(4, 8);
    const unsigned char *p = ISU_DATA(s);
    int64_t n = s->len, i = 0;
    Words seen = {0, 0, 0};
    for (;;) {
        while (i < n && is_space(p[i])) i++;
        if (i >= n) break;
        int64_t start = i;
        while (i < n && !is_space(p[i])) i++;
        IsuObj *w = word(&seen, p + start, i - start);
        if (out->len == out->cap) out = isu_unique(out, &isu_strings_type, 1);
        isu_store_slot(ISU_DATA(out) + 8 * out->len, 8, (uint64_t)(uintptr_t)w);
        out->len++;
    }
    free(seen.slot);
    return out;
}

IsuObj *isu_join(const IsuObj *xs, const IsuObj *sep, int32_t site) {
    int64_t n = xs->len;
    if (n == 0) return isu_obj_new(0, 1);
    int64_t bytes = sep->len * (n - 1), chars = sep->chars * (n - 1);
    for (int64_t i = 0; i < n; i++) {
        const IsuObj *x = (const IsuObj *)(uintptr_t)isu_load_slot(ISU_DATA(xs) + 8 * i, 8);
        bytes += x->len;
        chars += x->chars;
    }
    isu_check_size(chars, site);
    IsuObj *q = isu_obj_new(bytes, 1);
    unsigned char *at = ISU_DATA(q);
    for (int64_t i = 0; i < n; i++) {
        if (i) {
            memcpy(at, ISU_DATA(sep), (size_t)sep->len);
            at += sep->len;
        }
        const IsuObj *x = (const IsuObj *)(uintptr_t)isu_load_slot(ISU_DATA(xs) + 8 * i, 8);
        memcpy(at, ISU_DATA(x), (size_t)x->len);
        at += x->len;
    }
    q->len = bytes;
    q->chars = chars;
    return q;
}

/* The string with the ASCII letters from `first` (`A` or `a`) on moved by
 * `shift`; every other byte unchanged. */
static IsuObj *ascii_case(const IsuObj *s, unsigned char first, int shift) {
    IsuObj *q = isu_obj_new(s->len, 1);
    const unsigned char *p = ISU_DATA(s);
    unsigned char *o = ISU_DATA(q);
    for (int64_t i = 0; i < s->len; i++) o[i] = (unsigned char)(p[i] + ((unsigned)(p[i] - first) < 26 ? shift : 0));
    q->len = s->len;
    q->chars = s->chars;
    return q;
}

IsuObj *isu_lower(const IsuObj *s) { return ascii_case(s, 'A', 32); }

IsuObj *isu_upper(const IsuObj *s) { return ascii_case(s, 'a', -32); }

IsuObj *isu_chars(const IsuObj *s, int32_t site) {
    isu_check_size(s->chars, site);
    IsuObj *out = isu_obj_new(s->chars, 8);
    const unsigned char *p = ISU_DATA(s);
    int64_t i = 0, k = 0;
    while (i < s->len) {
        unsigned char b = p[i];
        int64_t w = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        IsuObj *c = isu_obj_new(w, 1);
        memcpy(ISU_DATA(c), p + i, (size_t)w);
        c->len = w;
        c->chars = 1;
        isu_store_slot(ISU_DATA(out) + 8 * k, 8, (uint64_t)(uintptr_t)c);
        i += w;
        k++;
    }
    out->len = k;
    return out;
}

IsuObj *isu_str_reverse(const IsuObj *s) {
    IsuObj *q = isu_obj_new(s->len, 1);
    const unsigned char *p = ISU_DATA(s);
    unsigned char *o = ISU_DATA(q);
    int64_t n = s->len, i = 0;
    while (i < n) {
        unsigned char b = p[i];
        int64_t w = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        memcpy(o + n - i - w, p + i, (size_t)w);
        i += w;
    }
    q->len = n;
    q->chars = s->chars;
    return q;
}

IsuObj *isu_to_string(int64_t n) {
    unsigned char buf[24];
    unsigned char *end = buf + sizeof buf, *p = end;
    /* The magnitude as an unsigned number (MIN's too). */
    uint64_t mag = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
    do {
        *--p = (unsigned char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    if (n < 0) *--p = '-';
    IsuObj *s = isu_obj_new(end - p, 1);
    memcpy(ISU_DATA(s), p, (size_t)(end - p));
    s->len = end - p;
    s->chars = end - p;
    return s;
}

/* `-?[0-9]+` within 64 bits. */
int64_t isu_parse_int(const IsuObj *s, int32_t site) {
    const unsigned char *p = ISU_DATA(s);
    int64_t n = s->len, i = 0;
    int neg = n > 0 && p[0] == '-';
    i = neg;
    if (i >= n) isu_fail(ISU_E_PARSE_INT_FAILED, site, 0, 0);
    uint64_t mag = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)p[i] - '0';
        if (d > 9) isu_fail(ISU_E_PARSE_INT_FAILED, site, 0, 0);
        /* mag * 10 + d stays below 2^64 while mag <= 2^63 / 10. */
        if (mag > 922337203685477580ull) isu_fail(ISU_E_PARSE_INT_FAILED, site, 0, 0);
        mag = mag * 10 + d;
    }
    if (mag > (uint64_t)INT64_MAX + (uint64_t)neg) isu_fail(ISU_E_PARSE_INT_FAILED, site, 0, 0);
    return neg ? (int64_t)(0 - mag) : (int64_t)mag;
}
