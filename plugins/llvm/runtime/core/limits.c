/* The size limit (spec/semantics.md, section 7): no string, array or map
 * past `isu_max_size` characters, elements or entries, and no result with
 * more JSON values than that. */
#include "../isu_rt.h"

void isu_check_size(int64_t n, int32_t site) {
    if (n > isu_max_size) isu_fail(ISU_E_SIZE_LIMIT, site, n, isu_max_size);
}

static const IsuObj *obj(uint64_t v) { return (const IsuObj *)(uintptr_t)v; }

/* Counts JSON values (every value, element, entry value and field, not map keys,
 * as the interpreter counts them) until `*budget` runs out; 0 then. */
static int fits(uint64_t v, const IsuType *t, int64_t *budget) {
    if (--*budget < 0) return 0;
    if (t->kind == ISU_ARRAY) {
        const IsuObj *xs = obj(v);
        if (t->a->kind < ISU_STRING) {
            *budget -= xs->len;
            return *budget >= 0;
        }
        for (int64_t i = 0; i < xs->len; i++)
            if (!fits(isu_load_slot(ISU_DATA(xs) + 8 * i, 8), t->a, budget)) return 0;
    } else if (t->kind == ISU_STRUCT) {
        for (int64_t i = 0; i < t->nfields; i++)
            if (!fits(isu_load_slot(ISU_DATA(obj(v)) + 8 * i, 8), t->fields[i], budget)) return 0;
    } else if (t->kind == ISU_MAP) {
        const IsuObj *m = obj(v);
        for (int64_t i = 0; i < m->len; i++)
            if (!fits(isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8), t->b, budget)) return 0;
    }
    return 1;
}

void isu_check_result(uint64_t v, const IsuType *t, int32_t site) {
    int64_t budget = isu_max_size;
    if (!fits(v, t, &budget)) isu_fail(ISU_E_SIZE_LIMIT, site, isu_max_size + 1, isu_max_size);
}

