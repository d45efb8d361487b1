// A minimal assertion harness for the CTest executables: CHECK records, main returns failures.
#pragma once
#include <cstdio>

inline int jt_failures = 0;  // shared by every file of a test executable
inline int jt_checks = 0;
#define CHECK(cond)                                                          \
  do {                                                                       \
    ++jt_checks;                                                             \
    if (!(cond)) {                                                           \
      ++jt_failures;                                                         \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)
#define CHECK_EQ(a, b) CHECK((a) == (b))
inline int jt_report(const char* name) {
  std::printf("%s: %d checks, %d failed\n", name, jt_checks, jt_failures);
  return jt_failures == 0 ? 0 : 1;
}
