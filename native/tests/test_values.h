// Deterministic test values in [-1, 1): n of them from a seed (a 64-bit LCG's top 53 bits), the
// same on every machine and compiler.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

template <typename T>
std::vector<T> values(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    v[i] = (T)((double)(seed >> 11) / 9007199254740992.0 * 2 - 1);
  }
  return v;
}
