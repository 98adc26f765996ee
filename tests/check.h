/* A minimal test harness: each CHECK prints "ok" or "FAIL" with its location, and
 * check_done() prints "N passed, N failed" for tests/run.sh to add up. */
#ifndef PK_CHECK_H
#define PK_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK_REPORT(ok, ...)                                                    \
	do {                                                                     \
		if (ok) {                                                        \
			check_passed++;                                          \
		} else {                                                         \
			check_failed++;                                          \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);              \
			printf(__VA_ARGS__);                                     \
			printf("\n");                                            \
		}                                                                \
	} while (0)

#define CHECK(cond) CHECK_REPORT((cond), "%s", #cond)
#define CHECK_INT(got, want)                                                     \
	do {                                                                     \
		long long g_ = (long long)(got), w_ = (long long)(want);         \
		CHECK_REPORT(g_ == w_, "%s = %lld, want %lld", #got, g_, w_);    \
	} while (0)
#define CHECK_U64(got, want)                                                     \
	do {                                                                     \
		uint64_t g_ = (got), w_ = (want);                                \
		CHECK_REPORT(g_ == w_, "%s = %" PRIu64 ", want %" PRIu64, #got, g_, w_); \
	} while (0)
#define CHECK_STR(got, want)                                                     \
	do {                                                                     \
		const char *g_ = (got), *w_ = (want);                            \
		CHECK_REPORT(g_ && strcmp(g_, w_) == 0, "%s = \"%s\", want \"%s\"", #got, g_ ? g_ : "(null)", w_); \
	} while (0)

static inline int check_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

#endif
