/* The entry points a pack's LLVM lowering may call (spec/llvm-abi.md, "Entry
 * points for packs"; spec/plugin-abi.md, "Lowerings for LLVM"). They are a
 * stable interface: a lowering declares them by these names and signatures,
 * and the backend refuses one that declares anything else. Arguments are
 * borrowed: none of these takes a reference it is given. A string or value
 * they return is a new reference the caller owns. Like the rest of the core,
 * they inline into the program. */
#include "../isu_rt.h"

#include <stdlib.h>
#include <string.h>

int64_t isu_pack_str_len(const IsuObj *s) { return s->len; }

int64_t isu_pack_str_chars(const IsuObj *s) { return s->chars; }

unsigned char *isu_pack_str_bytes(IsuObj *s) { return ISU_DATA(s); }

int64_t isu_pack_count_chars(const unsigned char *bytes, int64_t n) { return isu_count_chars(bytes, n); }

/* The byte offset of character `i` (0 <= i <= chars): at once in a string
 * of ASCII only, else by a walk from the start. */
int64_t isu_pack_str_offset(const IsuObj *s, int64_t i) {
    if (s->len == s->chars || i <= 0) return i;
    const unsigned char *p = ISU_DATA(s);
    int64_t seen = 0;
    for (int64_t b = 0; b < s->len; b++) {
        if ((p[b] & 0xC0) != 0x80) {
            if (seen == i) return b;
            seen++;
        }
    }
    return s->len;
}

/* The byte offset of the first occurrence of `t` in `s` at or after the
 * byte offset `from` (a character boundary, 0 <= from <= len), or -1: the
 * Knuth-Morris-Pratt automaton (memchr for one byte), linear in both. The empty `t` is found at
 * `from`. UTF-8 is self-synchronizing, so every match starts on a character
 * boundary. */
int64_t isu_pack_str_find(const IsuObj *s, const IsuObj *t, int64_t from) {
    int64_t m = t->len, n = s->len;
    if (m == 0) return from;
    if (m > n - from) return -1;
    const unsigned char *p = ISU_DATA(t), *hay = ISU_DATA(s);
    if (m == 1) {
        const unsigned char *q = memchr(hay + from, p[0], (size_t)(n - from));
        return q ? q - hay : -1;
    }
    int64_t *fail = isu_alloc(sizeof(int64_t) * (size_t)m);
    int64_t k = 0;
    fail[0] = 0;
    for (int64_t i = 1; i < m; i++) {
        while (k && p[i] != p[k]) k = fail[k - 1];
        if (p[i] == p[k]) k++;
        fail[i] = k;
    }
    int64_t at = -1;
    k = 0;
    for (int64_t i = from; i < n; i++) {
        while (k && hay[i] != p[k]) k = fail[k - 1];
        if (hay[i] == p[k]) k++;
        if (k == m) {
            at = i + 1 - m;
            break;
        }
    }
    free(fail);
    return at;
}

IsuObj *isu_pack_str_new(const unsigned char *bytes, int64_t len) { return isu_str_new(bytes, len); }

/* A new string of `len` bytes and `chars` characters whose bytes the caller
 * writes (through isu_pack_str_bytes) before it hands the string on. */
IsuObj *isu_pack_str_alloc(int64_t len, int64_t chars) {
    IsuObj *s = isu_obj_new(len, 1);
    s->len = len;
    s->chars = chars;
    return s;
}

int64_t isu_pack_array_len(const IsuObj *xs) { return xs->len; }

/* The 8-byte slot of element `i` of an array whose elements are not bools. */
uint64_t isu_pack_array_get(const IsuObj *xs, int64_t i) { return isu_load_slot(ISU_DATA(xs) + 8 * i, 8); }

/* One more reference to a string, array or map (a constant is immortal). */
void isu_pack_retain(IsuObj *v) {
    if (v->rc >= 0) v->rc++;
}

void isu_pack_check_size(int64_t n, int32_t site) { isu_check_size(n, site); }

_Noreturn void isu_pack_fail(int32_t code, int32_t site) { isu_fail(code, site, 0, 0); }
