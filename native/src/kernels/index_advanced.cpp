#include "kernels/index_advanced.h"

#include <atomic>
#include <cstdint>

#include "parallel.h"

namespace jt {
namespace {

inline int64_t read_index(const AdvancedIndex& x, int64_t off) {
  return x.dtype == DType::Int64 ? reinterpret_cast<const int64_t*>(x.data)[off]
                                 : (int64_t) reinterpret_cast<const int32_t*>(x.data)[off];
}

// f(self_offset, other_offset) over elements [b, e) of the result, row-major; false at the first
// bad index (reported in bad), before f sees it.
template <typename F>
bool walk(const AdvancedPlan& p, int64_t b, int64_t e, int64_t* bad, F&& f) {
  const int n = p.ndim, k = p.nindices;
  int64_t pos[64] = {0}, so = 0, oo = 0, io[kMaxAdvancedIndices] = {0};
  int64_t rem = b;
  for (int d = n - 1; d >= 0; --d) {
    pos[d] = rem % p.shape[d];
    rem /= p.shape[d];
    so += pos[d] * p.self_strides[d];
    oo += pos[d] * p.other_strides[d];
    for (int j = 0; j < k; ++j) io[j] += pos[d] * p.indices[j].strides[d];
  }
  for (int64_t i = b; i < e; ++i) {
    int64_t s = so;
    for (int j = 0; j < k; ++j) {
      const AdvancedIndex& x = p.indices[j];
      int64_t v = read_index(x, io[j]);
      if ((uint64_t)v >= (uint64_t)x.size) {
        if (v < -x.size || v >= x.size) {
          bad[0] = v, bad[1] = j;
          return false;
        }
        v += x.size;
      }
      s += v * x.self_stride;
    }
    f(s, oo);
    for (int d = n - 1; d >= 0; --d) {  // odometer step
      so += p.self_strides[d];
      oo += p.other_strides[d];
      for (int j = 0; j < k; ++j) io[j] += p.indices[j].strides[d];
      if (++pos[d] < p.shape[d]) break;
      so -= p.self_strides[d] * p.shape[d];
      oo -= p.other_strides[d] * p.shape[d];
      for (int j = 0; j < k; ++j) io[j] -= p.indices[j].strides[d] * p.shape[d];
      pos[d] = 0;
    }
  }
  return true;
}

template <typename T>
bool run(const AdvancedPlan& p, int64_t n, int64_t* bad) {
  T* self = reinterpret_cast<T*>(p.self);
  T* other = reinterpret_cast<T*>(p.other);
  if (p.put) {  // every index checked before a byte of self changes, then a serial write
    if (!walk(p, 0, n, bad, [](int64_t, int64_t) {})) return false;
    // checked again as it writes: another thread may change an index between the passes (a race
    // whose values are undefined, as PyTorch's, but which must not write outside self)
    return walk(p, 0, n, bad, [self, other](int64_t s, int64_t o) { self[s] = other[o]; });
  }
  std::atomic<bool> ok{true};
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    int64_t mine[2];
    if (!walk(p, b, e, mine, [self, other](int64_t s, int64_t o) { other[o] = self[s]; })) ok.store(false);
  });
  if (ok.load()) return true;
  walk(p, 0, n, bad, [](int64_t, int64_t) {});  // the first bad index, in order
  return false;
}

}  // namespace

int index_advanced(const AdvancedPlan& p, int64_t* bad) {
  if (p.ndim < 0 || p.ndim > 64 || p.nindices < 1 || p.nindices > kMaxAdvancedIndices) return -1;
  for (int j = 0; j < p.nindices; ++j)
    if (p.indices[j].dtype != DType::Int64 && p.indices[j].dtype != DType::Int32) return -1;
  int64_t n = 1;
  for (int d = 0; d < p.ndim; ++d) n *= p.shape[d];
  if (n == 0) return 0;
  bool ok = true;
  switch (dtype_size(p.dtype)) {  // get and put only move bytes
    case 1: ok = run<uint8_t>(p, n, bad); break;
    case 2: ok = run<uint16_t>(p, n, bad); break;
    case 4: ok = run<uint32_t>(p, n, bad); break;
    case 8: ok = run<uint64_t>(p, n, bad); break;
    default: return -1;
  }
  return ok ? 0 : 1;
}

}  // namespace jt
