// The kernels through the C API, on real data with known answers: every plan kind, strided and
// broadcast operands, float16, integer wrap-around, and the refusals (bad version, output dtype,
// index or probability). Buffers come from the caching allocator, so under the sanitizer build a
// read past a tensor's bytes or into a freed block is caught.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <vector>

#include "check.h"
#include "exact_trig.h"
#include "large_trig_cases.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jt/trig_reduction.h"
#include "kernels/fast_exp.h"

namespace {

enum : int64_t { Bool = 0, Int8 = 2, Int32 = 4, Int64 = 5, Float16 = 6, BFloat16 = 7, Float32 = 8, Float64 = 9 };
using V = std::vector<int64_t>;

// A buffer of n elements of T from the CPU caching allocator, released at scope exit.
template <typename T>
struct Buf {
  int64_t storage;
  T* p;
  explicit Buf(std::vector<T> init) : storage(jt_storage_new(JT_DEVICE_CPU, (int64_t)(init.size() * sizeof(T)))) {
    p = reinterpret_cast<T*>(jt_storage_data(storage));
    std::memcpy(p, init.data(), init.size() * sizeof(T));
  }
  ~Buf() { jt_storage_release(storage); }
  int64_t addr() const { return (int64_t)p; }
};

V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

int64_t bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

// An elementwise plan over shape: addresses (0 for a scalar), each operand's strides, scalars as
// one (bits, dtype << 1 | integral) pair per operand, alpha as the first parameter.
V ew(const char* op, int64_t dtype, int64_t out_dtype, V shape, V addrs, std::vector<V> strides, V scalars, double alpha = 1) {
  const int64_t nops = (int64_t)addrs.size(), ndim = (int64_t)shape.size();
  V st;
  for (auto& s : strides) st.insert(st.end(), s.begin(), s.end());
  scalars.resize((size_t)(2 * nops), 0);
  return cat({{JT_PLAN_VERSION, jt_ew_op_id(op), dtype, out_dtype, nops, ndim},
              {bits(alpha), 0, 0, 0, (int64_t)alpha, 0, 0, 0}, addrs, scalars, shape, st});
}

void elementwise() {
  Buf<float> a({1, 2, 3, 4, 5, 6}), b({10, 20, 30, 40, 50, 60}), out(std::vector<float>(6));
  CHECK_EQ(jt_elementwise(ew("add", Float32, Float32, {6}, {out.addr(), a.addr(), b.addr()}, {{1}, {1}, {1}}, {}, 2).data()), JT_OK);
  CHECK(out.p[0] == 21 && out.p[5] == 126);
  // b seen transposed (2x3 over a 3x2 buffer) plus a broadcast row of a
  CHECK_EQ(jt_elementwise(ew("add", Float32, Float32, {2, 3}, {out.addr(), a.addr(), b.addr()}, {{3, 1}, {0, 1}, {1, 2}}, {}).data()), JT_OK);
  CHECK(out.p[0] == 11 && out.p[1] == 32 && out.p[3] == 21 && out.p[5] == 63);
  // int32: a scalar operand, and wrap-around where C++ signed arithmetic would be undefined
  Buf<int32_t> i({INT_MAX, INT_MIN, 7, -7}), io(std::vector<int32_t>(4));
  CHECK_EQ(jt_elementwise(ew("add", Int32, Int32, {4}, {io.addr(), i.addr(), 0}, {{1}, {1}, {0}}, {0, 0, 0, 0, 1, Int32 << 1 | 1}).data()), JT_OK);
  CHECK(io.p[0] == INT_MIN && io.p[2] == 8);
  CHECK_EQ(jt_elementwise(ew("mul", Int32, Int32, {4}, {io.addr(), i.addr(), i.addr()}, {{1}, {1}, {1}}, {}).data()), JT_OK);
  CHECK(io.p[0] == 1 && io.p[1] == 0 && io.p[2] == 49);
  Buf<int32_t> neg1({-1, -1, -1, -1});
  CHECK_EQ(jt_elementwise(ew("div_floor", Int32, Int32, {4}, {io.addr(), i.addr(), neg1.addr()}, {{1}, {1}, {1}}, {}).data()), JT_OK);
  CHECK(io.p[1] == INT_MIN && io.p[2] == -7);  // INT_MIN / -1 wraps, as PyTorch
  CHECK_EQ(jt_elementwise(ew("div_trunc", Int32, Int32, {4}, {io.addr(), i.addr(), neg1.addr()}, {{1}, {1}, {1}}, {}).data()), JT_OK);
  CHECK(io.p[1] == INT_MIN);
  CHECK_EQ(jt_elementwise(ew("neg", Int32, Int32, {4}, {io.addr(), i.addr()}, {{1}, {1}}, {}).data()), JT_OK);
  CHECK(io.p[0] == -INT_MAX && io.p[1] == INT_MIN);
  // float16: the scalar rounds once (1 + 2^-11 + 2^-40 -> 0x3c01)
  Buf<uint16_t> h({0, 0}), ho(std::vector<uint16_t>(2));
  CHECK_EQ(jt_elementwise(ew("add", Float16, Float16, {2}, {ho.addr(), h.addr(), 0}, {{1}, {1}, {0}},
                             {0, 0, 0, 0, bits(1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), Float16 << 1}).data()), JT_OK);
  CHECK(ho.p[0] == 0x3c01 && ho.p[1] == 0x3c01);
  // refusals: another layout version, an output dtype the kernel does not write, no kernel
  V old = ew("add", Float32, Float32, {6}, {out.addr(), a.addr(), b.addr()}, {{1}, {1}, {1}}, {});
  old[0] = JT_PLAN_VERSION + 1;
  CHECK_EQ(jt_elementwise(old.data()), JT_INVALID);
  CHECK_EQ(jt_elementwise(ew("eq", Float32, Float32, {6}, {out.addr(), a.addr(), b.addr()}, {{1}, {1}, {1}}, {}).data()), JT_INVALID);
  CHECK_EQ(jt_elementwise(ew("gelu", Int32, Int32, {4}, {io.addr(), i.addr()}, {{1}, {1}}, {}).data()), JT_NO_KERNEL);
}

void reduce_scan_fill_copy() {
  Buf<float> x({1, 2, 3, 4, 5, 6}), sums(std::vector<float>(2));
  V red = cat({{JT_PLAN_VERSION, jt_reduce_op_id("sum"), Float32, Float32, 2, sums.addr(), x.addr(), 0, bits(1.0)},
               {2, 3}, {1, 0}, {3, 1}, {0, 1}});  // sum over dim 1 of a 2x3
  CHECK_EQ(jt_reduce(red.data()), JT_OK);
  CHECK(sums.p[0] == 6 && sums.p[1] == 15);
  red[3] = Float64;  // not what sum of float32 writes
  CHECK_EQ(jt_reduce(red.data()), JT_INVALID);
  Buf<int32_t> c({1, 2, 3}), co({0, 0, 0});
  Buf<int64_t> cs(std::vector<int64_t>(3));
  V scan = cat({{JT_PLAN_VERSION, jt_scan_op_id("cumsum"), Int32, Int64, 1, 0, cs.addr(), c.addr(), 0}, {3}, {1}, {1}, {1}});
  CHECK_EQ(jt_scan(scan.data()), JT_OK);
  CHECK(cs.p[0] == 1 && cs.p[2] == 6);
  Buf<int8_t> f(std::vector<int8_t>(5));
  CHECK_EQ(jt_fill(cat({{JT_PLAN_VERSION, 1, f.addr(), Int8, 1, -3}, {5}, {1}}).data()), JT_OK);
  CHECK(f.p[0] == -3 && f.p[4] == -3);
  Buf<double> d(std::vector<double>(6));
  CHECK_EQ(jt_copy(cat({{JT_PLAN_VERSION, 2, d.addr(), Float64, x.addr(), Float32}, {3, 2}, {2, 1}, {1, 3}}).data()), JT_OK);
  CHECK(d.p[0] == 1 && d.p[1] == 4 && d.p[5] == 6);  // the transpose, converted
}

void gemm() {
  Buf<float> a({1, 2, 3, 4, 5, 6}), b({1, 0, 0, 1, 1, 1}), c(std::vector<float>(4));  // 2x3 @ 3x2
  V g = {JT_PLAN_VERSION, Float32, Float32, 2, 2, 3, a.addr(), b.addr(), c.addr(), 3, 1, 2, 1, 2, 1, bits(1.0), bits(0.0), 0};
  CHECK_EQ(jt_gemm(g.data()), JT_OK);
  CHECK(c.p[0] == 4 && c.p[1] == 5 && c.p[2] == 10 && c.p[3] == 11);
}

// A BLAS stand-in with cblas_sgemm's signature (row-major; 111 no transpose, 112 transpose) that counts its calls.
int g_sgemm_calls = 0;
void reference_sgemm(int, int ta, int tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                     float* c, int ldc) {
  ++g_sgemm_calls;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int q = 0; q < k; ++q) sum += (ta == 111 ? a[i * lda + q] : a[q * lda + i]) * (tb == 111 ? b[q * ldb + j] : b[j * ldb + q]);
      c[i * ldc + j] = alpha * sum + (beta == 0 ? 0.0f : beta * c[i * ldc + j]);
    }
}

