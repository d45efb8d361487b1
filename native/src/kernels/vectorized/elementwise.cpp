// The elementwise engine: one table of (op, dtype) kernels built from the functors in
// jt/functors.h. Each kernel walks a coalesced strided iteration with a contiguous path, a
// scalar (stride 0) path and a strided path; float16/bfloat16 load to float, compute, store back.
#include "kernels/elementwise.h"

#include <cstring>
#include <string>

#include "jt/functors.h"
#include "kernels/strided.h"

#include "kernels/vectorized/capability_namespace.h"

JT_CPU_CAP_BEGIN
namespace {

template <typename F, typename T>
using out_t = typename std::conditional<F::predicate, bool, T>::type;

template <int N>
StridedIter<N> make_iter(const EwPlan& p, const size_t* elem) {
  StridedIter<N> it;
  it.ndim = p.ndim;
  for (int k = 0; k < N; ++k) {
    it.base[k] = p.ptr[k];
    it.elem[k] = (int64_t)elem[k];
  }
  for (int d = 0; d < p.ndim; ++d) {
    it.size[d] = p.sizes[d];
    for (int k = 0; k < N; ++k) it.stride[k][d] = p.strides[k][d] * (int64_t)elem[k];
  }
  it.coalesce();
  return it;
}

// A plan Java flattened to one dim (every operand contiguous or a scalar) and too small to
// split across threads runs its inner loop directly: a small op's fixed cost is most of its time.
template <int N, typename Inner>
void run_plan(const EwPlan& p, const size_t* elem, Inner&& inner) {
  if (p.ndim == 1 && p.sizes[0] < kGrainSize) {
    char* d[N];
    int64_t s[N];
    for (int k = 0; k < N; ++k) {
      d[k] = p.ptr[k];
      s[k] = p.strides[k][0] * (int64_t)elem[k];
    }
    inner(d, s, p.sizes[0]);
    return;
  }
  make_iter<N>(p, elem).run(inner);
}

template <typename F, typename T>
void unary_kernel(const EwPlan& p) {
  using O = out_t<F, T>;
  using A = opmath_t<T>;
  const size_t elem[2] = {sizeof(O), sizeof(T)};
  const Params prm = p.params;
  run_plan<2>(p, elem, [&](char* const* d, const int64_t* s, int64_t n) {
    if (s[0] == (int64_t)sizeof(O) && s[1] == (int64_t)sizeof(T)) {
      O* out = reinterpret_cast<O*>(d[0]);
      const T* a = reinterpret_cast<const T*>(d[1]);
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), prm);
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O*>(d[0] + i * s[0]) = (O)F::apply((A)load_elem(reinterpret_cast<const T*>(d[1] + i * s[1])), prm);
    }
  });
}

template <typename F, typename T>
void binary_kernel(const EwPlan& p) {
  using O = out_t<F, T>;
  using A = opmath_t<T>;
  const size_t elem[3] = {sizeof(O), sizeof(T), sizeof(T)};
  const Params prm = p.params;
  constexpr int64_t so = sizeof(O), st = sizeof(T);
  run_plan<3>(p, elem, [&](char* const* d, const int64_t* s, int64_t n) {
    O* out = reinterpret_cast<O*>(d[0]);
    const T* a = reinterpret_cast<const T*>(d[1]);
    const T* b = reinterpret_cast<const T*>(d[2]);
    if (s[0] == so && s[1] == st && s[2] == st) {
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), (A)load_elem(b + i), prm);
    } else if (s[0] == so && s[1] == st && s[2] == 0) {
      const A bv = (A)load_elem(b);
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), bv, prm);
    } else if (s[0] == so && s[1] == 0 && s[2] == st) {
      const A av = (A)load_elem(a);
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply(av, (A)load_elem(b + i), prm);
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<O*>(d[0] + i * s[0]) = (O)F::apply((A)load_elem(reinterpret_cast<const T*>(d[1] + i * s[1])),
                                                             (A)load_elem(reinterpret_cast<const T*>(d[2] + i * s[2])), prm);
    }
  });
}

