// Builds plans for the benchmarks in the order jt/plans.h lists their fields, and checks the
// result by reading it back through the same reader the C API uses.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "jt/jt.h"
#include "jt/plans.h"

namespace bench {

// out = a + alpha * b over sizes, each operand by its strides (elements), float32.
inline std::vector<int64_t> add_plan(void* out, const void* a, const void* b, std::vector<int64_t> sizes,
                                     std::vector<std::vector<int64_t>> strides, double alpha = 1.0) {
  const int64_t f32 = 8, nops = 3, ndim = (int64_t)sizes.size();  // 8: jt::DType::Float32
  std::vector<int64_t> p = {JT_PLAN_VERSION, jt_ew_op_id("add"), f32, f32, nops, ndim};
  int64_t params[8] = {0};
  std::memcpy(&params[0], &alpha, 8);
  params[4] = (int64_t)alpha;
  p.insert(p.end(), params, params + 8);
  for (const void* ptr : {(const void*)out, a, b}) p.push_back((int64_t)ptr);
  p.insert(p.end(), 2 * nops, 0);  // no scalar operands
  p.insert(p.end(), sizes.begin(), sizes.end());
  for (auto& s : strides) p.insert(p.end(), s.begin(), s.end());
  jt::elementwise_plan r(p.data());
  if (r.nops != 3 || r.addresses[2] != (int64_t)b || r.strides[2 * ndim] != strides[2][0]) {
    std::fprintf(stderr, "bench: the add plan does not read back as written\n");
    std::exit(1);
  }
  return p;
}

// An index_along plan over 2-D (rows, cols) operands with int64 indices; mode 0 gather, 2 accumulate.
inline std::vector<int64_t> index_along_plan(int64_t mode, int64_t dtype, int64_t dim, int64_t dim_size, void* self,
                                             const int64_t* index, void* other, std::vector<int64_t> shape,
                                             std::vector<int64_t> self_strides, std::vector<int64_t> index_strides,
                                             std::vector<int64_t> other_strides) {
  const int64_t i64 = 5;  // jt::DType::Int64
  std::vector<int64_t> p = {JT_PLAN_VERSION, mode, dtype, i64, (int64_t)shape.size(), dim, dim_size,
                            (int64_t)self, (int64_t)index, (int64_t)other};
  for (auto* v : {&shape, &self_strides, &index_strides, &other_strides}) p.insert(p.end(), v->begin(), v->end());
  jt::index_along_plan r(p.data());
  if (r.other != (int64_t)other || r.other_strides[0] != other_strides[0]) {
    std::fprintf(stderr, "bench: the index_along plan does not read back as written\n");
    std::exit(1);
  }
  return p;
}

}  // namespace bench
