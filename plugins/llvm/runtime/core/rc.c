/* Memory and reference counting: allocation that never returns NULL,
 * `inc` and `drop` (the last reference frees the object and drops what it
 * holds), `unique` (copy-on-write: a shared object is copied before a write),
 * and structural equality, for strings, arrays, maps and structs alike. */
#include "../isu_rt.h"

#include <stdlib.h>
#include <string.h>

void *isu_alloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (!p) isu_out_of_memory();
    return p;
}

/* The bytes of one unit of capacity: a string byte, an array slot, a map entry. */
int64_t isu_unit(const IsuType *t) {
    switch (t->kind) {
    case ISU_ARRAY: return isu_slot_width(t->a);
    case ISU_MAP: return 16;
    case ISU_STRUCT: return 8;
    default: return 1;
    }
}

int64_t isu_slot_width(const IsuType *elem) { return elem->kind == ISU_BOOL ? 1 : 8; }

/* An 8-byte slot has a type of its own, so that LLVM's type-based alias
 * analysis knows that writing an element does not change a header: the
 * length, capacity and reference count read in a loop stay in registers. */
typedef struct IsuSlot {
    uint64_t v;
} IsuSlot;

uint64_t isu_load_slot(const unsigned char *at, int64_t width) {
    /* A bool slot is a `_Bool`, a type of its own too (never a char). */
    if (width == 1) return *(const _Bool *)(const void *)at;
    return ((const IsuSlot *)(const void *)at)->v;
}

void isu_store_slot(unsigned char *at, int64_t width, uint64_t v) {
    if (width == 1) {
        *(_Bool *)(void *)at = v != 0;
    } else {
        ((IsuSlot *)(void *)at)->v = v;
    }
}

/* A new object with room for `cap` units of `unit` bytes, length 0. */
IsuObj *isu_obj_new(int64_t cap, int64_t unit) {
    if (cap < 0 || cap > (INT64_MAX / 2 - (int64_t)sizeof(IsuObj)) / unit) isu_out_of_memory();
    IsuObj *p = isu_alloc(sizeof(IsuObj) + (size_t)(cap * unit));
    p->rc = 1;
    p->len = 0;
    p->cap = cap;
    p->chars = 0;
    return p;
}

IsuObj *isu_struct_new(int64_t n) {
    IsuObj *p = isu_obj_new(n, 8);
    memset(ISU_DATA(p), 0, (size_t)(8 * n));
    p->len = n;
    return p;
}

static int is_heap(const IsuType *t) { return t->kind >= ISU_STRING; }

void isu_inc(uint64_t v, const IsuType *t) {
    if (!is_heap(t)) return;
    IsuObj *p = (IsuObj *)(uintptr_t)v;
    if (p && p->rc >= 0) p->rc++;
}

static void drop_children(IsuObj *p, const IsuType *t) {
    if (t->kind == ISU_STRUCT) {
        for (int64_t i = 0; i < t->nfields; i++) isu_drop(isu_load_slot(ISU_DATA(p) + 8 * i, 8), t->fields[i]);
    } else if (t->kind == ISU_ARRAY && is_heap(t->a)) {
        for (int64_t i = 0; i < p->len; i++) isu_drop(isu_load_slot(ISU_DATA(p) + 8 * i, 8), t->a);
    } else if (t->kind == ISU_MAP && (is_heap(t->a) || is_heap(t->b))) {
        for (int64_t i = 0; i < p->len; i++) {
            isu_drop(isu_load_slot(ISU_DATA(p) + 16 * i, 8), t->a);
            isu_drop(isu_load_slot(ISU_DATA(p) + 16 * i + 8, 8), t->b);
        }
    }
}

static void inc_children(IsuObj *p, const IsuType *t) {
    if (t->kind == ISU_STRUCT) {
        for (int64_t i = 0; i < t->nfields; i++) isu_inc(isu_load_slot(ISU_DATA(p) + 8 * i, 8), t->fields[i]);
    } else if (t->kind == ISU_ARRAY && is_heap(t->a)) {
        for (int64_t i = 0; i < p->len; i++) isu_inc(isu_load_slot(ISU_DATA(p) + 8 * i, 8), t->a);
    } else if (t->kind == ISU_MAP && (is_heap(t->a) || is_heap(t->b))) {
        for (int64_t i = 0; i < p->len; i++) {
            isu_inc(isu_load_slot(ISU_DATA(p) + 16 * i, 8), t->a);
            isu_inc(isu_load_slot(ISU_DATA(p) + 16 * i + 8, 8), t->b);
        }
    }
}

static __attribute__((noinline)) void free_obj(IsuObj *p, const IsuType *t) {
    drop_children(p, t);
    if (t->kind == ISU_MAP) isu_map_free_index(p);
    free(p);
}

