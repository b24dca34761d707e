/* Searching and ordering (spec/stdlib.md): SPLIT, INDEX_OF and CONTAINS on
 * strings find a separator or a substring in time linear in both (the
 * Knuth-Morris-Pratt automaton), as the work they are charged assumes;
 * INDEX_OF and CONTAINS on arrays compare elements as `eq` does; SORT orders
 * ints by value and strings by code point (the byte order of UTF-8). */
#include "../isu_rt.h"

#include <stdlib.h>
#include <string.h>

/* A needle and its failure table: `fail[i]` is the length of the longest
 * proper border of the needle's first i + 1 bytes. */
typedef struct Needle {
    const unsigned char *p;
    int64_t m;
    int64_t *fail;
} Needle;

static Needle needle_of(const IsuObj *t) {
    Needle n = {ISU_DATA(t), t->len, isu_alloc(sizeof(int64_t) * (size_t)(t->len ? t->len : 1))};
    int64_t k = 0;
    if (n.m) n.fail[0] = 0;
    for (int64_t i = 1; i < n.m; i++) {
        while (k && n.p[i] != n.p[k]) k = n.fail[k - 1];
        if (n.p[i] == n.p[k]) k++;
        n.fail[i] = k;
    }
    return n;
}

/* The byte offset of the first occurrence of the (non-empty) needle in
 * `hay[from..len)`, or -1. */
static int64_t find_from(const Needle *n, const unsigned char *hay, int64_t len, int64_t from) {
    int64_t k = 0;
    for (int64_t i = from; i < len; i++) {
        while (k && hay[i] != n->p[k]) k = n->fail[k - 1];
        if (hay[i] == n->p[k]) k++;
        if (k == n->m) return i + 1 - n->m;
    }
    return -1;
}

int64_t isu_find(const IsuObj *s, const IsuObj *t) {
    if (t->len == 0) return 0;
    if (t->len > s->len) return -1;
    Needle n = needle_of(t);
    int64_t at = find_from(&n, ISU_DATA(s), s->len, 0);
    free(n.fail);
    return at < 0 ? -1 : isu_count_chars(ISU_DATA(s), at);
}

IsuObj *isu_split(const IsuObj *s, const IsuObj *sep, int32_t site) {
    if (sep->len == 0) isu_fail(ISU_E_EMPTY_SEPARATOR, site, 0, 0);
    Needle n = needle_of(sep);
    const unsigned char *p = ISU_DATA(s);
    int64_t pieces = 1;
    for (int64_t at = find_from(&n, p, s->len, 0); at >= 0; at = find_from(&n, p, s->len, at + n.m)) pieces++;
    isu_check_size(pieces, site);
    IsuObj *out = isu_obj_new(pieces, isu_unit(&isu_strings_type));
    int64_t start = 0;
    for (int64_t k = 0; k < pieces; k++) {
        int64_t at = k + 1 < pieces ? find_from(&n, p, s->len, start) : s->len;
        IsuObj *w = isu_str_new(p + start, at - start);
        isu_store_slot(ISU_DATA(out) + 8 * k, 8, (uint64_t)(uintptr_t)w);
        start = at + n.m;
    }
    out->len = pieces;
    free(n.fail);
    return out;
}

int64_t isu_index_of(const IsuObj *xs, uint64_t x, const IsuType *elem) {
    int64_t w = isu_slot_width(elem);
    for (int64_t i = 0; i < xs->len; i++) {
        if (isu_eq(isu_load_slot(ISU_DATA(xs) + w * i, w), x, elem)) return i;
    }
    return -1;
}

static int cmp_int(const void *a, const void *b) {
    int64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b) {
    uint64_t x, y;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    return isu_str_cmp((const IsuObj *)(uintptr_t)x, (const IsuObj *)(uintptr_t)y);
}

IsuObj *isu_sort(IsuObj *xs, const IsuType *t) {
    if (xs->len < 2) return xs;
    xs = isu_own(xs, t);
    qsort(ISU_DATA(xs), (size_t)xs->len, 8, t->a->kind == ISU_STRING ? cmp_str : cmp_int);
    return xs;
}
