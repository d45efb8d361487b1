// The public entry points of the vectorized kernels (kernels/vectorized/), each forwarded to the
// capability in use; the table lookups, the same in every capability, to the baseline's.
#include <atomic>
#include <cstdlib>
#include <cstring>

#include "kernels/cpu_capability.h"
#include "kernels/elementwise.h"
#include "kernels/kernels.h"
#include "kernels/random.h"
#include "kernels/reduce.h"

#define JT_DECLARE_CAPABILITY(ns)                      \
  namespace jt {                                       \
  namespace ns {                                       \
  int elementwise_op_id(const char* name);             \
  int elementwise_op_count();                          \
  const char* elementwise_op_name(int op);             \
  int elementwise_op_info(int op, int dtype);          \
  int elementwise_run(const EwPlan& p);                \
  int reduce_op_id(const char* name);                  \
  int reduce_out_dtype(int op, int dtype);             \
  int reduce_run(const RedPlan& p);                    \
  int softmax_run(const SoftmaxPlan& p);               \
  int norm_run(const norm_plan& r);                    \
  int attention_run(const attention_plan& r);          \
  int conv_run(const conv_plan& r);                    \
  int windows_run(const windows_plan& r);              \
  int max_pool_run(const max_pool_plan& r);            \
  int random_kind_id(const char* name);                \
  int random_run(const RandomPlan& p, double* bad);    \
  }                                                    \
  }
// Which capabilities this build compiled (cmake defines JT_HAVE_CPU_CAP_<cap>): x86-64 builds all
// three, other architectures the baseline alone, and scripts/sanitize.sh the baseline and the
// host's best (cmake's JT_ONLY_CPU_CAPS), the only one its suites run. The baseline always: the
// others leave some dtypes to it. Each capability's #if below is the one place that says so.
JT_DECLARE_CAPABILITY(baseline)
#if defined(JT_HAVE_CPU_CAP_avx2)
JT_DECLARE_CAPABILITY(avx2)
#define JT_CASE_AVX2(call) case CpuCapability::Avx2: return avx2::call;
static constexpr bool kCompiledAvx2 = true;
#else
#define JT_CASE_AVX2(call)
static constexpr bool kCompiledAvx2 = false;
#endif
#if defined(JT_HAVE_CPU_CAP_avx512)
JT_DECLARE_CAPABILITY(avx512)
#define JT_CASE_AVX512(call) case CpuCapability::Avx512: return avx512::call;
static constexpr bool kCompiledAvx512 = true;
#else
#define JT_CASE_AVX512(call)
static constexpr bool kCompiledAvx512 = false;
#endif

namespace jt {
namespace {

CpuCapability detect() {
#if !defined(__x86_64__)
  return CpuCapability::Baseline;  // aarch64: NEON is part of the base architecture
#else
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
    return CpuCapability::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::Avx2;
  return CpuCapability::Baseline;
#endif
}

bool compiled(CpuCapability c) {
  return c == CpuCapability::Baseline || (c == CpuCapability::Avx2 && kCompiledAvx2) ||
         (c == CpuCapability::Avx512 && kCompiledAvx512);
}

// JT_CPU_CAPABILITY=baseline|avx2|avx512 lowers the choice (as PyTorch's ATEN_CPU_CAPABILITY);
// a capability above the CPU's, or an unknown name, is ignored.
CpuCapability initial() {
  const CpuCapability best = cpu_capability_supported();
  const char* env = std::getenv("JT_CPU_CAPABILITY");
  if (env) {
    for (int c = 0; c <= (int)best; ++c)
      if (compiled((CpuCapability)c) && std::strcmp(env, cpu_capability_name((CpuCapability)c)) == 0) return (CpuCapability)c;
  }
  return best;
}

std::atomic<int>& current() {
  static std::atomic<int> c{(int)initial()};
  return c;
}

}  // namespace

const char* cpu_capability_name(CpuCapability c) {
  switch (c) {
    case CpuCapability::Avx512: return "avx512";
    case CpuCapability::Avx2: return "avx2";
    default: return "baseline";
  }
}

CpuCapability cpu_capability_supported() {
  static const CpuCapability best = [] {  // the best this CPU runs of those compiled
    int c = (int)detect();
    while (!compiled((CpuCapability)c)) --c;
    return (CpuCapability)c;
  }();
  return best;
}

CpuCapability cpu_capability() { return (CpuCapability)current().load(std::memory_order_relaxed); }

bool set_cpu_capability(CpuCapability c) {
  if ((int)c < 0 || (int)c > (int)cpu_capability_supported() || !compiled(c)) return false;
  current().store((int)c, std::memory_order_relaxed);
  return true;
}

#define JT_FORWARD(call)           \
  switch (cpu_capability()) {      \
    JT_CASE_AVX512(call)           \
    JT_CASE_AVX2(call)             \
    default: return baseline::call; \
  }

int elementwise_op_id(const char* name) { return baseline::elementwise_op_id(name); }
int elementwise_op_count() { return baseline::elementwise_op_count(); }
const char* elementwise_op_name(int op) { return baseline::elementwise_op_name(op); }
int elementwise_op_info(int op, int dtype) { return baseline::elementwise_op_info(op, dtype); }
int elementwise_run(const EwPlan& p) { JT_FORWARD(elementwise_run(p)) }
int reduce_op_id(const char* name) { return baseline::reduce_op_id(name); }
int reduce_out_dtype(int op, int dtype) { return baseline::reduce_out_dtype(op, dtype); }
int reduce_run(const RedPlan& p) { JT_FORWARD(reduce_run(p)) }
int softmax_run(const SoftmaxPlan& p) { JT_FORWARD(softmax_run(p)) }
int norm_run(const norm_plan& r) { JT_FORWARD(norm_run(r)) }
int attention_run(const attention_plan& r) { JT_FORWARD(attention_run(r)) }
int conv_run(const conv_plan& r) { JT_FORWARD(conv_run(r)) }
int windows_run(const windows_plan& r) { JT_FORWARD(windows_run(r)) }
int max_pool_run(const max_pool_plan& r) { JT_FORWARD(max_pool_run(r)) }
int random_kind_id(const char* name) { return baseline::random_kind_id(name); }
int random_run(const RandomPlan& p, double* bad) { JT_FORWARD(random_run(p, bad)) }

}  // namespace jt
