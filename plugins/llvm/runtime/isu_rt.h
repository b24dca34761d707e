/* The runtime of Isu programs compiled by the LLVM backend: values on the
 * heap, reference counting with copy-on-write, strings, arrays, maps, numbers,
 * the JSON of arguments and results, runtime errors, and the executable's
 * `main`. Compiled by clang-19 to bitcode when the plugin is built, linked
 * into every module before LLVM's optimizer runs, so that the small functions
 * here inline into the program. It needs libc only.
 *
 * A value crosses between the program and the runtime as a 64-bit slot: an
 * int as itself, a bool as 0 or 1, a string, array or map as the address of
 * its heap object. spec/llvm-abi.md documents what the program module and the
 * runtime share. */
#ifndef ISU_RT_H
#define ISU_RT_H

#include <stddef.h>
#include <stdint.h>

/* Every heap object starts with this header. A reference count below zero
 * marks an immortal object (a constant of the program): never counted,
 * written or freed. `cap` and `len` count bytes (string), elements (array) or
 * entries (map); `chars` is a string's length in Unicode scalar values, and
 * a map's index and order flag (core/map.c). */
typedef struct IsuObj {
    int64_t rc;
    int64_t len;
    int64_t cap;
    int64_t chars;
} IsuObj;

/* The slots follow the header: a string's UTF-8 bytes; an array's elements,
 * 1 byte for a bool and 8 for anything else; a map's entries, 16 bytes each
 * (key, then value, each in 8 bytes), no key twice, sorted by key unless the
 * map's order flag says otherwise (`isu_map_sort` sorts them); a struct's
 * fields in declaration order, 8 bytes each (a bool too), `len` and `cap`
 * their number. */
#define ISU_DATA(p) ((unsigned char *)(p) + sizeof(IsuObj))

/* Static types, as the program module describes them. The kinds below
 * `ISU_STRING` are the values that live in their slot (a float as the bits
 * of its IEEE-754 double), those from it on the heap objects. */
enum { ISU_INT = 0, ISU_BOOL = 1, ISU_FLOAT = 2, ISU_STRING = 3, ISU_ARRAY = 4, ISU_MAP = 5, ISU_STRUCT = 6 };

typedef struct IsuType {
    int32_t kind;
    /* An array's element type, a map's key type. */
    const struct IsuType *a;
    /* A map's value type. */
    const struct IsuType *b;
    /* A struct's fields: how many, their types and their names, in
     * declaration order (0 and NULL for other types). */
    int64_t nfields;
    const struct IsuType *const *fields;
    const char *const *names;
} IsuType;

/* `string[]`, the type of what the runtime's splitting functions build. */
extern const IsuType isu_strings_type;

/* Runtime error codes: spec/llvm-abi.md lists them (the host's codes). */
enum {
    ISU_E_INT_OVERFLOW = 1,
    ISU_E_DIVISION_BY_ZERO = 2,
    ISU_E_INDEX_OUT_OF_RANGE = 3,
    ISU_E_MISSING_KEY = 4,
    ISU_E_ZERO_STEP = 5,
    ISU_E_PARSE_INT_FAILED = 6,
    ISU_E_EMPTY_COLLECTION = 7,
    ISU_E_NEGATIVE_COUNT = 8,
    ISU_E_UNINITIALIZED_READ = 9,
    ISU_E_NO_RETURN = 10,
    ISU_E_STEP_LIMIT = 11,
    ISU_E_SIZE_LIMIT = 12,
    ISU_E_INVALID_ARGUMENT = 13,
    ISU_E_MEMORY_LIMIT = 15,
    ISU_E_EMPTY_SEPARATOR = 16,
    ISU_E_OUT_OF_DOMAIN = 17,
    ISU_E_FLOAT_NOT_FINITE = 18,
    ISU_E_INVALID_NUMBER = 19,
};

/* What failed at an error site, for the message. */
enum {
    ISU_W_PLAIN = 0,
    ISU_W_ADD = 1,
    ISU_W_SUB = 2,
    ISU_W_MUL = 3,
    ISU_W_DIV = 4,
    ISU_W_MOD = 5,
    ISU_W_NEG = 6,
    ISU_W_ABS = 7,
    ISU_W_INDEX = 8,
    ISU_W_SLICE = 9,
    ISU_W_VAR = 10,
    /* A call of a pack function, whose full name the site's `name` holds. */
    ISU_W_PACK = 11,
    /* A division of floats: the values shown are their bits. */
    ISU_W_FDIV = 12,
    /* The index of a character of a string. */
    ISU_W_CHAR = 13,
};

/* A place in the program where a runtime error can happen: its step (an
 * index into the step table, -1 for none), what fails there, and the span of
 * the failing expression. */
typedef struct IsuSite {
    int32_t step;
    int32_t what;
    uint32_t line;
    uint32_t col;
    uint32_t lo;
    uint32_t hi;
    /* The variable a `uninitialized_read` names, the pack function a
     * call site of one (`ISU_W_PACK`) names, or NULL. */
    const char *name;
} IsuSite;

