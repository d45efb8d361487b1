// A reduce plan made ready for a kernel: its dims split into kept ones (where each output and its
// input row start; and arg reductions' values) and reduced ones (the elements folded into each).
#pragma once
#include <cstdint>
#include <cstring>

#include "geometry.cuh"
#include "jt/dtype.h"
#include "jt/jt.h"
#include "jt/plans.h"

namespace jt {
namespace cuda {

struct RedArgs {
  const char* in;
  char* out;
  char* values;         // arg reductions' values (input dtype, out's strides); may be null
  Geometry<3> kept;     // per output: [0] into out, [1] into in, [2] into values
  Geometry<1> reduced;  // the reduced elements into in, in row-major order
  int64_t nout, nred, chunk;  // chunk: reduced elements per split
  int64_t in_elem;            // bytes per input element
  int splits;
  bool columns;               // reduce.cu's column mode: a thread per output
  double divisor;  // floating sums are divided by it (mean: the count; 1: none)
};

inline int prepare_reduce(const reduce_plan& r, RedArgs& a) {
  if (!r.current() || !valid_dtype((int)r.dtype) || !valid_dtype((int)r.out_dtype) || r.ndim < 0 || r.ndim > 64)
    return JT_INVALID;
  a.in = reinterpret_cast<const char*>(r.in);
  a.out = reinterpret_cast<char*>(r.out);
  a.values = reinterpret_cast<char*>(r.values);
  std::memcpy(&a.divisor, &r.divisor, 8);
  int64_t ksize[64], kout[64], kin[64], rsize[64], rin[64];
  int nk = 0, nr = 0;
  for (int d = 0; d < r.ndim; ++d) {
    if (r.reduced[d]) rsize[nr] = r.sizes[d], rin[nr++] = r.in_strides[d];
    else ksize[nk] = r.sizes[d], kout[nk] = r.out_strides[d], kin[nk++] = r.in_strides[d];
  }
  const int64_t in_elem = (int64_t)dtype_size((DType)r.dtype);
  const int64_t kelem[3] = {(int64_t)dtype_size((DType)r.out_dtype), in_elem, in_elem};
  const int64_t* kstrides[3] = {kout, kin, kout};
  const int64_t* rstrides[1] = {rin};
  if (!a.kept.build(nk, ksize, kstrides, kelem) || !a.reduced.build(nr, rsize, rstrides, &in_elem)) return JT_INVALID;
  a.nout = a.nred = 1;
  for (int d = 0; d < nk; ++d) a.nout *= ksize[d];
  for (int d = 0; d < nr; ++d) a.nred *= rsize[d];
  a.splits = 1;
  a.chunk = a.nred;
  a.in_elem = in_elem;
  a.columns = false;
  return JT_OK;
}

// argmax (is_max) or argmin of a prepared plan with nout > 0 (arg_reduce.cu).
int arg_reduce_run(bool is_max, DType dtype, RedArgs& a);

}  // namespace cuda
}  // namespace jt
