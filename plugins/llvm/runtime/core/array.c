/* Arrays: functions that take an array by value (`push`, `pop`, `concat`'s
 * first argument) consume it and update it in place when theirs is the only
 * reference; the others borrow their arguments. */
#include "../isu_rt.h"

#include <string.h>

IsuObj *isu_push(IsuObj *xs, uint64_t v, const IsuType *t, int32_t site) {
    int64_t len = xs->len;
    isu_check_size(len + 1, site);
    if (xs->rc != 1 || xs->cap <= len) xs = isu_unique(xs, t, 1);
    int64_t w = isu_slot_width(t->a);
    isu_store_slot(ISU_DATA(xs) + w * len, w, v);
    xs->len = len + 1;
    return xs;
}

IsuObj *isu_pop(IsuObj *xs, const IsuType *t, int32_t site) {
    int64_t len = xs->len;
    if (len == 0) isu_fail(ISU_E_EMPTY_COLLECTION, site, 0, 0);
    xs = isu_own(xs, t);
    int64_t w = isu_slot_width(t->a);
    isu_drop(isu_load_slot(ISU_DATA(xs) + w * (len - 1), w), t->a);
    xs->len = len - 1;
    return xs;
}

/* Strings and arrays: `x` consumed (appended to in place when unique), `y`
 * borrowed. */
IsuObj *isu_concat(IsuObj *x, const IsuObj *y, const IsuType *t, int32_t site) {
    int is_str = t->kind == ISU_STRING;
    isu_check_size(is_str ? x->chars + y->chars : x->len + y->len, site);
    int64_t ly = y->len, lx = x->len;
    IsuObj *orig = x;
    /* Appending an object to itself: hold it once more, so that it is copied
     * and stays readable as `y`; the hold is given back after the copy. */
    if (x == y && x->rc >= 0) x->rc++;
    x = isu_unique(x, t, ly);
    int64_t unit = isu_unit(t);
    memcpy(ISU_DATA(x) + unit * lx, ISU_DATA(y), (size_t)(unit * ly));
    if (is_str) {
        x->chars += y->chars;
    } else if (t->a->kind >= ISU_STRING) {
        for (int64_t i = 0; i < ly; i++) isu_inc(isu_load_slot(ISU_DATA(y) + 8 * i, 8), t->a);
    }
    x->len = lx + ly;
    if (orig == y) isu_drop((uint64_t)(uintptr_t)orig, t);
    return x;
}

/* The byte offset of character `k` of a string. */
static int64_t byte_offset(const IsuObj *s, int64_t k) {
    if (s->len == s->chars) return k;
    const unsigned char *p = ISU_DATA(s);
    int64_t seen = 0;
    for (int64_t i = 0; i < s->len; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            if (seen == k) return i;
            seen++;
        }
    }
    return s->len;
}

IsuObj *isu_slice(const IsuObj *x, int64_t lo, int64_t hi, const IsuType *t, int32_t site) {
    int is_str = t->kind == ISU_STRING;
    int64_t n = is_str ? x->chars : x->len;
    if (lo < 0 || lo > hi || hi > n) isu_fail(ISU_E_INDEX_OUT_OF_RANGE, site, lo, hi);
    if (is_str) {
        int64_t blo = byte_offset(x, lo), bhi = byte_offset(x, hi);
        IsuObj *q = isu_obj_new(bhi - blo, 1);
        memcpy(ISU_DATA(q), ISU_DATA(x) + blo, (size_t)(bhi - blo));
        q->len = bhi - blo;
        q->chars = hi - lo;
        return q;
    }
    int64_t w = isu_slot_width(t->a);
    IsuObj *q = isu_obj_new(hi - lo, w);
    memcpy(ISU_DATA(q), ISU_DATA(x) + w * lo, (size_t)(w * (hi - lo)));
    q->len = hi - lo;
    if (t->a->kind >= ISU_STRING) {
        for (int64_t i = 0; i < q->len; i++) isu_inc(isu_load_slot(ISU_DATA(q) + 8 * i, 8), t->a);
    }
    return q;
}

IsuObj *isu_repeat(uint64_t v, int64_t n, const IsuType *elem, int32_t site) {
    if (n < 0) isu_fail(ISU_E_NEGATIVE_COUNT, site, n, 0);
    isu_check_size(n, site);
    int64_t w = isu_slot_width(elem);
    IsuObj *q = isu_obj_new(n, w);
    if (w == 1) {
        memset(ISU_DATA(q), (int)(v & 1), (size_t)n);
    } else {
        for (int64_t i = 0; i < n; i++) isu_store_slot(ISU_DATA(q) + 8 * i, 8, v);
    }
    q->len = n;
    if (elem->kind >= ISU_STRING) {
        IsuObj *p = (IsuObj *)(uintptr_t)v;
        if (p->rc >= 0) p->rc += n;
    }
    return q;
}

IsuObj *isu_reverse(IsuObj *xs, const IsuType *t) {
    if (xs->len < 2) return xs;
    xs = isu_own(xs, t);
    int64_t w = isu_slot_width(t->a);
    unsigned char *p = ISU_DATA(xs), tmp[8];
    for (int64_t i = 0, j = xs->len - 1; i < j; i++, j--) {
        memcpy(tmp, p + w * i, (size_t)w);
        memcpy(p + w * i, p + w * j, (size_t)w);
        memcpy(p + w * j, tmp, (size_t)w);
    }
    return xs;
}
