/* Character-set search for the compiled thinkparse scanner (src_ext/_scanner_c.pyx).
 *
 * Theory of operation: the scanner spends most of its time looking for the next character
 * that can matter (a "<", a backtick, a delimiter's first character, an LF...).  A
 * ``tp_charset`` holds such a set: a 256-entry membership table for characters below 256, the
 * first four of them as bytes for the vector search, and a short list of wider characters.
 * ``tp_find`` returns the index of the first member in ``data[i:end]`` for any of CPython's
 * three string kinds: one-byte strings use memchr (one member), AVX2 (2-4 members, when the
 * CPU has it) or SSE2 16 bytes at a time, then the table; two- and four-byte strings use the
 * table and the list per character.
 */
#ifndef THINKPARSE_SEARCH_H
#define THINKPARSE_SEARCH_H

#include <Python.h>
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define TP_HAVE_SSE2 1
#endif
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#include <immintrin.h>
#define TP_HAVE_AVX2 1
#endif

typedef struct {
    unsigned char table[256];   /* membership of characters below 256 */
    int nb;                     /* how many distinct characters below 256 */
    unsigned char b[4];         /* the first four of them, for the vector search */
    int nextra;                 /* characters at or above 256 ... */
    Py_UCS4 *extra;             /* ... listed here */
} tp_charset;

static inline int tp_ctz(unsigned int x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int n = 0; while (!(x & 1u)) { x >>= 1; n++; } return n;
#endif
}

static inline int tp_member(const tp_charset *cs, Py_UCS4 c) {
    if (c < 256) return cs->table[c];
    for (int k = 0; k < cs->nextra; k++) if (cs->extra[k] == c) return 1;
    return 0;
}

#ifdef TP_HAVE_AVX2
/* The whole one-byte search for two to four byte values, when the CPU has AVX2: one
   32-byte step first (markers are often close), then 64 bytes per step, then the tail.
   One body per set size, so no comparison is repeated. */
#define TP_AVX2_FIND(NAME, HITS)                                                        \
__attribute__((target("avx2")))                                                         \
static Py_ssize_t NAME(const unsigned char *s, Py_ssize_t i, Py_ssize_t end,            \
                       const tp_charset *cs) {                                          \
    const __m256i v0 = _mm256_set1_epi8((char)cs->b[0]);                                \
    const __m256i v1 = _mm256_set1_epi8((char)cs->b[1]);                                \
    const __m256i v2 = _mm256_set1_epi8((char)cs->b[cs->nb > 2 ? 2 : 1]);               \
    const __m256i v3 = _mm256_set1_epi8((char)cs->b[cs->nb > 3 ? 3 : 1]);               \
    (void)v2; (void)v3;                                                                 \
    if (i + 32 <= end) {                                                                \
        __m256i x = _mm256_loadu_si256((const __m256i *)(s + i));                       \
        unsigned int m = (unsigned int)_mm256_movemask_epi8(HITS(x));                   \
        if (m) return i + tp_ctz(m);                                                    \
        i += 32;                                                                        \
    }                                                                                   \
    while (i + 64 <= end) {                                                             \
        __m256i x = _mm256_loadu_si256((const __m256i *)(s + i));                       \
        __m256i y = _mm256_loadu_si256((const __m256i *)(s + i + 32));                  \
        __m256i mx = HITS(x), my = HITS(y);                                             \
        __m256i any = _mm256_or_si256(mx, my);                                          \
        if (!_mm256_testz_si256(any, any)) {                                            \
            unsigned int m1 = (unsigned int)_mm256_movemask_epi8(mx);                   \
            if (m1) return i + tp_ctz(m1);                                              \
            return i + 32 + tp_ctz((unsigned int)_mm256_movemask_epi8(my));             \
        }                                                                               \
        i += 64;                                                                        \
    }                                                                                   \
    if (i + 32 <= end) {                                                                \
        __m256i x = _mm256_loadu_si256((const __m256i *)(s + i));                       \
        unsigned int m = (unsigned int)_mm256_movemask_epi8(HITS(x));                   \
        if (m) return i + tp_ctz(m);                                                    \
        i += 32;                                                                        \
    }                                                                                   \
    while (i < end && !cs->table[s[i]]) i++;                                            \
    return i;                                                                           \
}
#define TP_HITS2(x) _mm256_or_si256(_mm256_cmpeq_epi8(x, v0), _mm256_cmpeq_epi8(x, v1))
#define TP_HITS3(x) _mm256_or_si256(TP_HITS2(x), _mm256_cmpeq_epi8(x, v2))
#define TP_HITS4(x) _mm256_or_si256(TP_HITS2(x), \
        _mm256_or_si256(_mm256_cmpeq_epi8(x, v2), _mm256_cmpeq_epi8(x, v3)))
TP_AVX2_FIND(tp_find2_avx2, TP_HITS2)
TP_AVX2_FIND(tp_find3_avx2, TP_HITS3)
TP_AVX2_FIND(tp_find4_avx2, TP_HITS4)
static int tp_use_avx2 = -1;
#endif

/* Index of the first character of s[i:end] in the set, or end. */
static Py_ssize_t tp_find(const void *data, int kind, Py_ssize_t i, Py_ssize_t end,
                          const tp_charset *cs) {
    if (kind == PyUnicode_1BYTE_KIND) {
        const unsigned char *s = (const unsigned char *)data;
        if (cs->nb == 0 || i >= end) return end;
        if (cs->nb == 1) {
            const void *p = memchr(s + i, cs->b[0], (size_t)(end - i));
            return p ? (Py_ssize_t)((const unsigned char *)p - s) : end;
        }
#ifdef TP_HAVE_AVX2
        if (cs->nb <= 4) {
            if (tp_use_avx2 < 0) {
                __builtin_cpu_init();
                tp_use_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
            }
            if (tp_use_avx2) {
                if (cs->nb == 2) return tp_find2_avx2(s, i, end, cs);
                if (cs->nb == 3) return tp_find3_avx2(s, i, end, cs);
                return tp_find4_avx2(s, i, end, cs);
            }
        }
#endif
#ifdef TP_HAVE_SSE2
        if (cs->nb <= 4) {
            const __m128i v0 = _mm_set1_epi8((char)cs->b[0]);
            const __m128i v1 = _mm_set1_epi8((char)cs->b[1]);
            const __m128i v2 = _mm_set1_epi8((char)cs->b[cs->nb > 2 ? 2 : 1]);
            const __m128i v3 = _mm_set1_epi8((char)cs->b[cs->nb > 3 ? 3 : 1]);
            while (i + 16 <= end) {
                __m128i x = _mm_loadu_si128((const __m128i *)(s + i));
                __m128i m = _mm_or_si128(
                    _mm_or_si128(_mm_cmpeq_epi8(x, v0), _mm_cmpeq_epi8(x, v1)),
                    _mm_or_si128(_mm_cmpeq_epi8(x, v2), _mm_cmpeq_epi8(x, v3)));
                unsigned int mask = (unsigned int)_mm_movemask_epi8(m);
                if (mask) return i + tp_ctz(mask);
                i += 16;
            }
        }
#endif
        while (i < end && !cs->table[s[i]]) i++;
        return i;
    }
    if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *s = (const Py_UCS2 *)data;
        for (; i < end; i++) if (tp_member(cs, s[i])) return i;
        return end;
    }
    {
        const Py_UCS4 *s = (const Py_UCS4 *)data;
        for (; i < end; i++) if (tp_member(cs, s[i])) return i;
        return end;
    }
}

#endif /* THINKPARSE_SEARCH_H */