// bfloat16 products go to the registered sgemm through float32 copies from the caching allocator;
// with no memory left for the copies, the loops give the same product without calling it.
void widened_gemm() {
  const int64_t m = 128, k = 160, n = 3;  // A's copy is 80 KiB: more than any free space the fillers leave
  std::vector<uint16_t> as((size_t)(m * k)), bs((size_t)(k * n));
  auto bf16 = [](int v) { float f = (float)v; uint32_t u; std::memcpy(&u, &f, 4); return (uint16_t)(u >> 16); };
  for (size_t i = 0; i < as.size(); ++i) as[i] = bf16((int)(i * 7 % 3) - 1);
  for (size_t i = 0; i < bs.size(); ++i) bs[i] = bf16((int)(i * 5 % 3) - 1);
  Buf<uint16_t> a(as), b(bs), c(std::vector<uint16_t>((size_t)(m * n)));
  V g = {JT_PLAN_VERSION, BFloat16, BFloat16, m, n, k, a.addr(), b.addr(), c.addr(), k, 1, n, 1, n, 1, bits(1.0), bits(0.0), 0};
  auto exact = [&]() {  // small integers: every sum exact in float32 and in bfloat16
    bool ok = true;
    int64_t nonzero = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int sum = 0;
        for (int64_t q = 0; q < k; ++q) sum += ((int)(i * k + q) * 7 % 3 - 1) * ((int)(q * n + j) * 5 % 3 - 1);  // |sum| <= 160: exact in bfloat16
        ok = ok && c.p[i * n + j] == bf16(sum);
        nonzero += sum != 0;
      }
    return ok && nonzero > m * n / 3;  // 170 of 384 are not 0: zeros alone would pass for an untouched C
  };
  jt_blas_register(reinterpret_cast<int64_t>(&reference_sgemm), 0, 0);
  CHECK_EQ(jt_gemm(g.data()), JT_OK);
  CHECK(g_sgemm_calls > 0);
  CHECK(exact());
  std::fill(c.p, c.p + m * n, (uint16_t)0);
  const int64_t limit = jt_memory_limit(JT_DEVICE_CPU);
  jt_empty_cache(JT_DEVICE_CPU);
  jt_set_memory_limit(JT_DEVICE_CPU, 1);  // no new segment; the free space left in the buffers' filled below
  std::vector<int64_t> fillers;
  for (int64_t s; (s = jt_storage_new(JT_DEVICE_CPU, 64 << 10)) != 0;) fillers.push_back(s);
  const int calls = g_sgemm_calls;
  CHECK_EQ(jt_gemm(g.data()), JT_OK);
  CHECK_EQ(g_sgemm_calls, calls);  // the copies were refused: the loops ran
  CHECK(exact());
  for (int64_t s : fillers) jt_storage_release(s);
  jt_set_memory_limit(JT_DEVICE_CPU, limit);
  jt_blas_register(0, 0, 0);
}

