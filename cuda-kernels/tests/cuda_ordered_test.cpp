// The CUDA scan (both paths), sort, nonzero and linspace on a GPU (CTest label cuda), against the
// CPU kernels on the same bytes: exact, since the data are chosen so that every float sum and
// product is exact in any order. Without a GPU it reports why and fails.
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jtc/jtc.h"

namespace {
constexpr int kCuda = JT_DEVICE_CUDA;
enum : int64_t { Int64 = 5, Float32 = 8, Float64 = 9 };
using V = std::vector<int64_t>;

V cat(std::initializer_list<V> parts) {
  V out;
  for (const V& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// A CUDA storage holding bytes, released at scope exit.
struct Dev {
  int64_t storage, addr, nbytes;
  explicit Dev(int64_t n) : storage(jt_storage_new(kCuda, n > 0 ? n : 1)), addr(jt_storage_data(storage)), nbytes(n) {}
  template <typename T>
  explicit Dev(const std::vector<T>& host) : Dev((int64_t)(host.size() * sizeof(T))) {
    CHECK_EQ(jtc_write_bytes(addr, host.data(), nbytes), JT_OK);
  }
  ~Dev() { jt_storage_release(storage); }
  template <typename T>
  std::vector<T> read() const {
    std::vector<T> v((size_t)(nbytes / (int64_t)sizeof(T)));
    CHECK_EQ(jtc_read_bytes(addr, v.data(), nbytes), JT_OK);
    return v;
  }
};

// rows x cols of small integers (cumprod: only 1 and -1), as T.
template <typename T>
std::vector<T> data(int64_t rows, int64_t cols, bool signs) {
  std::vector<T> v((size_t)(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = signs ? (T)((i * 7 + i / 13) % 3 ? 1 : -1) : (T)((int64_t)((i * 2654435761u) % 11) - 5);
  return v;
}

template <typename T>
void scan(const char* op, int64_t dtype, int64_t out_dtype, int64_t rows, int64_t cols, int64_t dim) {
  const bool prod = std::strcmp(op, "cumprod") == 0;
  std::vector<T> in = data<T>(rows, cols, prod), cpu(in.size());
  Dev din(in), dout((int64_t)(in.size() * sizeof(T)));
  V plan = cat({{JT_PLAN_VERSION, jt_scan_op_id(op), dtype, out_dtype, 2, dim, (int64_t)cpu.data(), (int64_t)in.data(), 0},
                {rows, cols}, {cols, 1}, {cols, 1}, {cols, 1}});
  CHECK_EQ(jt_scan(plan.data()), JT_OK);
  plan[6] = dout.addr;
  plan[7] = din.addr;
  CHECK_EQ(jtc_scan(plan.data()), JT_OK);
  CHECK(dout.read<T>() == cpu);
}

void sort(int64_t rows, int64_t cols, int64_t dim, bool descending) {
  std::vector<float> in = data<float>(rows, cols, false), cpu_v(in.size());
  V cpu_i(in.size());
  Dev din(in), dv((int64_t)(in.size() * 4)), di((int64_t)(in.size() * 8));
  V plan = cat({{JT_PLAN_VERSION, Float32, 2, dim, descending, (int64_t)cpu_v.data(), (int64_t)cpu_i.data(), (int64_t)in.data()},
                {rows, cols}, {cols, 1}, {cols, 1}, {1, rows}});  // the input read transposed
  CHECK_EQ(jt_sort(plan.data()), JT_OK);
  plan[5] = dv.addr, plan[6] = di.addr, plan[7] = din.addr;
  CHECK_EQ(jtc_sort(plan.data()), JT_OK);
  CHECK(dv.read<float>() == cpu_v);
  CHECK(di.read<int64_t>() == cpu_i);
}

void nonzero(int64_t rows, int64_t cols) {
  std::vector<double> in = data<double>(rows, cols, false);
  Dev din(in);
  V plan = cat({{JT_PLAN_VERSION, Float64, 2, (int64_t)in.data(), 0, 0}, {rows, cols}, {1, rows}});
  int64_t count = 0, gpu_count = -1;
  CHECK_EQ(jt_nonzero(plan.data(), &count), JT_OK);
  V cpu((size_t)(2 * count));
  plan[4] = (int64_t)cpu.data(), plan[5] = count;
  CHECK_EQ(jt_nonzero(plan.data(), &count), JT_OK);
  Dev dout(16 * count);
  plan[3] = din.addr, plan[4] = 0, plan[5] = 0;
  CHECK_EQ(jtc_nonzero(plan.data(), &gpu_count), JT_OK);
  CHECK_EQ(gpu_count, count);
  plan[4] = dout.addr, plan[5] = count;
  CHECK_EQ(jtc_nonzero(plan.data(), &gpu_count), JT_OK);
  CHECK(dout.read<int64_t>() == cpu);
}

void linspace(int64_t steps, double start, double end) {
  std::vector<float> cpu((size_t)steps);
  Dev d(steps * 4);
  jt_linspace((int64_t)cpu.data(), Float32, steps, start, end);
  CHECK_EQ(jtc_linspace(d.addr, Float32, steps, start, end), JT_OK);
  CHECK(d.read<float>() == cpu);
}
}  // namespace

int main() {
  const int err = jtc_init();
  if (err != 0) {
    std::fprintf(stderr, "cuda_ordered_test: no usable GPU (cudaError %d)\n", err);
    return 1;
  }
  for (int64_t dim : {0, 1}) {
    scan<float>("cumsum", Float32, Float32, 64, 3000, dim);    // dim 1: a block per long line
    scan<float>("cumprod", Float32, Float32, 5000, 7, dim);    // a thread per line
    scan<int64_t>("cumsum", Int64, Int64, 3, 100000, dim);
    scan<double>("cumprod", Float64, Float64, 20, 2048, dim);
    sort(100, 5000, dim, false);
    sort(3, 70000, dim, true);
  }
  nonzero(3000, 1777);
  linspace(1000003, -3.5, 7.25);
  return jt_report("cuda_ordered_test");
}
