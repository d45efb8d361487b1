// Shared by the strided kernels: dims sorted innermost-first and coalesced, then walked in
// parallel chunks of the flat index with the innermost dim handed to a typed inner loop.
#pragma once
#include <algorithm>
#include <cstdint>

#include "parallel.h"

namespace jt {

constexpr int kMaxDims = 64;

// N operands over one iteration space; strides are in bytes.
template <int N>
struct StridedIter {
  int ndim = 0;
  int64_t size[kMaxDims];
  int64_t stride[N][kMaxDims];
  char* base[N];

  int64_t numel() const {
    int64_t n = 1;
    for (int d = 0; d < ndim; ++d) n *= size[d];
    return n;
  }

  // Drops size-1 dims, orders dims innermost-first by operand 0's strides (then the others'),
  // and merges neighbours that are contiguous for every operand.
  void coalesce() {
    int k = 0;
    for (int d = 0; d < ndim; ++d) {
      if (size[d] == 1) continue;
      size[k] = size[d];
      for (int i = 0; i < N; ++i) stride[i][k] = stride[i][d];
      ++k;
    }
    ndim = k;
    // Input is outermost-first; reverse, then insertion-sort by stride (stable for ties).
    std::reverse(size, size + ndim);
    for (int i = 0; i < N; ++i) std::reverse(stride[i], stride[i] + ndim);
    for (int a = 1; a < ndim; ++a) {
      for (int b = a; b > 0 && should_swap(b - 1, b); --b) swap_dims(b - 1, b);
    }
    k = 0;
    for (int d = 1; d < ndim; ++d) {
      bool mergeable = true;
      for (int i = 0; i < N; ++i) mergeable &= stride[i][d] == stride[i][k] * size[k];
      if (mergeable) {
        size[k] *= size[d];
      } else {
        ++k;
        size[k] = size[d];
        for (int i = 0; i < N; ++i) stride[i][k] = stride[i][d];
      }
    }
    if (ndim > 0) ndim = k + 1;
  }

  // Calls inner(ptrs, inner_strides, n) over [begin, end) of the flat (inner-first) index.
  template <typename Inner>
  void run_range(int64_t begin, int64_t end, Inner&& inner) const {
    if (ndim == 0) {
      char* p[N];
      for (int i = 0; i < N; ++i) p[i] = base[i];
      int64_t s[N] = {};
      inner(p, s, (int64_t)1);
      return;
    }
    int64_t idx[kMaxDims];
    int64_t rem = begin;
    for (int d = 0; d < ndim; ++d) {
      idx[d] = rem % size[d];
      rem /= size[d];
    }
    int64_t s0[N];
    for (int i = 0; i < N; ++i) s0[i] = stride[i][0];
    int64_t pos = begin;
    while (pos < end) {
      char* p[N];
      for (int i = 0; i < N; ++i) {
        p[i] = base[i];
        for (int d = 0; d < ndim; ++d) p[i] += idx[d] * stride[i][d];
      }
      int64_t n = std::min(size[0] - idx[0], end - pos);
      inner(p, s0, n);
      pos += n;
      idx[0] += n;
      for (int d = 0; d < ndim - 1 && idx[d] == size[d]; ++d) {
        idx[d] = 0;
        idx[d + 1]++;
      }
    }
  }

  template <typename Inner>
  void run(Inner&& inner) const {
    int64_t n = numel();
    parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) { run_range(b, e, inner); });
  }

 private:
  bool should_swap(int a, int b) const {  // is dim a (currently inner) really outer to dim b?
    for (int i = 0; i < N; ++i) {
      int64_t sa = stride[i][a], sb = stride[i][b];
      if (sa == 0 || sb == 0) continue;  // broadcast dims do not decide the order
      if (sa != sb) return sa > sb;
    }
    return false;
  }
  void swap_dims(int a, int b) {
    std::swap(size[a], size[b]);
    for (int i = 0; i < N; ++i) std::swap(stride[i][a], stride[i][b]);
  }
};

}  // namespace jt
