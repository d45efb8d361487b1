// The CUDA elementwise path for transposed operands (transposed_rows.cuh) run on the host: which
// calls take it, each chunk's tiled transpose emulated block by block (both phases, a tile in
// between), and the op on each chunk's dense call through the shared functors, against the CPU's
// jt_elementwise on the same data: equal bits, over odd sizes, several chunks and padded strides.
#include <cstring>
#include <vector>

#include "check.h"
#include "jt/jt.h"
#include "transposed_rows.cuh"

using namespace jt;
using namespace jt::cuda;

namespace {

using V = std::vector<int64_t>;

int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// A float32 plan of op over [rows, cols]: out dense, a and b at the strides given (elements).
V plan(const char* op, int64_t rows, int64_t cols, const float* out, const float* a, V as, const float* b, V bs) {
  V p = {JT_PLAN_VERSION, jt_ew_op_id(op), (int64_t)DType::Float32, (int64_t)DType::Float32, 3, 2};
  const V params = {bits(1.5), 0, 0, 0, 1, 0, 0, 0};  // alpha 1.5
  p.insert(p.end(), params.begin(), params.end());
  p.insert(p.end(), {(int64_t)out, (int64_t)a, (int64_t)b, 0, 0, 0, 0, 0, 0, rows, cols, cols, 1});
  p.insert(p.end(), as.begin(), as.end());
  p.insert(p.end(), bs.begin(), bs.end());
  return p;
}

// What launch_transposed does, with the kernels emulated; false when the call would not take the path.
template <typename F>
bool run_transposed(const V& words, int64_t chunk_rows) {
  const int64_t slots[3] = {0, 0, 0}, elem[3] = {4, 4, 4};
  EwArgs<3> a;
  CHECK(prepare<3>(elementwise_plan(words.data()), slots, elem, 4, a));
  TransposedRows<3> t;
  if (!find_transposed_rows<3>(a, elem, t)) return false;
  CHECK(t.chunk % 32 == 0 && t.chunk >= 32);
  t.chunk = chunk_rows;
  std::vector<float> scratch[3];
  char* chunk_of[3] = {};
  for (int k = 0; k < 3; ++k)
    if (t.transposed[k]) scratch[k].resize((size_t)(chunk_rows * t.cols)), chunk_of[k] = reinterpret_cast<char*>(scratch[k].data());
  for (int64_t r0 = 0; r0 < t.rows; r0 += chunk_rows) {
    const int64_t r1 = r0 + chunk_rows < t.rows ? r0 + chunk_rows : t.rows, rows = r1 - r0;
    for (int k = 0; k < 3; ++k) {
      if (!t.transposed[k]) continue;
      const char* src = a.ptr[k] + r0 * a.g.stride[k][0];
      for (int by = 0; by * kTile < rows; ++by)
        for (int bx = 0; bx * kTile < t.cols; ++bx) {
          uint32_t tile[kTile][kTile + 1];
          for (int ty = 0; ty < kTileRows; ++ty)
            for (int tx = 0; tx < kTile; ++tx) tile_read<uint32_t>(tile, src, rows, t.cols, t.col_stride[k], bx, by, tx, ty);
          for (int ty = 0; ty < kTileRows; ++ty)
            for (int tx = 0; tx < kTile; ++tx)
              tile_write<uint32_t>(tile, reinterpret_cast<uint32_t*>(chunk_of[k]), rows, t.cols, bx, by, tx, ty);
        }
    }
    EwArgs<3> c;
    chunk_args<3>(a, t, r0, r1, chunk_of, elem, c);
    choose_mode(c, elem, 4);
    CHECK(c.mode != kStrided);
    for (int64_t i = 0; i < c.n; ++i) {
      int64_t off[3];
      c.g.offsets(i, off);
      const float x = *reinterpret_cast<const float*>(c.ptr[1] + off[1]), y = *reinterpret_cast<const float*>(c.ptr[2] + off[2]);
      *reinterpret_cast<float*>(c.ptr[0] + off[0]) = F::apply(x, y, c.params);
    }
  }
  return true;
}

template <typename F>
void check_case(const char* op, int64_t rows, int64_t cols, bool a_transposed, int64_t b_pad, int64_t chunk_rows) {
  const int64_t n = rows * cols, b_col = rows + b_pad;
  std::vector<float> a((size_t)n), b((size_t)(b_col * cols)), cpu((size_t)n), gpu((size_t)n);
  for (size_t i = 0; i < a.size(); ++i) a[i] = (float)((int64_t)(i * 37 % 101) - 50) / 8;
  for (size_t i = 0; i < b.size(); ++i) b[i] = (float)((int64_t)(i * 53 % 97) - 48) / 4 + (i % 7 == 0 ? 0.5f : 1.25f);
  const V as = a_transposed ? V{1, rows} : V{cols, 1}, bs = {1, b_col};
  V cpu_plan = plan(op, rows, cols, cpu.data(), a.data(), as, b.data(), bs);
  CHECK_EQ(jt_elementwise(cpu_plan.data()), JT_OK);
  CHECK(run_transposed<F>(plan(op, rows, cols, gpu.data(), a.data(), as, b.data(), bs), chunk_rows));
  CHECK(std::memcmp(cpu.data(), gpu.data(), (size_t)n * 4) == 0);
}

}  // namespace

int main() {
  check_case<add_op>("add", 300, 257, false, 0, 64);   // b transposed: chunks of 64 rows, a partial last one
  check_case<add_op>("add", 1000, 70, false, 3, 32);   // b a transposed slice of a taller matrix
  check_case<mul_op>("mul", 257, 300, true, 0, 96);    // both inputs transposed
  check_case<div_op>("div", 4096, 17, true, 5, 4096);  // one chunk
  // not taken: a small call, an output that is not dense, an input contiguous along neither dim or broadcast
  std::vector<float> x(1 << 18), y(1 << 18), z(1 << 18);
  CHECK(!run_transposed<add_op>(plan("add", 16, 16, z.data(), x.data(), {16, 1}, y.data(), {1, 16}), 32));
  V strided_out = plan("add", 512, 256, z.data(), x.data(), {256, 1}, y.data(), {1, 512});
  strided_out[25] = 1, strided_out[26] = 512;  // the output's strides (after 6 fields, 8 params, 3 addresses, 6 scalars, 2 sizes): transposed
  CHECK(!run_transposed<add_op>(strided_out, 32));
  CHECK(!run_transposed<add_op>(plan("add", 256, 256, z.data(), x.data(), {256, 1}, y.data(), {2, 512}), 32));
  CHECK(!run_transposed<add_op>(plan("add", 512, 256, z.data(), x.data(), {256, 1}, y.data(), {1, 0}), 32));  // a broadcast column
  return jt_report("transposed_host_test");
}
