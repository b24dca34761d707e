/* Floats: the text of a float as Python's repr writes it (the shortest
 * digits that read back to the same double, spec/stdlib.md TO_STRING), and a
 * float from text as Python's float() reads it, less inf and nan
 * (PARSE_FLOAT).
 *
 * The shortest digits come from libc's correctly rounded conversions: for
 * each length from 1 to 17 digits, the nearest decimal of that length
 * (`%.*e`), kept when it reads back (`strtod`) to the same double. The
 * nearest decimal of the shortest length that reads back is what Python's
 * repr (David Gay's dtoa, mode 0) writes; the one case where the nearest
 * decimal of a length misses while another of that length reads back is a
 * power of two, whose gap below is half the gap above, and there the next
 * decimal up is tried too. */
#include "../isu_rt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decimal digits of `|d|` (d finite, not 0) that read back to it,
 * fewest first, nearest among those: written to `digits` (no point, no
 * leading zero), their count returned; `*exp10` is the power of ten of the
 * first digit (d = 0.D x 10^(exp10 + 1)). */
static int shortest(double d, char digits[18], int *exp10) {
    double a = fabs(d);
    char buf[40];
    for (int prec = 0; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec, a);
        int ok = strtod(buf, NULL) == a;
        if (!ok) {
            uint64_t bits;
            memcpy(&bits, &a, sizeof bits);
            /* A power of two (not the least normal, whose gaps are equal) and
             * the nearest decimal below it: the next one up. */
            if ((bits & 0xFFFFFFFFFFFFFull) == 0 && (bits >> 52) > 1 && strtod(buf, NULL) < a) {
                char *e = strchr(buf, 'e');
                char *q = e - 1;
                while (q >= buf && (*q == '9' || *q == '.')) {
                    if (*q == '9') *q = '0';
                    q--;
                }
                /* A carry out of the first digit makes it a decimal of the
                 * next power of ten, which the shorter lengths tried. */
                if (q >= buf) {
                    (*q)++;
                    ok = strtod(buf, NULL) == a;
                }
            }
        }
        if (ok || prec == 16) {
            int n = 0;
            char *e = strchr(buf, 'e');
            for (char *p = buf; p < e; p++)
                if (*p != '.') digits[n++] = *p;
            while (n > 1 && digits[n - 1] == '0') n--;
            *exp10 = atoi(e + 1);
            return n;
        }
    }
    return 0;
}

int isu_float_repr(double d, char out[32]) {
    int n = 0;
    if (signbit(d)) out[n++] = '-';
    if (d == 0) {
        memcpy(out + n, "0.0", 3);
        return n + 3;
    }
    char digits[18];
    int x = 0;
    int len = shortest(d, digits, &x);
    if (x < -4 || x >= 16) {
        /* 1.5e-07, 1e+16: one digit, the point and the rest, the exponent
         * with a sign and at least two digits. */
        out[n++] = digits[0];
        if (len > 1) {
            out[n++] = '.';
            memcpy(out + n, digits + 1, (size_t)(len - 1));
            n += len - 1;
        }
        n += snprintf(out + n, 8, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return n;
    }
    if (x < 0) {
        /* 0.000123 */
        out[n++] = '0';
        out[n++] = '.';
        for (int i = -1; i > x; i--) out[n++] = '0';
        memcpy(out + n, digits, (size_t)len);
        return n + len;
    }
    /* 123.45, 1000.0 */
    for (int i = 0; i <= x; i++) out[n++] = i < len ? digits[i] : '0';
    out[n++] = '.';
    if (len > x + 1) {
        memcpy(out + n, digits + x + 1, (size_t)(len - x - 1));
        n += len - x - 1;
    } else {
        out[n++] = '0';
    }
    return n;
}

IsuObj *isu_float_to_string(double d) {
    char buf[32];
    int n = isu_float_repr(d, buf);
    return isu_str_new((const unsigned char *)buf, n);
}

double isu_float_of_slot(uint64_t v) {
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

uint64_t isu_float_slot(double d) {
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static int is_blank(unsigned char c) { return c == ' ' || (c >= 9 && c <= 13); }

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Copies digits with single underscores between them from `p[*i..n]` to
 * `out`, without the underscores; whether there was one. An underscore not
 * between two digits is left where it stands. */
static int digit_part(const unsigned char *p, int64_t n, int64_t *i, char *out, int64_t *len) {
    int any = 0;
    while (*i < n) {
        if (is_digit(p[*i])) {
            out[(*len)++] = (char)p[*i];
            (*i)++;
            any = 1;
        } else if (p[*i] == '_' && any && *i + 1 < n && is_digit(p[*i + 1])) {
            (*i)++;
        } else {
            break;
        }
    }
    return any;
}

/* PARSE_FLOAT (spec/stdlib.md): blanks around, a sign, digits with single
 * underscores between them, an optional fraction (`5.`, `.5`) and exponent;
 * correctly rounded (strtod, which reads this syntax less the underscores
 * in the C locale); `invalid_number` for anything else and
 * `float_not_finite` beyond the float range. */
double isu_parse_float(const IsuObj *s, int32_t site) {
    const unsigned char *p = ISU_DATA(s);
    int64_t lo = 0, n = s->len;
    while (lo < n && is_blank(p[lo])) lo++;
    while (n > lo && is_blank(p[n - 1])) n--;
    char *plain = isu_alloc((size_t)(n - lo) + 1);
    int64_t i = lo, len = 0;
    if (i < n && (p[i] == '+' || p[i] == '-')) plain[len++] = (char)p[i++];
    int whole = digit_part(p, n, &i, plain, &len), fraction = 0;
    if (i < n && p[i] == '.') {
        plain[len++] = '.';
        i++;
        fraction = digit_part(p, n, &i, plain, &len);
    }
    int ok = whole || fraction;
    if (ok && i < n && (p[i] == 'e' || p[i] == 'E')) {
        plain[len++] = 'e';
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) plain[len++] = (char)p[i++];
        ok = digit_part(p, n, &i, plain, &len);
    }
    ok = ok && i == n;
    plain[len] = 0;
    double d = ok ? strtod(plain, NULL) : 0;
    free(plain);
    if (!ok) isu_fail(ISU_E_INVALID_NUMBER, site, 0, 0);
    if (!isfinite(d)) isu_fail(ISU_E_FLOAT_NOT_FINITE, site, 0, 0);
    return d;
}
