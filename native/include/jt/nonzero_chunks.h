// nonzero on either device, by chunks of the source in row-major order (host and device code): each
// chunk's non-zero elements are counted, the counts summed on the host into each chunk's first
// output row, and then each chunk writes its coordinates, so the rows come out in row-major order.
// The CPU runs chunks on its threads (kernels/nonzero.cpp), CUDA a thread per chunk (nonzero.cu).
#pragma once
#include <cstdint>

#include "jt/dtype.h"
#include "jt/plans.h"

namespace jt {

struct NonzeroArgs {
  static constexpr int kMaxDims = 64;  // a plan's limit
  DType dtype;
  int ndim;
  const char* src;
  int64_t* out;  // [rows, ndim] int64
  int64_t rows, n, chunk, chunks;
  int64_t size[kMaxDims];
  int64_t stride[kMaxDims];  // elements
};

// Chunks of at least min_chunk elements, at most max_chunks of them; false for a plan no kernel can run.
inline bool prepare_nonzero(const nonzero_plan& r, int64_t min_chunk, int64_t max_chunks, NonzeroArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype) || r.ndim < 0 || r.ndim > NonzeroArgs::kMaxDims || r.rows < 0) return false;
  a.dtype = (DType)r.dtype;
  a.ndim = (int)r.ndim;
  a.src = reinterpret_cast<const char*>(r.src);
  a.out = reinterpret_cast<int64_t*>(r.out);
  a.rows = r.rows;
  a.n = 1;
  for (int d = 0; d < a.ndim; ++d) a.size[d] = r.sizes[d], a.stride[d] = r.strides[d], a.n *= r.sizes[d];
  a.chunk = a.n / max_chunks + 1 > min_chunk ? a.n / max_chunks + 1 : min_chunk;
  a.chunks = (a.n + a.chunk - 1) / a.chunk;
  return true;
}

// f(offset, coordinates) for each element of chunk c in row-major order.
template <typename F>
JT_HOST_DEVICE void nonzero_walk(const NonzeroArgs& a, int64_t c, F&& f) {
  const int64_t b = c * a.chunk, e = b + a.chunk < a.n ? b + a.chunk : a.n;
  int64_t pos[NonzeroArgs::kMaxDims], off = 0, rem = b;
  for (int k = a.ndim - 1; k >= 0; --k) {
    pos[k] = rem % a.size[k];
    rem /= a.size[k];
    off += pos[k] * a.stride[k];
  }
  for (int64_t i = b; i < e; ++i) {
    f(off, pos);
    for (int k = a.ndim - 1; k >= 0; --k) {  // odometer step
      off += a.stride[k];
      if (++pos[k] < a.size[k]) break;
      off -= a.stride[k] * a.size[k];
      pos[k] = 0;
    }
  }
}

template <typename T>
JT_HOST_DEVICE bool nonzero_at(const NonzeroArgs& a, int64_t off) {
  return convert<bool, T>(load_elem(reinterpret_cast<const T*>(a.src) + off));
}

template <typename T>
JT_HOST_DEVICE int64_t nonzero_chunk_count(const NonzeroArgs& a, int64_t c) {
  int64_t k = 0;
  nonzero_walk(a, c, [&](int64_t off, const int64_t*) { k += nonzero_at<T>(a, off); });
  return k;
}

// Chunk c's coordinates from output row `row` on, never past the rows allocated.
template <typename T>
JT_HOST_DEVICE void nonzero_chunk_write(const NonzeroArgs& a, int64_t c, int64_t row) {
  nonzero_walk(a, c, [&](int64_t off, const int64_t* pos) {
    if (!nonzero_at<T>(a, off)) return;
    if (row < a.rows)
      for (int k = 0; k < a.ndim; ++k) a.out[row * a.ndim + k] = pos[k];
    ++row;
  });
}

}  // namespace jt
