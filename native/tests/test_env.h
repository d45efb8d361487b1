// Setting and clearing an environment variable from a test or a benchmark (the library reads its
// JT_* settings per call). POSIX has setenv/unsetenv; Windows' C runtime has _putenv_s, where an
// empty value removes the variable.
#pragma once
#include <cstdlib>

namespace jt_test {

inline void set_env(const char* name, const char* value) {
#ifdef _WIN32
  _putenv_s(name, value);
#else
  setenv(name, value, 1);
#endif
}

inline void unset_env(const char* name) {
#ifdef _WIN32
  _putenv_s(name, "");
#else
  unsetenv(name);
#endif
}

}  // namespace jt_test