void indexing() {
  Buf<float> self({10, 11, 12, 13}), out(std::vector<float>(3));
  Buf<int64_t> idx({3, 0, 1}), negative_idx({3, -4, 1}), bad_idx({0, 4, 1});
  int64_t bad[2] = {0, 0};
  V gather = cat({{JT_PLAN_VERSION, jt_index_along_mode("gather"), Float32, Int64, 1, 0, 4, self.addr(), idx.addr(), out.addr()},
                  {3}, {1}, {1}, {1}});
  CHECK_EQ(jt_index_along(gather.data(), bad), JT_OK);
  CHECK(out.p[0] == 13 && out.p[1] == 10 && out.p[2] == 11);
  gather[8] = negative_idx.addr();  // a negative index is refused, as PyTorch's gather refuses it
  CHECK_EQ(jt_index_along(gather.data(), bad), JT_INDEX_OUT_OF_RANGE);
  CHECK(bad[0] == -4);
  Buf<float> src({1, 2, 3});
  V scatter = cat({{JT_PLAN_VERSION, jt_index_along_mode("scatter"), Float32, Int64, 1, 0, 4, self.addr(), bad_idx.addr(),
                    src.addr()}, {3}, {1}, {1}, {1}});
  CHECK_EQ(jt_index_along(scatter.data(), bad), JT_INDEX_OUT_OF_RANGE);
  CHECK(bad[0] == 4 && self.p[0] == 10);  // reported, nothing written
  // scatter_reduce's modes combine repeated positions in index order; a NaN src wins amax and stays through amin
  Buf<int64_t> rep({1, 1, 2});
  Buf<float> factors({2, 3, 0.5f}), highs({20, std::nanf(""), 1}), lows({1, 5, 0});
  V reduce = cat({{JT_PLAN_VERSION, jt_index_along_mode("prod"), Float32, Int64, 1, 0, 4, self.addr(), rep.addr(), factors.addr()},
                  {3}, {1}, {1}, {1}});
  CHECK_EQ(jt_index_along(reduce.data(), bad), JT_OK);
  CHECK(self.p[0] == 10 && self.p[1] == 66 && self.p[2] == 6 && self.p[3] == 13);
  reduce[1] = jt_index_along_mode("amax");
  reduce[9] = highs.addr();
  CHECK_EQ(jt_index_along(reduce.data(), bad), JT_OK);
  CHECK(std::isnan(self.p[1]) && self.p[2] == 6);
  reduce[1] = jt_index_along_mode("amin");
  reduce[9] = lows.addr();
  CHECK_EQ(jt_index_along(reduce.data(), bad), JT_OK);
  CHECK(std::isnan(self.p[1]) && self.p[2] == 0 && self.p[0] == 10);
  // x[rows, cols] of a 3x4 with two index tensors broadcast: result [2]
  Buf<int32_t> m({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  Buf<int64_t> rows({2, 0}), cols({-1, 1});
  Buf<int32_t> got(std::vector<int32_t>(2));
  V adv = cat({{JT_PLAN_VERSION, 0, Int32, 1, 2, m.addr(), got.addr()}, {2}, {0}, {1}, {rows.addr(), cols.addr()},
               {Int64, Int64}, {3, 4}, {4, 1}, {1, 1}});
  CHECK_EQ(jt_index_advanced(adv.data(), bad), JT_OK);
  CHECK(got.p[0] == 11 && got.p[1] == 1);
  Buf<int64_t> far({0, 5});
  adv[(size_t)(jt::index_advanced_plan(adv.data()).index_data - adv.data()) + 1] = far.addr();  // cols -> far
  adv[1] = 1;  // put
  CHECK_EQ(jt_index_advanced(adv.data(), bad), JT_INDEX_OUT_OF_RANGE);
  CHECK(bad[0] == 5 && bad[1] == 1 && m.p[8] == 8);
  // nonzero of a strided bool view
  Buf<uint8_t> mask({1, 0, 0, 1, 1, 0});
  int64_t found = 0;
  V nz = cat({{JT_PLAN_VERSION, Bool, 2, mask.addr(), 0, 0}, {3, 2}, {1, 3}});
  CHECK_EQ(jt_nonzero(nz.data(), &found), JT_OK);
  CHECK_EQ(found, 3);
  Buf<int64_t> coords(std::vector<int64_t>(6));
  nz[4] = coords.addr(), nz[5] = 3;
  CHECK_EQ(jt_nonzero(nz.data(), &found), JT_OK);
  CHECK(found == 3 && coords.p[1] == 0 && coords.p[3] == 1 && coords.p[4] == 1 && coords.p[5] == 1);  // (0,0) (0,1) (1,1)
}

void random_draws() {
  Buf<double> u(std::vector<double>(101));
  double bad = 0;
  V r = cat({{JT_PLAN_VERSION, jt_random_kind("uniform53"), Float64, 1, u.addr(), 42, 0, bits(-1.0), bits(1.0), 0},
             {101}, {1}, {0}});
  CHECK_EQ(jt_random(r.data(), &bad), JT_OK);
  bool in_range = true;
  for (int i = 0; i < 101; ++i) in_range &= u.p[i] >= -1 && u.p[i] < 1;
  CHECK(in_range && u.p[0] != u.p[1]);
  Buf<double> p({0.5, 1.5, 0.25});
  Buf<float> coin(std::vector<float>(3, 7.f));
  V bern = cat({{JT_PLAN_VERSION, jt_random_kind("bernoulli_tensor"), Float32, 1, coin.addr(), 1, 0, 0, 0, p.addr()},
                {3}, {1}, {1}});
  CHECK_EQ(jt_random(bern.data(), &bad), JT_VALUE_OUT_OF_RANGE);
  CHECK(bad == 1.5 && coin.p[0] == 7.f);  // refused before writing
}

void sorting() {
  // one 2x3 float32: rows sorted stably, NaN last ascending, first descending; a transposed input too
  const float nan = std::nanf("");
  Buf<float> x({3, nan, 1, 2, 2, -1}), v(std::vector<float>(6));
  Buf<int64_t> ix(std::vector<int64_t>(6));
  V sort = cat({{JT_PLAN_VERSION, Float32, 2, 1, 0, v.addr(), ix.addr(), x.addr()}, {2, 3}, {3, 1}, {3, 1}, {3, 1}});
  CHECK_EQ(jt_sort(sort.data()), JT_OK);
  CHECK(v.p[0] == 1 && v.p[1] == 3 && std::isnan(v.p[2]) && ix.p[0] == 2 && ix.p[2] == 1);
  CHECK(v.p[3] == -1 && ix.p[3] == 2 && ix.p[4] == 0 && ix.p[5] == 1);  // equal 2s keep their order
  sort[4] = 1;  // descending
  CHECK_EQ(jt_sort(sort.data()), JT_OK);
  CHECK(std::isnan(v.p[0]) && v.p[1] == 3 && ix.p[0] == 1 && ix.p[3] == 0 && ix.p[4] == 1);
  V bad = sort;
  bad[3] = 2;  // dim out of range
  CHECK_EQ(jt_sort(bad.data()), JT_INVALID);
}

void selecting() {
  // PyTorch 2.13's picks among ties: kthvalue's quickselect, mode's sorted run, nanmedian's nth_element
  const float nan = std::nanf("");
  Buf<float> x({3, 1, 2, 1, 2, 2, 5, 1});
  Buf<int64_t> ix(std::vector<int64_t>(1, -1));
  V sel = cat({{JT_PLAN_VERSION, 0, Float32, 1, 0, 1, ix.addr(), x.addr()}, {8}, {1}, {1}});  // the 2nd smallest
  CHECK_EQ(jt_select(sel.data()), JT_OK);
  CHECK_EQ(ix.p[0], 3);
  sel[1] = 1;  // mode: 1, at the last position its sorted run holds
  CHECK_EQ(jt_select(sel.data()), JT_OK);
  CHECK_EQ(ix.p[0], 7);
  Buf<float> nans(std::vector<float>(5, nan));
  V med = cat({{JT_PLAN_VERSION, 2, Float32, 1, 0, 0, ix.addr(), nans.addr()}, {5}, {1}, {1}});
  CHECK_EQ(jt_select(med.data()), JT_OK);
  CHECK_EQ(ix.p[0], 2);  // an all-NaN line: the NaN nth_element leaves first
  sel[1] = 0;
  sel[5] = 8;  // k past the line
  CHECK_EQ(jt_select(sel.data()), JT_INVALID);

  // searchsorted: lower and upper bounds, a NaN value last; a sorter entry outside its row is refused
  Buf<float> bd({1, 3, 3, 5}), in({0, 3, 4, 6, nan});
  Buf<int64_t> out(std::vector<int64_t>(5, -1)), sorter({0, 1, 2, 4});
  V search = {JT_PLAN_VERSION, Float32, Int64, 0, 5, 5, 1, 4, 1, out.addr(), in.addr(), bd.addr(), 0};
  CHECK_EQ(jt_search(search.data()), JT_OK);
  CHECK(out.p[0] == 0 && out.p[1] == 1 && out.p[2] == 3 && out.p[3] == 4 && out.p[4] == 4);
  search[3] = 1;  // right
  CHECK_EQ(jt_search(search.data()), JT_OK);
  CHECK(out.p[1] == 3 && out.p[4] == 4);
  search[12] = sorter.addr();
  CHECK_EQ(jt_search(search.data()), JT_INDEX_OUT_OF_RANGE);
}

// softmax along dim of a float32 [rows, cols] at in (strides is) into out (strides os), in float64.
double softmax_ref(const float* in, V sizes, V is, int dim, int64_t r, int64_t c, bool log) {
  const int64_t n = sizes[dim];
  double m = -INFINITY, s = 0, x = in[r * is[0] + c * is[1]];
  for (int64_t k = 0; k < n; ++k) m = std::fmax(m, in[(dim ? r : k) * is[0] + (dim ? k : c) * is[1]]);
  for (int64_t k = 0; k < n; ++k) s += std::exp(in[(dim ? r : k) * is[0] + (dim ? k : c) * is[1]] - m);
  return log ? x - m - std::log(s) : std::exp(x - m) / s;
}

void softmax() {
  // 2x3 by rows: known answers, softmax and log_softmax
  Buf<float> x({1, 2, 3, -1, 0, 1}), y(std::vector<float>(6));
  V plan = cat({{JT_PLAN_VERSION, 0, Float32, 2, 1, y.addr(), x.addr()}, {2, 3}, {3, 1}, {3, 1}});
  CHECK_EQ(jt_softmax(plan.data()), JT_OK);
  const double e = std::exp(1.0), z = 1 + e + e * e;
  CHECK(std::fabs(y.p[0] - 1 / z) < 1e-7 && std::fabs(y.p[5] - e * e / z) < 1e-7);
  plan[1] = 1;
  CHECK_EQ(jt_softmax(plan.data()), JT_OK);
  CHECK(std::fabs(y.p[2] - (2 - std::log(z))) < 1e-6 && std::fabs(y.p[3] + std::log(z)) < 1e-6);
  // 37x50 over both dims, contiguous and transposed input, outputs written transposed: the line,
  // strided and lane-block walks against float64
  std::vector<float> init(37 * 50);
  for (size_t i = 0; i < init.size(); ++i) init[i] = (float)((i * 7919 % 211) / 13.0 - 8);
  Buf<float> big(init), out(std::vector<float>(init.size()));
  bool close = true;
  for (V is : {V{50, 1}, V{1, 37}}) {
    for (V os : {V{50, 1}, V{1, 37}}) {
      for (int dim = 0; dim < 2; ++dim) {
        for (int64_t log = 0; log < 2; ++log) {
          V p = cat({{JT_PLAN_VERSION, log, Float32, 2, dim, out.addr(), big.addr()}, {37, 50}, os, is});
          CHECK_EQ(jt_softmax(p.data()), JT_OK);
          for (int64_t r = 0; r < 37; ++r)
            for (int64_t c = 0; c < 50; ++c)
              close &= std::fabs(out.p[r * os[0] + c * os[1]] - softmax_ref(big.p, {37, 50}, is, dim, r, c, log)) < 1e-5;
        }
      }
    }
  }
  CHECK(close);
  // rows of -inf, -inf beside a number, NaN and +inf, as PyTorch: NaN, 0 (log -inf), NaN, NaN
  const float inf = INFINITY, nan = std::nanf("");
  Buf<float> odd({-inf, -inf, -inf, 2, nan, 1, inf, 1}), q(std::vector<float>(8));
  V rows = cat({{JT_PLAN_VERSION, 0, Float32, 2, 1, q.addr(), odd.addr()}, {4, 2}, {2, 1}, {2, 1}});
  CHECK_EQ(jt_softmax(rows.data()), JT_OK);
  CHECK(std::isnan(q.p[0]) && std::isnan(q.p[1]) && q.p[2] == 0 && q.p[3] == 1);
  CHECK(std::isnan(q.p[4]) && std::isnan(q.p[5]) && std::isnan(q.p[6]) && std::isnan(q.p[7]));
  rows[1] = 1;
  CHECK_EQ(jt_softmax(rows.data()), JT_OK);
  CHECK(std::isnan(q.p[0]) && q.p[2] == -inf && q.p[3] == 0 && std::isnan(q.p[5]) && std::isnan(q.p[7]));
  // float16 accumulates in float: [0, 0] is [0.5, 0.5] exactly
  Buf<uint16_t> h({0, 0}), ho(std::vector<uint16_t>(2));
  CHECK_EQ(jt_softmax(cat({{JT_PLAN_VERSION, 0, Float16, 1, 0, ho.addr(), h.addr()}, {2}, {1}, {1}}).data()), JT_OK);
  CHECK(ho.p[0] == 0x3800 && ho.p[1] == 0x3800);
  // the CPU kernel's vectorizable exp: within 1 ulp of the exact exp over its domain (every 61st
  // float of [-87.3, 0]; every float checked when it was written), 0 below it, NaN kept
  double worst = 0;
  const float lo = -87.33654f;
  uint32_t last;
  std::memcpy(&last, &lo, 4);
  for (uint32_t b = 0x80000000u; b <= last; b += 61) {
    float xf;
    std::memcpy(&xf, &b, 4);
    const double want = std::exp((double)xf), ulp = std::nextafter((float)want, INFINITY) - (float)want;
    worst = std::fmax(worst, std::fabs(jt::exp_nonpositive(xf) - want) / ulp);
  }
  CHECK(worst <= 1.0);
  CHECK(jt::exp_nonpositive(-inf) == 0 && jt::exp_nonpositive(-88.f) == 0 && std::isnan(jt::exp_nonpositive(nan)));
  CHECK(jt::exp_nonpositive(0.f) == 1 && jt::exp_nonpositive(-0.f) == 1);
  // refusals: integers have no kernel; a dim out of range or another version is invalid
  Buf<int32_t> ints({1, 2});
  CHECK_EQ(jt_softmax(cat({{JT_PLAN_VERSION, 0, Int32, 1, 0, ints.addr(), ints.addr()}, {2}, {1}, {1}}).data()), JT_NO_KERNEL);
  V bad = plan;
  bad[4] = 2;
  CHECK_EQ(jt_softmax(bad.data()), JT_INVALID);
  bad = plan;
  bad[0] = JT_PLAN_VERSION + 1;
  CHECK_EQ(jt_softmax(bad.data()), JT_INVALID);
}

}  // namespace

// The direct convolution's scratch comes from the caching allocator: refused past the memory
// limit, each mode answers JT_OUT_OF_MEMORY (no exception on a worker thread, no write past a
// buffer); with the limit lifted, the forward equals a plain loop.
void convolution_scratch() {
  const int64_t C = 16, H = 40, taps = 9;
  std::vector<float> xs((size_t)(C * H * H)), ws((size_t)(C * C * taps));
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = (float)((int64_t)(i * 7919 % 13) - 6) / 8;
  for (size_t i = 0; i < ws.size(); ++i) ws[i] = (float)((int64_t)(i * 104729 % 11) - 5) / 16;
  Buf<float> x(xs), w(ws), y(std::vector<float>((size_t)(C * H * H))), gw(std::vector<float>(ws.size()));
  // stride 2: the channels-in-lanes kernels (conv_lanes.cpp), whose scratch is refused the same way
  auto plan = [&](int64_t mode, int64_t stride = 1) {
    const int64_t out = (H - 1) / stride + 1;
    return cat({{JT_PLAN_VERSION, mode, Float32, 2, 1, C, C, 1, x.addr(), mode == 2 ? gw.addr() : w.addr(), 0, y.addr()},
                {H, H}, {out, out}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {stride, stride}});
  };
  const int64_t limit = jt_memory_limit(JT_DEVICE_CPU);
  jt_empty_cache(JT_DEVICE_CPU);
  jt_set_memory_limit(JT_DEVICE_CPU, 1);  // no new segment; the free space left in the buffers' filled below
  std::vector<int64_t> fillers;
  for (int64_t s; (s = jt_storage_new(JT_DEVICE_CPU, 64 << 10)) != 0;) fillers.push_back(s);
  for (int64_t stride = 1; stride <= 2; ++stride)
    for (int64_t mode = 0; mode < 3; ++mode) {
      const int st = jt_conv(plan(mode, stride).data());
      if (st != JT_OUT_OF_MEMORY) std::printf("stride %d mode %d: status %d\n", (int)stride, (int)mode, st);
      CHECK_EQ(st, JT_OUT_OF_MEMORY);
    }
  for (int64_t s : fillers) jt_storage_release(s);
  jt_set_memory_limit(JT_DEVICE_CPU, limit);
  CHECK_EQ(jt_conv(plan(0).data()), JT_OK);
  int bad = 0;
  for (int64_t o = 0; o < C; o += 5)
    for (int64_t a = 0; a < H; a += 3)
      for (int64_t b = 0; b < H; b += 7) {
        double want = 0;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) {
              const int64_t r = a + i - 1, q = b + j - 1;
              if (r >= 0 && r < H && q >= 0 && q < H) want += (double)xs[(size_t)((c * H + r) * H + q)] * ws[(size_t)(((o * C + c) * 3 + i) * 3 + j)];
            }
        bad += std::fabs(y.p[(o * H + a) * H + b] - want) > 1e-3 * (1 + std::fabs(want));
      }
  CHECK_EQ(bad, 0);
  for (int64_t mode = 1; mode < 3; ++mode) CHECK_EQ(jt_conv(plan(mode).data()), JT_OK);
  for (int64_t mode = 0; mode < 3; ++mode) CHECK_EQ(jt_conv(plan(mode, 2).data()), JT_OK);
}

