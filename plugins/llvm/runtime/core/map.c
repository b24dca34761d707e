/* Maps: entries (key, value) in an array. A small map keeps them sorted by
 * key and finds a key by binary search. From HASH_MIN entries on, a map also
 * has a hash index (key to entry) and new keys are appended, so an update
 * costs O(1); the entries are sorted again, once, when something needs them
 * in order (MAP_KEYS, equality, the JSON of a result): `isu_map_sort`.
 * Sorting does not change the map's value, so it may happen to a shared map;
 * constants are sorted already and never written.
 *
 * For a map, the header's `chars` holds the address of its index (or 0),
 * with bit 0 set while the entries are out of order. Maps never lose keys
 * (Isu has no delete), so a map below HASH_MIN is always sorted. */
#include "../isu_rt.h"

#include <stdlib.h>
#include <string.h>

enum { HASH_MIN = 16, UNSORTED = 1 };

typedef struct MapIndex {
    int64_t mask;
    /* The entry the last search found (-1: none): an update looks its key
     * up more than once (MAP_GET_OR, the memory charge, the store), and
     * entries keep their places until the index is built again. */
    int64_t last;
    /* Per slot, the entry's index + 1 in the low TAG_SHIFT bits (0: an
     * empty slot) and the top bits of its key's hash above them, so that a
     * search looks at the entries of other keys only when those bits agree. */
    uint64_t slot[];
} MapIndex;

enum { TAG_SHIFT = 40 };

static uint64_t tag_of(uint64_t h) { return h >> TAG_SHIFT << TAG_SHIFT; }

static MapIndex *index_of(const IsuObj *m) { return (MapIndex *)(uintptr_t)(m->chars & ~(int64_t)1); }

static int is_sorted(const IsuObj *m) { return !(m->chars & UNSORTED); }

static void set_index(IsuObj *m, MapIndex *ix) { m->chars = (int64_t)(uintptr_t)ix | (m->chars & UNSORTED); }

static int cmp_key(uint64_t a, uint64_t b, const IsuType *kt) {
    if (kt->kind == ISU_INT) {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return (x > y) - (x < y);
    }
    return isu_str_cmp((const IsuObj *)(uintptr_t)a, (const IsuObj *)(uintptr_t)b);
}

/* The bytes p[0..n) for n < 8 as one word (a function of the bytes and n
 * only): two overlapping loads, no call and no loop. */
static uint64_t tail_word(const unsigned char *p, int64_t n) {
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return (uint64_t)a | (uint64_t)b << 32;
    }
    if (n > 0) return (uint64_t)p[0] | (uint64_t)p[n / 2] << 8 | (uint64_t)p[n - 1] << 16;
    return 0;
}

int isu_bytes_eq(const unsigned char *p, const unsigned char *q, int64_t n) {
    /* Words eight bytes at a time, the rest as one word (no call for a
     * short string). */
    for (; n >= 8; n -= 8, p += 8, q += 8) {
        uint64_t u, v;
        memcpy(&u, p, 8);
        memcpy(&v, q, 8);
        if (u != v) return 0;
    }
    return tail_word(p, n) == tail_word(q, n);
}

static int eq_key(uint64_t a, uint64_t b, const IsuType *kt) {
    if (kt->kind == ISU_INT || a == b) return a == b;
    const IsuObj *x = (const IsuObj *)(uintptr_t)a, *y = (const IsuObj *)(uintptr_t)b;
    return x->len == y->len && isu_bytes_eq(ISU_DATA(x), ISU_DATA(y), x->len);
}

