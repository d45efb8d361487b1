#include "kernels/nonzero.h"

#include <algorithm>
#include <vector>

#include "parallel.h"

namespace jt {
namespace {

// The source split into fixed chunks (independent of the thread count): f(chunk, begin, end).
template <typename F>
void over_chunks(int64_t n, int64_t chunks, F&& f) {
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) f(c, n * c / chunks, n * (c + 1) / chunks);
  });
}

// g(e, offset, pos) for elements [b, e) in row-major order, pos the coordinates.
template <typename G>
void walk(const NonzeroPlan& p, int64_t b, int64_t e, G&& g) {
  int64_t pos[64], off = 0, rem = b;
  for (int k = p.ndim - 1; k >= 0; --k) {
    pos[k] = rem % p.sizes[k];
    rem /= p.sizes[k];
    off += pos[k] * p.strides[k];
  }
  for (int64_t i = b; i < e; ++i) {
    g(off, pos);
    for (int k = p.ndim - 1; k >= 0; --k) {
      off += p.strides[k];
      if (++pos[k] < p.sizes[k]) break;
      off -= p.strides[k] * p.sizes[k];
      pos[k] = 0;
    }
  }
}

template <typename T>
bool nonzero_at(const char* src, int64_t off) {
  return convert<bool, T>(load_elem(reinterpret_cast<const T*>(src) + off));
}

int64_t numel(const NonzeroPlan& p) {
  int64_t n = 1;
  for (int k = 0; k < p.ndim; ++k) n *= p.sizes[k];
  return n;
}

int64_t chunks_for(int64_t n) { return std::max<int64_t>(1, std::min<int64_t>(256, n / kGrainSize)); }

}  // namespace

int64_t count_nonzero(const NonzeroPlan& p) {
  const int64_t n = numel(p), chunks = chunks_for(n);
  if (n == 0) return 0;  // (and no size to divide positions by)
  std::vector<int64_t> counts((size_t)chunks, 0);
  dispatch_dtype(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    over_chunks(n, chunks, [&](int64_t c, int64_t b, int64_t e) {
      int64_t k = 0;
      walk(p, b, e, [&](int64_t off, const int64_t*) { k += nonzero_at<T>(p.src, off); });
      counts[(size_t)c] = k;
    });
  });
  int64_t total = 0;
  for (int64_t k : counts) total += k;
  return total;
}

int64_t nonzero_coords(const NonzeroPlan& p, int64_t* out, int64_t rows) {
  const int64_t n = numel(p), chunks = chunks_for(n);
  if (n == 0) return 0;
  std::vector<int64_t> start((size_t)chunks + 1, 0);
  dispatch_dtype(p.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    over_chunks(n, chunks, [&](int64_t c, int64_t b, int64_t e) {  // each chunk's count
      int64_t k = 0;
      walk(p, b, e, [&](int64_t off, const int64_t*) { k += nonzero_at<T>(p.src, off); });
      start[(size_t)c + 1] = k;
    });
    for (int64_t c = 0; c < chunks; ++c) start[(size_t)c + 1] += start[(size_t)c];
    over_chunks(n, chunks, [&](int64_t c, int64_t b, int64_t e) {  // then each chunk's rows, from its start
      int64_t row = start[(size_t)c];
      walk(p, b, e, [&](int64_t off, const int64_t* pos) {
        if (!nonzero_at<T>(p.src, off)) return;
        if (row < rows) std::copy(pos, pos + p.ndim, out + row * p.ndim);  // never past the rows allocated
        ++row;
      });
    });
  });
  return start[(size_t)chunks];
}

}  // namespace jt