template <typename F, typename T>
void ternary_kernel(const EwPlan& p) {
  using A = opmath_t<T>;
  const size_t elem[4] = {sizeof(T), sizeof(T), sizeof(T), sizeof(T)};
  const Params prm = p.params;
  run_plan<4>(p, elem, [&](char* const* d, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<T*>(d[0] + i * s[0]) = (T)F::apply((A)load_elem(reinterpret_cast<const T*>(d[1] + i * s[1])),
                                                           (A)load_elem(reinterpret_cast<const T*>(d[2] + i * s[2])),
                                                           (A)load_elem(reinterpret_cast<const T*>(d[3] + i * s[3])), prm);
  });
}

// where(cond, a, b): the condition is bool whatever T is
template <typename T>
void where_kernel(const EwPlan& p) {
  const size_t elem[4] = {sizeof(T), sizeof(bool), sizeof(T), sizeof(T)};
  run_plan<4>(p, elem, [&](char* const* d, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i)
      *reinterpret_cast<T*>(d[0] + i * s[0]) = load_elem(reinterpret_cast<const bool*>(d[1] + i * s[1]))
                                                   ? load_elem(reinterpret_cast<const T*>(d[2] + i * s[2]))
                                                   : load_elem(reinterpret_cast<const T*>(d[3] + i * s[3]));
  });
}

using Kernel = void (*)(const EwPlan&);

struct OpEntry {
  const char* name;
  int arity;
  bool predicate;
  std::array<Kernel, kNumDTypes> by_dtype;
};

template <typename F, int Arity, typename T>
constexpr Kernel pick() {
  if constexpr (!F::template ok<opmath_t<T>>) {
    return nullptr;
  } else if constexpr (Arity == 1) {
    return &unary_kernel<F, T>;
  } else if constexpr (Arity == 2) {
    return &binary_kernel<F, T>;
  } else {
    return &ternary_kernel<F, T>;
  }
}

#define JT_KERNEL_ROW(F, arity) per_dtype<Kernel>([](auto t) { return pick<F, arity, typename decltype(t)::type>(); })
#define JT_UNARY_ENTRY(name) {#name, 1, name##_op::predicate, JT_KERNEL_ROW(name##_op, 1)},
#define JT_BINARY_ENTRY(name) {#name, 2, name##_op::predicate, JT_KERNEL_ROW(name##_op, 2)},
#define JT_TERNARY_ENTRY(name) {#name, 3, false, JT_KERNEL_ROW(name##_op, 3)},

const OpEntry kOps[] = {
    JT_UNARY_OPS(JT_UNARY_ENTRY) JT_BINARY_OPS(JT_BINARY_ENTRY) JT_TERNARY_OPS(JT_TERNARY_ENTRY)
    {"where", 3, false, per_dtype<Kernel>([](auto t) { return &where_kernel<typename decltype(t)::type>; })},
};
constexpr int kNumOps = sizeof(kOps) / sizeof(kOps[0]);

}  // namespace

int elementwise_op_id(const char* name) {
  for (int i = 0; i < kNumOps; ++i)
    if (std::strcmp(kOps[i].name, name) == 0) return i;
  return -1;
}

int elementwise_op_count() { return kNumOps; }

const char* elementwise_op_name(int op) { return op >= 0 && op < kNumOps ? kOps[op].name : nullptr; }

int elementwise_op_info(int op, int dtype) {
  if (op < 0 || op >= kNumOps || dtype < 0 || dtype >= kNumDTypes) return -1;
  const OpEntry& e = kOps[op];
  if (!e.by_dtype[dtype]) return 0;
  return 1 | (e.arity << 1) | (e.predicate ? 16 : 0);
}

int elementwise_run(const EwPlan& p) {
  if (p.op < 0 || p.op >= kNumOps) return -1;
  Kernel k = kOps[p.op].by_dtype[(int)p.dtype];
  if (!k) return -1;
  k(p);
  return 0;
}

JT_CPU_CAP_END