// grid_sample through jt_grid_sample: a grid at the pixel centres (align_corners 0) reads the input
// back in every 2-D mode and 3-D mode; plans it has no kernel for are refused, nothing written.
void grid_sampling() {
  const int64_t H = 3, W = 4;
  std::vector<double> xs((size_t)(H * W)), gs((size_t)(H * W * 3));
  for (int64_t i = 0; i < H * W; ++i) {
    xs[(size_t)i] = (double)(i * 7 % 5) - 2.5;
    gs[(size_t)(3 * i)] = (2.0 * (i % W) + 1) / W - 1;  // x, y (and z = 0: the one depth plane's centre)
    gs[(size_t)(3 * i + 1)] = (2.0 * (i / W) + 1) / H - 1;
    gs[(size_t)(3 * i + 2)] = 0;
  }
  std::vector<double> g2;
  for (int64_t i = 0; i < H * W; ++i) g2.insert(g2.end(), {gs[(size_t)(3 * i)], gs[(size_t)(3 * i + 1)]});
  Buf<double> x(xs), grid2(g2), grid3(gs), y(std::vector<double>((size_t)(H * W), 7.0));
  auto plan = [&](int64_t mode, int64_t nsp) {
    return V{JT_PLAN_VERSION, 0, Float64, mode, 0, 0, nsp, 1, 1, 1, H, W, 1, H, W, x.addr(),
             nsp == 2 ? grid2.addr() : grid3.addr(), y.addr(), 0, 0, 0};
  };
  for (int64_t nsp = 2; nsp <= 3; ++nsp)
    for (int64_t mode = 0; mode < (nsp == 2 ? 3 : 2); ++mode) {
      std::fill(y.p, y.p + H * W, 7.0);
      CHECK_EQ(jt_grid_sample(plan(mode, nsp).data()), JT_OK);
      int bad = 0;
      for (int64_t i = 0; i < H * W; ++i) bad += std::fabs(y.p[i] - xs[(size_t)i]) > 1e-12;
      CHECK_EQ(bad, 0);
    }
  std::fill(y.p, y.p + H * W, 7.0);
  V bicubic3 = plan(2, 3), nsp4 = plan(0, 4), half = plan(0, 2);
  half[2] = Float16;
  CHECK_EQ(jt_grid_sample(bicubic3.data()), JT_INVALID);
  CHECK_EQ(jt_grid_sample(nsp4.data()), JT_INVALID);
  CHECK_EQ(jt_grid_sample(half.data()), JT_NO_KERNEL);
  CHECK_EQ(y.p[0], 7.0);
}

