/* Work (spec/semantics.md, section 7): the size of a value, which calls and
 * copies spend from the step budget. A string's size is its characters; an
 * array's, its elements plus their sizes; a map's, its entries plus the
 * sizes of their keys and values; a struct's, its fields plus their sizes.
 * The compiled code reads the size of a flat value from its header and calls
 * this only for nested ones. */
#include "../isu_rt.h"

static const IsuObj *obj(uint64_t v) { return (const IsuObj *)(uintptr_t)v; }

/* The size of `v` of type `t`, walked no further than past `limit` (then
 * some size above it). */
uint64_t isu_size(uint64_t v, const IsuType *t, uint64_t limit) {
    if (t->kind < ISU_STRING) return 0;
    const IsuObj *p = obj(v);
    if (t->kind == ISU_STRING) return (uint64_t)p->chars;
    uint64_t n = 0;
    if (t->kind == ISU_STRUCT) {
        n = (uint64_t)t->nfields;
        for (int64_t i = 0; i < t->nfields && n <= limit; i++)
            n += isu_size(isu_load_slot(ISU_DATA(p) + 8 * i, 8), t->fields[i], limit - n);
        return n;
    }
    if (t->kind == ISU_ARRAY) {
        if (t->a->kind < ISU_STRING) return (uint64_t)p->len;
        for (int64_t i = 0; i < p->len && n <= limit; i++) {
            uint64_t e = isu_load_slot(ISU_DATA(p) + 8 * i, 8);
            n += 1 + isu_size(e, t->a, limit - n);
        }
        return n;
    }
    for (int64_t i = 0; i < p->len && n <= limit; i++) {
        uint64_t k = isu_load_slot(ISU_DATA(p) + 16 * i, 8);
        uint64_t x = isu_load_slot(ISU_DATA(p) + 16 * i + 8, 8);
        n += 1 + isu_size(k, t->a, limit - n);
        if (n <= limit) n += isu_size(x, t->b, limit - n);
    }
    return n;
}

/* Memory (spec/semantics.md, section 7): the size of the element `i` of the
 * array `xs` (elements of type `et`), 0 when there is none. */
uint64_t isu_elem_size(const IsuObj *xs, int64_t i, const IsuType *et) {
    if (i < 0 || i >= xs->len || et->kind < ISU_STRING) return 0;
    return isu_size(isu_load_slot(ISU_DATA(xs) + 8 * i, 8), et, UINT64_MAX);
}

/* The size of the value of the entry `i` of the map `m` (values of type
 * `vt`), 0 when `i` is no entry (`isu_map_find` found none). */
uint64_t isu_entry_size(const IsuObj *m, int64_t i, const IsuType *vt) {
    if (i < 0 || i >= m->len || vt->kind < ISU_STRING) return 0;
    return isu_size(isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8), vt, UINT64_MAX);
}