void isu_drop(uint64_t v, const IsuType *t) {
    if (!is_heap(t)) return;
    IsuObj *p = (IsuObj *)(uintptr_t)v;
    if (!p || p->rc < 0) return;
    if (p->rc > 1) {
        p->rc--;
        return;
    }
    free_obj(p, t);
}

static __attribute__((noinline)) IsuObj *copy_grow(IsuObj *p, const IsuType *t, int64_t need) {
    int64_t unit = isu_unit(t);
    int64_t cap = need;
    if (p->rc == 1) {
        /* Doubling keeps appends amortized O(1). */
        cap = p->cap * 2 > need ? p->cap * 2 : need;
    }
    if (cap < 4) cap = 4;
    if (p->rc == 1) {
        if (cap > (INT64_MAX / 2 - (int64_t)sizeof(IsuObj)) / unit) isu_out_of_memory();
        IsuObj *q = realloc(p, sizeof(IsuObj) + (size_t)(cap * unit));
        if (!q) isu_out_of_memory();
        q->cap = cap;
        return q;
    }
    IsuObj *q = isu_obj_new(cap, unit);
    memcpy(ISU_DATA(q), ISU_DATA(p), (size_t)(p->len * unit));
    q->len = p->len;
    /* A map's copy has no index of its own yet, only the order flag. */
    q->chars = t->kind == ISU_MAP ? p->chars & ISU_MAP_UNSORTED : p->chars;
    inc_children(q, t);
    if (p->rc > 0) p->rc--;
    return q;
}

IsuObj *isu_own(IsuObj *p, const IsuType *t) {
    if (p->rc == 1) return p;
    return copy_grow(p, t, p->len);
}

IsuObj *isu_own_or_null(IsuObj *p, const IsuType *t) { return p ? isu_own(p, t) : p; }

IsuObj *isu_unique(IsuObj *p, const IsuType *t, int64_t extra) {
    int64_t need = p->len + extra;
    if (p->rc == 1 && p->cap >= need) return p;
    return copy_grow(p, t, need);
}

int32_t isu_str_cmp(const IsuObj *x, const IsuObj *y) {
    int64_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(ISU_DATA(x), ISU_DATA(y), (size_t)n);
    if (c) return c < 0 ? -1 : 1;
    return (x->len > y->len) - (x->len < y->len);
}

static int32_t str_eq(const IsuObj *x, const IsuObj *y) {
    return x == y || (x->len == y->len && memcmp(ISU_DATA(x), ISU_DATA(y), (size_t)x->len) == 0);
}

int32_t isu_eq(uint64_t xv, uint64_t yv, const IsuType *t) {
    /* Floats by value: -0.0 equals 0.0 (and no value is NaN). */
    if (t->kind == ISU_FLOAT) return isu_float_of_slot(xv) == isu_float_of_slot(yv);
    if (!is_heap(t)) return xv == yv;
    const IsuObj *x = (const IsuObj *)(uintptr_t)xv;
    const IsuObj *y = (const IsuObj *)(uintptr_t)yv;
    if (t->kind == ISU_STRING) return str_eq(x, y);
    if (x == y) return 1;
    if (x->len != y->len) return 0;
    if (t->kind == ISU_STRUCT) {
        for (int64_t i = 0; i < t->nfields; i++) {
            if (!isu_eq(isu_load_slot(ISU_DATA(x) + 8 * i, 8), isu_load_slot(ISU_DATA(y) + 8 * i, 8), t->fields[i]))
                return 0;
        }
        return 1;
    }
    if (t->kind == ISU_ARRAY) {
        int64_t w = isu_slot_width(t->a);
        if (!is_heap(t->a) && t->a->kind != ISU_FLOAT)
            return memcmp(ISU_DATA(x), ISU_DATA(y), (size_t)(x->len * w)) == 0;
        for (int64_t i = 0; i < x->len; i++) {
            if (!isu_eq(isu_load_slot(ISU_DATA(x) + w * i, w), isu_load_slot(ISU_DATA(y) + w * i, w), t->a))
                return 0;
        }
        return 1;
    }
    isu_map_sort(x, t);
    isu_map_sort(y, t);
    for (int64_t i = 0; i < x->len; i++) {
        const unsigned char *ex = ISU_DATA(x) + 16 * i, *ey = ISU_DATA(y) + 16 * i;
        if (!isu_eq(isu_load_slot(ex, 8), isu_load_slot(ey, 8), t->a)) return 0;
        if (!isu_eq(isu_load_slot(ex + 8, 8), isu_load_slot(ey + 8, 8), t->b)) return 0;
    }
    return 1;
}
