/* Access to objects for the program module, which knows nothing of their
 * layout: each of these inlines into a load or a store. */
#include "../isu_rt.h"

#include <string.h>

int64_t isu_len(const IsuObj *p) { return p->len; }

/* The length of an array a LOCAL may not hold yet (null: 0). */
int64_t isu_len_or_zero(const IsuObj *p) { return p ? p->len : 0; }

int64_t isu_nchars(const IsuObj *p) { return p->chars; }

int64_t isu_rc(const IsuObj *p) { return p->rc; }

uint64_t isu_get(const IsuObj *p, int64_t i, int64_t width) {
    return isu_load_slot(ISU_DATA(p) + width * i, width);
}

void isu_set(IsuObj *p, int64_t i, int64_t width, uint64_t v) { isu_store_slot(ISU_DATA(p) + width * i, width, v); }

uint64_t isu_entry_value(const IsuObj *m, int64_t i) { return isu_load_slot(ISU_DATA(m) + 16 * i + 8, 8); }

void isu_set_entry_value(IsuObj *m, int64_t i, uint64_t v) { isu_store_slot(ISU_DATA(m) + 16 * i + 8, 8, v); }

uint64_t isu_arg(const uint64_t *args, int64_t i) { return args[i]; }

IsuObj *isu_unique_child(IsuObj *p, int64_t i, int32_t entry, const IsuType *child) {
    unsigned char *at = entry ? ISU_DATA(p) + 16 * i + 8 : ISU_DATA(p) + 8 * i;
    IsuObj *c = (IsuObj *)(uintptr_t)isu_load_slot(at, 8);
    if (c->rc != 1) {
        c = isu_own(c, child);
        isu_store_slot(at, 8, (uint64_t)(uintptr_t)c);
    }
    return c;
}