/* What the program module tells the runtime about itself. */
typedef struct IsuProgram {
    const char *name;
    /* The Isu source file the module was compiled from. */
    const char *source;
    int64_t nargs;
    const char *const *arg_names;
    const IsuType *const *arg_types;
    const IsuType *returns;
    int64_t nsteps;
    const char *const *steps;
    int64_t nsites;
    const IsuSite *sites;
    /* The limits of a run when the command line sets none. */
    int64_t max_steps;
    int64_t max_size;
    int64_t max_memory;
} IsuProgram;

/* Defined by the program module. */
extern const IsuProgram isu_program;
void isu_run(const uint64_t *args, uint64_t *result);

/* The limits of the run (spec/semantics.md, section 7), set by main. */
extern int64_t isu_max_steps;
extern int64_t isu_max_size;
extern int64_t isu_max_memory;

/* Errors. `isu_fail` stops the run with the error `code` at `site`; `a` and
 * `b` are the values the message shows (the operands, an index and a length). */
_Noreturn void isu_fail(int32_t code, int32_t site, int64_t a, int64_t b);
/* An error with no step and no site: invalid arguments, no_return, ... */
_Noreturn void isu_fail_code(int32_t code, const char *message);
/* The allocator gave up: not an error of the program. */
_Noreturn void isu_out_of_memory(void);

/* Memory. */
void *isu_alloc(size_t bytes);
IsuObj *isu_obj_new(int64_t cap, int64_t unit);
/* A struct of `n` fields, each 0 (no value) until the program stores it. */
IsuObj *isu_struct_new(int64_t n);
int64_t isu_unit(const IsuType *t);
int64_t isu_slot_width(const IsuType *elem);
uint64_t isu_load_slot(const unsigned char *at, int64_t width);
void isu_store_slot(unsigned char *at, int64_t width, uint64_t v);

/* Reference counting. A value of a type that is not on the heap is left alone. */
void isu_inc(uint64_t v, const IsuType *t);
void isu_drop(uint64_t v, const IsuType *t);
/* An object equal to `p` that only the caller holds, with room for `extra`
 * more units. Consumes `p`. */
IsuObj *isu_unique(IsuObj *p, const IsuType *t, int64_t extra);
/* The same without room for more: an object about to be written in place. */
IsuObj *isu_own(IsuObj *p, const IsuType *t);
/* The same, for a value a LOCAL may not hold yet (null stays null). */
IsuObj *isu_own_or_null(IsuObj *p, const IsuType *t);
void isu_check_size(int64_t n, int32_t site);

/* Access to objects for the program module (which knows nothing of the
 * layout): lengths, the reference count, slots. */
int64_t isu_len(const IsuObj *p);
int64_t isu_len_or_zero(const IsuObj *p);
int64_t isu_nchars(const IsuObj *p);
int64_t isu_rc(const IsuObj *p);
uint64_t isu_get(const IsuObj *p, int64_t i, int64_t width);
void isu_set(IsuObj *p, int64_t i, int64_t width, uint64_t v);
uint64_t isu_entry_value(const IsuObj *m, int64_t i);
void isu_set_entry_value(IsuObj *m, int64_t i, uint64_t v);
uint64_t isu_arg(const uint64_t *args, int64_t i);
/* The child at slot `i` of an array (`entry` 0) or at entry `i` of a map
 * (`entry` 1), made unique in place, so that it can be written. */
IsuObj *isu_unique_child(IsuObj *p, int64_t i, int32_t entry, const IsuType *child);

/* Equality and order. */
int32_t isu_eq(uint64_t x, uint64_t y, const IsuType *t);
int32_t isu_str_cmp(const IsuObj *x, const IsuObj *y);

/* Arrays. */
IsuObj *isu_push(IsuObj *xs, uint64_t v, const IsuType *t, int32_t site);
IsuObj *isu_pop(IsuObj *xs, const IsuType *t, int32_t site);
IsuObj *isu_concat(IsuObj *x, const IsuObj *y, const IsuType *t, int32_t site);
IsuObj *isu_slice(const IsuObj *x, int64_t lo, int64_t hi, const IsuType *t, int32_t site);
IsuObj *isu_repeat(uint64_t v, int64_t n, const IsuType *elem, int32_t site);
/* `REVERSE` of an array: consumes `xs` (its type `t`), reversed in place
 * when unique. */
IsuObj *isu_reverse(IsuObj *xs, const IsuType *t);

/* Searching and ordering (core/search.c). `isu_find`: where `t` first
 * occurs in `s`, in characters, or -1; `isu_index_of`: the first element of
 * `xs` equal to `x`, or -1; `isu_sort` consumes `xs` (its type `t`). */
int64_t isu_find(const IsuObj *s, const IsuObj *t);
IsuObj *isu_split(const IsuObj *s, const IsuObj *sep, int32_t site);
int64_t isu_index_of(const IsuObj *xs, uint64_t x, const IsuType *elem);
IsuObj *isu_sort(IsuObj *xs, const IsuType *t);