// float64 sin, cos and tan through the elementwise kernel at angles within 40 ulps of k pi/2,
// k = -8..64, where the results cross zero or one: within 1 ulp of the exact value. MinGW's sin
// and cos were off by up to 6e14 ulp there (functors.h's sin_of).
void float64_trigonometry_near_multiples_of_half_pi() {
  std::vector<double> angles;
  for (int k = -8; k <= 64; ++k) {
    double th = k * (M_PI / 2);
    for (int s = 0; s < 40; ++s) th = std::nextafter(th, -1e9);
    for (int s = 0; s < 80; ++s, th = std::nextafter(th, 1e9)) angles.push_back(th);
  }
  const int64_t n = (int64_t)angles.size();
  Buf<double> in(angles), out(std::vector<double>(angles.size()));
  for (const char* op : {"sin", "cos", "tan"}) {
    CHECK_EQ(jt_elementwise(ew(op, Float64, Float64, {n}, {out.addr(), in.addr()}, {{1}, {1}}, {}).data()), JT_OK);
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double th = angles[(size_t)i];
      const long double s = jt_test::exact_sin_cos(th, true), c = jt_test::exact_sin_cos(th, false);
      const long double want = op[0] == 's' ? s : op[0] == 'c' ? c : s / c;
      worst = std::fmax(worst, jt_test::ulps(out.p[i], want));
    }
    std::printf("  float64 %s near k pi/2: worst %.3f ulp\n", op, worst);
    CHECK(worst <= 1.0);
  }
}

