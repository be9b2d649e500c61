/* A page of test macros: each check prints where it failed and makes the test function return 1. */
#ifndef TEST_SUPPORT_TEST_H
#define TEST_SUPPORT_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TEST_ENSURE(cond)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: TEST_ENSURE(%s) failed\n", __FILE__, __LINE__, #cond); \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

#define TEST_ENSURE_NEAR(a, b, tol)                                                                                    \
    do {                                                                                                               \
        double ensure_a_ = (double)(a), ensure_b_ = (double)(b);                                                       \
        if (!(fabs(ensure_a_ - ensure_b_) <= (double)(tol))) {                                                         \
            fprintf(stderr, "%s:%d: TEST_ENSURE_NEAR(%s, %s) failed: %.9g vs %.9g (tol %g)\n", __FILE__, __LINE__, #a, \
                    #b, ensure_a_, ensure_b_, (double)(tol));                                                          \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

/* Each component of the vector v within tol of ex, ey, ez. */
#define TEST_ENSURE_NEAR3(v, ex, ey, ez, tol) \
    do {                                      \
        TEST_ENSURE_NEAR((v).x, ex, tol);     \
        TEST_ENSURE_NEAR((v).y, ey, tol);     \
        TEST_ENSURE_NEAR((v).z, ez, tol);     \
    } while (0)

#define TEST_ENSURE_CODE(expr, code)                                                                                  \
    do {                                                                                                              \
        int ensure_r_ = (int)(expr);                                                                                  \
        if (ensure_r_ != (int)(code)) {                                                                               \
            fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__, __LINE__, #expr, ensure_r_, #code, \
                    (int)(code));                                                                                     \
            return 1;                                                                                                 \
        }                                                                                                             \
    } while (0)

/* 1 in a build with AddressSanitizer, where the random tests run a quarter of their cases. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* A random test's case count: n, or a quarter of it under the sanitizers. */
static inline int test_cases(int n) { return TEST_SANITIZED ? (n + 3) / 4 : n; }

/* Marsaglia's xorshift64: the next of a fixed-seed stream (state not 0), for tests that draw
   their own inputs. */
static inline uint64_t test_xorshift64(uint64_t* state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* The executable's --long argument: its long variant (ctest's <test>_long entries, label long) runs
   every random case and slow scene; the default entry (label quick) a sample of them. */
static inline bool test_long_run(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (strcmp(argv[i], "--long") == 0) return true;
    return false;
}

/* Runs one test function; counts failures in `failures`. */
#define TEST_RUN(fn, failures)                    \
    do {                                          \
        if ((fn)() != 0) {                        \
            fprintf(stderr, "FAILED: %s\n", #fn); \
            ++(failures);                         \
        } else {                                  \
            printf("ok: %s\n", #fn);              \
        }                                         \
    } while (0)

#endif
