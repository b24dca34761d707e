/* Maps: entries sorted by key, found by binary search, so that `MAP_KEYS`
 * and every walk over a map see the keys in ascending order with no extra
 * work. */
#include "../isu_rt.h"

#include <string.h>

static int cmp_key(uint64_t a, uint64_t b, const IsuType *kt) {
    if (kt->kind == ISU_INT) {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return (x > y) - (x < y);
    }
    return isu_str_cmp((const IsuObj *)(uintptr_t)a, (const IsuObj *)(uintptr_t)b);
}

static uint64_t key_at(const IsuObj *m, int64_t i) { return isu_load_slot(ISU_DATA(m) + 16 * i, 8); }

static uint64_t value_at(const IsuObj *m, int64_t i) {
    return isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8);
}

/* The entry's index, or -(insertion point) - 1. */
int64_t isu_map_find(const IsuObj *m, uint64_t key, const IsuType *kt) {
    int64_t lo = 0, hi = m->len;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(key_at(m, mid), key, kt);
        if (c == 0) return mid;
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return -lo - 1;
}

/* Borrowed from the map. */
uint64_t isu_map_get(const IsuObj *m, uint64_t key, const IsuType *t, int32_t site) {
    int64_t i = isu_map_find(m, key, t->a);
    if (i < 0) isu_fail(ISU_E_MISSING_KEY, site, m->len, 0);
    return value_at(m, i);
}

/* Borrowed from the map or the default. */
uint64_t isu_map_get_or(const IsuObj *m, uint64_t key, uint64_t dflt, const IsuType *t) {
    int64_t i = isu_map_find(m, key, t->a);
    return i < 0 ? dflt : value_at(m, i);
}

/* Consumes all three: inserts or replaces. */
IsuObj *isu_map_set(IsuObj *m, uint64_t key, uint64_t v, const IsuType *t, int32_t site) {
    int64_t i = isu_map_find(m, key, t->a);
    if (i >= 0) {
        m = isu_unique(m, t, 0);
        unsigned char *e = ISU_DATA(m) + 16 * i;
        isu_drop(isu_load_slot(e + 8, 8), t->b);
        isu_store_slot(e + 8, 8, v);
        isu_drop(key, t->a);
        return m;
    }
    i = -i - 1;
    int64_t len = m->len;
    isu_check_size(len + 1, site);
    m = isu_unique(m, t, 1);
    unsigned char *e = ISU_DATA(m) + 16 * i;
    memmove(e + 16, e, (size_t)(16 * (len - i)));
    isu_store_slot(e, 8, key);
    isu_store_slot(e + 8, 8, v);
    m->len = len + 1;
    return m;
}

/* The keys, ascending: a new array. */
IsuObj *isu_map_keys(const IsuObj *m, const IsuType *t) {
    IsuObj *q = isu_obj_new(m->len, 8);
    for (int64_t i = 0; i < m->len; i++) {
        uint64_t k = key_at(m, i);
        isu_inc(k, t->a);
        isu_store_slot(ISU_DATA(q) + 8 * i, 8, k);
    }
    q->len = m->len;
    return q;
}