uint64_t isu_bytes_hash(const unsigned char *p, int64_t n) {
    /* Eight bytes a round, then the rest, each word mixed in. */
    uint64_t h = 14695981039346656037ull ^ (uint64_t)n;
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    if (n > 0) h = (h ^ tail_word(p, n)) * 0xBF58476D1CE4E5B9ull;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static uint64_t hash_key(uint64_t k, const IsuType *kt) {
    if (kt->kind != ISU_INT) {
        const IsuObj *s = (const IsuObj *)(uintptr_t)k;
        return isu_bytes_hash(ISU_DATA(s), s->len);
    }
    uint64_t h = k * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static uint64_t key_at(const IsuObj *m, int64_t i) { return isu_load_slot(ISU_DATA(m) + 16 * i, 8); }

static uint64_t value_at(const IsuObj *m, int64_t i) { return isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8); }

static void index_put(MapIndex *ix, uint64_t h, int64_t entry) {
    uint64_t at = h & (uint64_t)ix->mask;
    while (ix->slot[at]) at = (at + 1) & (uint64_t)ix->mask;
    ix->slot[at] = tag_of(h) | (uint64_t)(entry + 1);
}

/* A new index of every entry, sized for `room` entries. */
static void index_build(IsuObj *m, const IsuType *kt, int64_t room) {
    int64_t size = 32;
    while (size < 2 * room) size *= 2;
    MapIndex *ix = isu_alloc(sizeof(MapIndex) + sizeof(uint64_t) * (size_t)size);
    ix->mask = size - 1;
    ix->last = -1;
    memset(ix->slot, 0, sizeof(uint64_t) * (size_t)size);
    for (int64_t i = 0; i < m->len; i++) index_put(ix, hash_key(key_at(m, i), kt), i);
    free(index_of(m));
    set_index(m, ix);
}

static int64_t index_find(const IsuObj *m, MapIndex *ix, uint64_t key, const IsuType *kt) {
    if (ix->last >= 0 && ix->last < m->len && eq_key(key_at(m, ix->last), key, kt)) return ix->last;
    uint64_t h = hash_key(key, kt), tag = tag_of(h), low = ((uint64_t)1 << TAG_SHIFT) - 1;
    uint64_t at = h & (uint64_t)ix->mask;
    for (;;) {
        uint64_t s = ix->slot[at];
        if (!s) return -1;
        int64_t e = (int64_t)(s & low) - 1;
        if ((s & ~low) == tag && eq_key(key_at(m, e), key, kt)) {
            ix->last = e;
            return e;
        }
        at = (at + 1) & (uint64_t)ix->mask;
    }
}

void isu_map_free_index(IsuObj *m) {
    free(index_of(m));
    m->chars = 0;
}

/* Binary search of a sorted map: the entry's index, or -(insertion point) - 1. */
static int64_t search(const IsuObj *m, uint64_t key, const IsuType *kt) {
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

/* The entry's index, or a negative number when the key is absent. */
int64_t isu_map_find(const IsuObj *m, uint64_t key, const IsuType *kt) {
    MapIndex *ix = index_of(m);
    if (!ix && m->len >= HASH_MIN && m->rc >= 0) {
        /* Building the index changes no value: allowed on a shared map. */
        index_build((IsuObj *)(uintptr_t)m, kt, m->len);
        ix = index_of(m);
    }
    if (ix) return index_find(m, ix, key, kt);
    return search(m, key, kt);
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
    return isu_map_set_at(m, isu_map_find(m, key, t->a), key, v, t, site);
}

/* The same where `i` is what `isu_map_find` answered for the key on `m`, or
 * on the map `m` was copied from (a copy keeps the entries in place). */
IsuObj *isu_map_set_at(IsuObj *m, int64_t i, uint64_t key, uint64_t v, const IsuType *t, int32_t site) {
    if (i >= 0) {
        m = isu_own(m, t);
        unsigned char *e = ISU_DATA(m) + 16 * i;
        isu_drop(isu_load_slot(e + 8, 8), t->b);
        isu_store_slot(e + 8, 8, v);
        isu_drop(key, t->a);
        return m;
    }
    int64_t len = m->len;
    isu_check_size(len + 1, site);
    m = isu_unique(m, t, 1);
    if (len + 1 < HASH_MIN) {
        /* Small: keep the entries sorted. */
        int64_t at = -search(m, key, t->a) - 1;
        unsigned char *e = ISU_DATA(m) + 16 * at;
        memmove(e + 16, e, (size_t)(16 * (len - at)));
        isu_store_slot(e, 8, key);
        isu_store_slot(e + 8, 8, v);
        m->len = len + 1;
        return m;
    }
    /* Large: append, and index the new entry. */
    if (len > 0 && is_sorted(m) && cmp_key(key_at(m, len - 1), key, t->a) > 0) m->chars |= UNSORTED;
    unsigned char *e = ISU_DATA(m) + 16 * len;
    isu_store_slot(e, 8, key);
    isu_store_slot(e + 8, 8, v);
    m->len = len + 1;
    MapIndex *ix = index_of(m);
    if (!ix || 2 * m->len > ix->mask + 1) {
        index_build(m, t->a, 2 * m->len);
    } else {
        index_put(ix, hash_key(key, t->a), len);
    }
    return m;
}

static const IsuType *sort_kt;

static int by_key(const void *x, const void *y) {
    return cmp_key(isu_load_slot(x, 8), isu_load_slot(y, 8), sort_kt);
}

void isu_map_sort(const IsuObj *cm, const IsuType *t) {
    if (is_sorted(cm)) return;
    IsuObj *m = (IsuObj *)(uintptr_t)cm;
    sort_kt = t->a;
    qsort(ISU_DATA(m), (size_t)m->len, 16, by_key);
    m->chars &= ~(int64_t)UNSORTED;
    index_build(m, t->a, m->len);
}

/* The keys, ascending: a new array. */
IsuObj *isu_map_keys(const IsuObj *m, const IsuType *t) {
    isu_map_sort(m, t);
    IsuObj *q = isu_obj_new(m->len, 8);
    for (int64_t i = 0; i < m->len; i++) {
        uint64_t k = key_at(m, i);
        isu_inc(k, t->a);
        isu_store_slot(ISU_DATA(q) + 8 * i, 8, k);
    }
    q->len = m->len;
    return q;
}