/* Maps. */
int64_t isu_map_find(const IsuObj *m, uint64_t key, const IsuType *kt);
uint64_t isu_map_get(const IsuObj *m, uint64_t key, const IsuType *t, int32_t site);
uint64_t isu_map_get_or(const IsuObj *m, uint64_t key, uint64_t dflt, const IsuType *t);
IsuObj *isu_map_set(IsuObj *m, uint64_t key, uint64_t v, const IsuType *t, int32_t site);
/* The same, where `i` is `isu_map_find`'s answer for the key on `m` (or on
 * the map `m` is a copy of). */
IsuObj *isu_map_set_at(IsuObj *m, int64_t i, uint64_t key, uint64_t v, const IsuType *t, int32_t site);
IsuObj *isu_map_keys(const IsuObj *m, const IsuType *t);
/* A hash of the `n` bytes at `p` (the maps' hash of a string key). */
uint64_t isu_bytes_hash(const unsigned char *p, int64_t n);
/* Whether the `n` bytes at `p` and at `q` are equal. */
int isu_bytes_eq(const unsigned char *p, const unsigned char *q, int64_t n);
/* Puts the entries in ascending key order (a map's value does not change). */
void isu_map_sort(const IsuObj *m, const IsuType *t);
void isu_map_free_index(IsuObj *m);
/* The order flag in a map's `chars`: the entries are not sorted. */
#define ISU_MAP_UNSORTED 1

/* Strings. */
IsuObj *isu_str_new(const unsigned char *bytes, int64_t len);
int64_t isu_count_chars(const unsigned char *p, int64_t n);
IsuObj *isu_split_whitespace(const IsuObj *s);
IsuObj *isu_join(const IsuObj *xs, const IsuObj *sep, int32_t site);
IsuObj *isu_lower(const IsuObj *s);
IsuObj *isu_upper(const IsuObj *s);
IsuObj *isu_chars(const IsuObj *s, int32_t site);
/* `REVERSE` of a string: its characters in reverse order, each one's bytes
 * in their order. */
IsuObj *isu_str_reverse(const IsuObj *s);
IsuObj *isu_to_string(int64_t n);
int64_t isu_parse_int(const IsuObj *s, int32_t site);

/* Floats (core/float.c). A float's slot holds the bits of its double. */
double isu_float_of_slot(uint64_t v);
uint64_t isu_float_slot(double d);
/* The text Python's repr writes for the finite `d` (at most 24 bytes): its
 * length. */
int isu_float_repr(double d, char out[32]);
IsuObj *isu_float_to_string(double d);
double isu_parse_float(const IsuObj *s, int32_t site);

/* The result: `size_limit` at `site` when it has more JSON values than the
 * size limit. */
void isu_check_result(uint64_t v, const IsuType *t, int32_t site);

/* Work (core/work.c): the size of a nested value, walked no further than
 * past `limit`. */
uint64_t isu_size(uint64_t v, const IsuType *t, uint64_t limit);
/* Memory: the size of an array's element, of a map entry's value (0 when
 * there is none). */
uint64_t isu_elem_size(const IsuObj *xs, int64_t i, const IsuType *et);
uint64_t isu_entry_size(const IsuObj *m, int64_t i, const IsuType *vt);

/* The entry points of packs' lowerings (core/pack.c, spec/llvm-abi.md):
 * arguments borrowed, strings returned owned. */
int64_t isu_pack_str_len(const IsuObj *s);
int64_t isu_pack_str_chars(const IsuObj *s);
unsigned char *isu_pack_str_bytes(IsuObj *s);
int64_t isu_pack_count_chars(const unsigned char *bytes, int64_t n);
int64_t isu_pack_str_offset(const IsuObj *s, int64_t i);
int64_t isu_pack_str_find(const IsuObj *s, const IsuObj *t, int64_t from);
IsuObj *isu_pack_str_new(const unsigned char *bytes, int64_t len);
IsuObj *isu_pack_str_alloc(int64_t len, int64_t chars);
int64_t isu_pack_array_len(const IsuObj *xs);
uint64_t isu_pack_array_get(const IsuObj *xs, int64_t i);
void isu_pack_retain(IsuObj *v);
void isu_pack_check_size(int64_t n, int32_t site);
_Noreturn void isu_pack_fail(int32_t code, int32_t site);

/* JSON (json.c). */
typedef struct IsuBuf {
    char *p;
    size_t len;
    size_t cap;
} IsuBuf;

void isu_buf_put(IsuBuf *b, const char *s, size_t n);
void isu_buf_str(IsuBuf *b, const char *s);
void isu_buf_json_str(IsuBuf *b, const unsigned char *s, size_t n);
void isu_buf_int(IsuBuf *b, int64_t v);
void isu_write_value(IsuBuf *b, uint64_t v, const IsuType *t);
/* Parses the arguments object into `args` (one slot per ARGS entry); on
 * failure writes a message to `err` and returns 0. */
int isu_read_args(const char *text, size_t len, uint64_t *args, char *err, size_t errlen);

#endif
