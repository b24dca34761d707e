#include "bench.h"

/* Words generated as in the Isu program, joined with " \n", lowered, split
 * on ASCII whitespace, counted in an open-addressing hash table; the keys
 * sorted for the rendering "w=c" joined with ",". */

typedef struct {
    char *key;
    size_t len;
    int64_t count;
} Slot;

static uint64_t hash(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int by_key(const void *a, const void *b) {
    const Slot *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->key, y->key, n);
    if (c) return c;
    return (x->len > y->len) - (x->len < y->len);
}

static int is_space(char c) { return c == ' ' || (c >= 9 && c <= 13); }

static void run(int64_t n, int64_t vocab, int64_t seed, int64_t out[2]) {
    /* generate */
    size_t cap = 64, len = 0;
    char *text = malloc(cap);
    int64_t x = seed;
    for (int64_t i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648;
        int64_t k = (x / 16) % vocab;
        char word[32];
        int w = snprintf(word, sizeof word, "%s%lld", x % 3 == 0 ? "Word" : "word", (long long)k);
        if (len + (size_t)w + 2 > cap) {
            while (len + (size_t)w + 2 > cap) cap *= 2;
            text = realloc(text, cap);
        }
        if (i > 0) {
            text[len++] = ' ';
            text[len++] = '\n';
        }
        memcpy(text + len, word, (size_t)w);
        len += (size_t)w;
    }
    for (size_t i = 0; i < len; i++)
        if (text[i] >= 'A' && text[i] <= 'Z') text[i] += 32;
    /* count */
    size_t tcap = 1024, used = 0;
    Slot *table = calloc(tcap, sizeof(Slot));
    size_t i = 0;
    while (i < len) {
        while (i < len && is_space(text[i])) i++;
        if (i >= len) break;
        size_t start = i;
        while (i < len && !is_space(text[i])) i++;
        size_t wl = i - start;
        if ((used + 1) * 2 > tcap) {
            Slot *old = table;
            size_t ocap = tcap;
            tcap *= 2;
            table = calloc(tcap, sizeof(Slot));
            for (size_t s = 0; s < ocap; s++)
                if (old[s].key) {
                    size_t h = hash(old[s].key, old[s].len) & (tcap - 1);
                    while (table[h].key) h = (h + 1) & (tcap - 1);
                    table[h] = old[s];
                }
            free(old);
        }
        size_t h = hash(text + start, wl) & (tcap - 1);
        while (table[h].key && !(table[h].len == wl && memcmp(table[h].key, text + start, wl) == 0))
            h = (h + 1) & (tcap - 1);
        if (!table[h].key) {
            table[h].key = malloc(wl);
            memcpy(table[h].key, text + start, wl);
            table[h].len = wl;
            used++;
        }
        table[h].count++;
    }
    /* render */
    Slot *entries = malloc(sizeof(Slot) * (used ? used : 1));
    size_t m = 0;
    for (size_t s = 0; s < tcap; s++)
        if (table[s].key) entries[m++] = table[s];
    qsort(entries, m, sizeof(Slot), by_key);
    int64_t rendered = 0, best = 0;
    for (size_t e = 0; e < m; e++) {
        char num[32];
        int d = snprintf(num, sizeof num, "%lld", (long long)entries[e].count);
        rendered += (int64_t)entries[e].len + 1 + d + (e > 0 ? 1 : 0);
        if (entries[e].count > best) best = entries[e].count;
        free(entries[e].key);
    }
    free(entries);
    free(table);
    free(text);
    out[0] = rendered;
    out[1] = best;
}

int main(int argc, char **argv) {
    int64_t repeat = arg(argc, argv, 1), n = arg(argc, argv, 2), vocab = arg(argc, argv, 3),
            seed = arg(argc, argv, 4);
    int64_t r[2] = {0, 0};
    TIMED(repeat, run(n, vocab, seed, r));
    printf("[%lld, %lld]\n%lld\n", (long long)r[0], (long long)r[1], (long long)best);
    return 0;
}