// sin and cos of angles in every binade from 2^20 up to a double's largest, against
// large_trig_cases.h (correctly rounded, computed in integers by make_large_trig_cases.py):
// fp::sin_cos_any (Windows' own, tested here on every platform) within 1 ulp; the elementwise
// kernels within 10 float64 ulps (glibc's cos is 8 off at the hardest angle; MinGW's were 1e5 to
// 1e18 off) and 1 float ulp at the float-sized angles.
void large_angle_trigonometry() {
  std::vector<double> angles;
  std::vector<float> small;  // the angles a float holds exactly
  for (const auto& c : jt_test::kLargeTrigCases) {
    angles.push_back(c.angle);
    if ((double)(float)c.angle == c.angle) small.push_back((float)c.angle);
  }
  CHECK(small.size() >= 40);
  const int64_t n = (int64_t)angles.size(), nf = (int64_t)small.size();
  Buf<double> in(angles), out(std::vector<double>(angles.size()));
  Buf<float> inf(small), outf(std::vector<float>(small.size()));
  for (const bool sine : {true, false}) {
    const char* op = sine ? "sin" : "cos";
    CHECK_EQ(jt_elementwise(ew(op, Float64, Float64, {n}, {out.addr(), in.addr()}, {{1}, {1}}, {}).data()), JT_OK);
    CHECK_EQ(jt_elementwise(ew(op, Float32, Float32, {nf}, {outf.addr(), inf.addr()}, {{1}, {1}}, {}).data()), JT_OK);
    double own = 0, kernel = 0, kernel_float = 0;
    for (int64_t i = 0, j = 0; i < n; ++i) {
      const auto& c = jt_test::kLargeTrigCases[i];
      const double want = sine ? c.sine : c.cosine;
      own = std::fmax(own, jt_test::ulps(jt::fp::sin_cos_any(c.angle, sine), want));
      kernel = std::fmax(kernel, jt_test::ulps(out.p[i], want));
      if (j < nf && (double)small[(size_t)j] == c.angle) {
        const float w = (float)want, ulp = std::nextafter(std::fabs(w), INFINITY) - std::fabs(w);
        kernel_float = std::fmax(kernel_float, std::fabs(outf.p[j++] - w) / ulp);
      }
    }
    std::printf("  %s of %lld angles from 2^20 up: fp::sin_cos_any worst %.3f ulp, kernel %.3f ulp, float kernel %.3f ulp\n", op,
                (long long)n, own, kernel, kernel_float);
    CHECK(own <= 1.0);
    CHECK(kernel <= 10.0);
    CHECK(kernel_float <= 1.0);
  }
  CHECK(std::isnan(jt::fp::sin_cos_any(INFINITY, true)) && std::isnan(jt::fp::sin_cos_any(-INFINITY, false)));
  CHECK(std::signbit(jt::fp::sin_cos_any(-0.0, true)) && jt::fp::sin_cos_any(-0.0, false) == 1.0);
}

