// The plain C loops the benchmarks measure jtensor against ("the machine's limit"): written the
// obvious way, single-threaded, on the caller's preallocated buffers. Not used by any op.
#include <cstdint>

#include "jt/jt.h"

namespace {
float* F(int64_t a) { return reinterpret_cast<float*>(a); }
}  // namespace

void jt_ref_add_f32(int64_t dst, int64_t a, int64_t b, int64_t n) {
  float *d = F(dst), *x = F(a), *y = F(b);
  for (int64_t i = 0; i < n; ++i) d[i] = x[i] + y[i];
}

// The sum of a rows x cols row-major matrix: over everything (dim -1), over dim 0 (one per column)
// or over dim 1 (one per row).
void jt_ref_sum_f32(int64_t dst, int64_t src, int64_t rows, int64_t cols, int dim) {
  float *d = F(dst), *x = F(src);
  if (dim < 0) {
    float s = 0;
    for (int64_t i = 0; i < rows * cols; ++i) s += x[i];
    d[0] = s;
  } else if (dim == 0) {
    for (int64_t j = 0; j < cols; ++j) d[j] = 0;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) d[j] += x[i * cols + j];
  } else {
    for (int64_t i = 0; i < rows; ++i) {
      float s = 0;
      for (int64_t j = 0; j < cols; ++j) s += x[i * cols + j];
      d[i] = s;
    }
  }
}