// LU, its solve and Cholesky (kernels/linalg.cpp) with LAPACK's answers (PyTorch 2.13's lu_factor
// and cholesky for these matrices), a singular and an indefinite matrix as info entries, the
// blocked LU (n >= 128) by its residual, and a dtype with no kernel.
void factorizations() {
  Buf<double> a({1, 2, 3, 4, 1, 2, 2, 4});  // two 2x2 matrices; the second singular
  Buf<int32_t> piv(std::vector<int32_t>(4)), info(std::vector<int32_t>(2));
  CHECK_EQ(jt_lu_factor(a.addr(), Float64, 2, 2, piv.addr(), info.addr()), JT_OK);
  CHECK(a.p[0] == 3 && a.p[1] == 4 && std::fabs(a.p[2] - 1.0 / 3) < 1e-15 && std::fabs(a.p[3] - 2.0 / 3) < 1e-15);
  CHECK(piv.p[0] == 2 && piv.p[1] == 2 && info.p[0] == 0);
  CHECK(info.p[1] == 2 && a.p[7] == 0);  // U[2,2] is zero: reported, the factorization completed
  Buf<double> zero_pivot({0, 1, NAN, 1});  // LAPACK's update still runs past a zero pivot: U[2,2] is NaN, det NaN
  Buf<int32_t> zp_piv(std::vector<int32_t>(2)), zp_info(std::vector<int32_t>(1));
  CHECK_EQ(jt_lu_factor(zero_pivot.addr(), Float64, 1, 2, zp_piv.addr(), zp_info.addr()), JT_OK);
  CHECK(zp_info.p[0] == 1 && zp_piv.p[0] == 1 && std::isnan(zero_pivot.p[2]) && std::isnan(zero_pivot.p[3]));
  Buf<double> b({1, 1});
  CHECK_EQ(jt_lu_solve(a.addr(), piv.addr(), Float64, 1, 2, 1, b.addr()), JT_OK);
  CHECK(std::fabs(b.p[0] + 1) < 1e-15 && std::fabs(b.p[1] - 1) < 1e-15);  // [[1,2],[3,4]] x = [1,1]
  Buf<float> spd({4, 100, 2, 3, 1, 2, 2, 1});  // the 100 is above the diagonal: never read
  CHECK_EQ(jt_cholesky(spd.addr(), Float32, 2, 2, info.addr()), JT_OK);
  CHECK(spd.p[0] == 2 && spd.p[1] == 0 && spd.p[2] == 1 && std::fabs(spd.p[3] - std::sqrt(2.0f)) < 1e-6f);
  CHECK(info.p[0] == 0 && info.p[1] == 2);
  CHECK_EQ(jt_lu_factor(a.addr(), Int64, 1, 2, piv.addr(), info.addr()), JT_NO_KERNEL);
  const int64_t n = 130;  // past the blocking threshold: panels and a GEMM update
  std::vector<double> m((size_t)(n * n)), rhs((size_t)n, 1.0);
  for (int64_t i = 0; i < n * n; ++i) m[(size_t)i] = std::cos(1.7 * (double)(i / n) * (double)(i % n) + 0.3 * (double)(i / n));
  Buf<double> big(m), x(rhs);
  Buf<int32_t> bp(std::vector<int32_t>((size_t)n)), bi(std::vector<int32_t>(1));
  CHECK_EQ(jt_lu_factor(big.addr(), Float64, 1, n, bp.addr(), bi.addr()), JT_OK);
  CHECK_EQ(jt_lu_solve(big.addr(), bp.addr(), Float64, 1, n, 1, x.addr()), JT_OK);
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) {
    double r = -1;
    for (int64_t j = 0; j < n; ++j) r += m[(size_t)(i * n + j)] * x.p[j];
    worst = std::fmax(worst, std::fabs(r));
  }
  CHECK(bi.p[0] == 0 && worst < 1e-9);
}

int main() {
  convolution_scratch();
  factorizations();
  grid_sampling();
  elementwise();
  float64_trigonometry_near_multiples_of_half_pi();
  large_angle_trigonometry();
  reduce_scan_fill_copy();
  gemm();
  widened_gemm();
  indexing();
  random_draws();
  sorting();
  selecting();
  softmax();
  return jt_report("kernels_test");
}
