// The elementwise engine: one table of (op, dtype) kernels built from the functors in
// jt/functors.h. A kernel is only its loops over contiguous operands (and a scalar operand for
// binary ops); one walk per operand count handles strides, broadcasts and transposed tiles, and
// passes non-contiguous runs and float16/bfloat16 (computed as float) through packed buffers. What
// is compiled per (op, dtype) is small: this file is built once per CPU capability.
#include "kernels/elementwise.h"

#include <cstring>
#include <string>

#include "jt/functors.h"
#include "kernels/strided.h"

#include "kernels/vectorized/capability_namespace.h"

#if !JT_CPU_CAP_IS_BASELINE
namespace jt::baseline {
int elementwise_run(const EwPlan& p);
}
#endif

JT_CPU_CAP_BEGIN
namespace {

template <typename F, typename T>
using out_t = typename std::conditional<F::predicate, bool, T>::type;

// How one operand is stored and how its loop sees it: float16/bfloat16 are computed as float, so
// their loops are float's and their elements pass through a float buffer; every other dtype is
// computed as stored. load/store move n elements `stride` bytes apart to/from a packed buffer.
struct OperandIO {
  int64_t size = 0;     // bytes of a stored element
  bool converts = false;
  void (*load)(char* dst, const char* src, int64_t stride, int64_t n) = nullptr;
  void (*store)(char* dst, int64_t stride, const char* src, int64_t n) = nullptr;
};

template <typename S>  // stored and computed as S (bool's bytes pass as they are: loops read load_elem)
void load_as_is(char* dst, const char* src, int64_t stride, int64_t n) {
  for (int64_t i = 0; i < n; ++i) reinterpret_cast<S*>(dst)[i] = *reinterpret_cast<const S*>(src + i * stride);
}
template <typename S>
void store_as_is(char* dst, int64_t stride, const char* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<S*>(dst + i * stride) = reinterpret_cast<const S*>(src)[i];
}
template <typename T>
void load_to_opmath(char* dst, const char* src, int64_t stride, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    reinterpret_cast<opmath_t<T>*>(dst)[i] = (opmath_t<T>)*reinterpret_cast<const T*>(src + i * stride);
}
template <typename T>
void store_from_opmath(char* dst, int64_t stride, const char* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(dst + i * stride) = (T)reinterpret_cast<const opmath_t<T>*>(src)[i];
}

template <typename T>  // an unsigned integer of T's size: what moves T's bytes
using bits_of = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t,
                std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T>
constexpr OperandIO io_of() {
  using S = bits_of<T>;
  if constexpr (std::is_same<opmath_t<T>, T>::value) return {sizeof(T), false, &load_as_is<S>, &store_as_is<S>};
  else return {sizeof(T), true, &load_to_opmath<T>, &store_from_opmath<T>};
}

// Whether F splits float into a vectorized common case and a few rare elements (sin_op, cos_op)
template <typename F, typename A, typename = void>
struct SplitsFloat : std::false_type {};
template <typename F, typename A>
struct SplitsFloat<F, A, std::void_t<decltype(F::rare(0.0f))>> : std::is_same<A, float> {};

// The only code compiled per (op, dtype): loops over contiguous operands of the computed type C.
// p[0] is the output, p[1..] the inputs; bit k of `scalars` marks input k as one element for all.
template <typename F, typename C>
struct Loops {
  using O = out_t<F, C>;
  using A = opmath_t<C>;
  static void unary(char* const* p, int64_t n, unsigned, const Params& prm) {
    O* out = reinterpret_cast<O*>(p[0]);
    const C* a = reinterpret_cast<const C*>(p[1]);
    if constexpr (SplitsFloat<F, A>::value) {
      // a block at a time: F::common over all (its loop has no call, so it vectorizes), then apply()
      // again where F::rare; the block's inputs are kept, as out may be a
      constexpr int64_t kBlock = 256;
      float x[kBlock];
      for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
        const int64_t m = n - i0 < kBlock ? n - i0 : kBlock;
        unsigned any = 0;
        for (int64_t j = 0; j < m; ++j) x[j] = (A)load_elem(a + i0 + j);
        for (int64_t j = 0; j < m; ++j) {
          out[i0 + j] = (O)F::common(x[j]);
          any |= (unsigned)F::rare(x[j]);
        }
        if (any)
          for (int64_t j = 0; j < m; ++j)
            if (F::rare(x[j])) out[i0 + j] = (O)F::apply(x[j], prm);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), prm);
    }
  }
  static void binary(char* const* p, int64_t n, unsigned scalars, const Params& prm) {
    O* out = reinterpret_cast<O*>(p[0]);
    const C* a = reinterpret_cast<const C*>(p[1]);
    const C* b = reinterpret_cast<const C*>(p[2]);
    if (scalars == 0) {
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), (A)load_elem(b + i), prm);
    } else if (scalars == 4) {
      const A bv = (A)load_elem(b);
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), bv, prm);
    } else if (scalars == 2) {
      const A av = (A)load_elem(a);
      for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply(av, (A)load_elem(b + i), prm);
    } else {
      const O v = (O)F::apply((A)load_elem(a), (A)load_elem(b), prm);
      for (int64_t i = 0; i < n; ++i) out[i] = v;
    }
  }
  static void ternary(char* const* p, int64_t n, unsigned, const Params& prm) {
    O* out = reinterpret_cast<O*>(p[0]);
    const C* a = reinterpret_cast<const C*>(p[1]);
    const C* b = reinterpret_cast<const C*>(p[2]);
    const C* c = reinterpret_cast<const C*>(p[3]);
    for (int64_t i = 0; i < n; ++i) out[i] = (O)F::apply((A)load_elem(a + i), (A)load_elem(b + i), (A)load_elem(c + i), prm);
  }
};

// where(cond, a, b): moves T's bytes (bool's read as 0/1), the condition read as bool
template <typename T>
void where_loop(char* const* p, int64_t n, unsigned, const Params&) {
  T* out = reinterpret_cast<T*>(p[0]);
  const bool* cond = reinterpret_cast<const bool*>(p[1]);
  const T* a = reinterpret_cast<const T*>(p[2]);
  const T* b = reinterpret_cast<const T*>(p[3]);
  for (int64_t i = 0; i < n; ++i) out[i] = load_elem(cond + i) ? load_elem(a + i) : load_elem(b + i);
}

struct Kernel {
  void (*loop)(char* const* p, int64_t n, unsigned scalars, const Params& prm) = nullptr;
  int inputs = 0;
  unsigned scalars_ok = 0;  // inputs the loop reads as one element (stride 0) without a buffer
  OperandIO io[4];
};

// One run of n elements of the walk (byte strides s): straight to the loop when every operand is
// contiguous (or a scalar it takes) and computed as stored; else in blocks through packed buffers.
template <int N>
void run_chunk(const Kernel& k, char* const* d, const int64_t* s, int64_t n, const Params& prm) {
  unsigned scalars = 0;
  bool direct = true;
  for (int i = 0; i < N; ++i) {
    if (i > 0 && s[i] == 0 && n > 1 && (k.scalars_ok >> i & 1)) scalars |= 1u << i;
    else if (n > 1 && s[i] != k.io[i].size) direct = false;
    direct &= !k.io[i].converts;
  }
  if (direct) {
    k.loop(d, n, scalars, prm);
    return;
  }
  constexpr int64_t kBlock = 256;
  alignas(64) char buffer[N][kBlock * 8];
  for (int64_t off = 0; off < n; off += kBlock) {
    const int64_t m = std::min(kBlock, n - off);
    char* q[N];
    unsigned sc = 0;
    for (int i = 1; i < N; ++i) {
      const OperandIO& io = k.io[i];
      if (s[i] == 0 && (k.scalars_ok >> i & 1)) {
        sc |= 1u << i;
        if (io.converts) io.load(q[i] = buffer[i], d[i], 0, 1);
        else q[i] = d[i];
      } else if ((s[i] == io.size || m == 1) && !io.converts) {
        q[i] = d[i] + off * s[i];
      } else {
        io.load(q[i] = buffer[i], d[i] + off * s[i], s[i], m);
      }
    }
    const bool out_direct = (s[0] == k.io[0].size || m == 1) && !k.io[0].converts;
    q[0] = out_direct ? d[0] + off * s[0] : buffer[0];
    k.loop(q, m, sc, prm);
    if (!out_direct) k.io[0].store(d[0] + off * s[0], s[0], buffer[0], m);
  }
}

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

// The walk, shared by every kernel of N operands. A plan Java flattened to one dim (every operand
// contiguous or a scalar) and too small to split across threads runs directly: a small op's fixed
// cost is most of its time.
template <int N>
void walk(const EwPlan& p, const Kernel& k) {
  size_t elem[N];
  for (int i = 0; i < N; ++i) elem[i] = (size_t)k.io[i].size;
  const Params prm = p.params;
  auto chunk = [&](char* const* d, const int64_t* s, int64_t n) { run_chunk<N>(k, d, s, n, prm); };
  if (p.ndim == 1 && p.sizes[0] < kGrainSize) {
    char* d[N];
    int64_t s[N];
    for (int i = 0; i < N; ++i) {
      d[i] = p.ptr[i];
      s[i] = p.strides[i][0] * (int64_t)elem[i];
    }
    chunk(d, s, p.sizes[0]);
    return;
  }
  make_iter<N>(p, elem).run(chunk);
}

struct OpEntry {
  const char* name;
  int arity;
  bool predicate;
  std::array<Kernel, kNumDTypes> by_dtype;
};

template <typename F, int Arity, typename T>
constexpr Kernel pick() {
  Kernel k;
  if constexpr (F::template ok<opmath_t<T>> && compiled_in_this_capability<T>) {
    using C = opmath_t<T>;
    if constexpr (Arity == 1) k.loop = &Loops<F, C>::unary;
    else if constexpr (Arity == 2) k.loop = &Loops<F, C>::binary;
    else k.loop = &Loops<F, C>::ternary;
    k.inputs = Arity;
    k.scalars_ok = Arity == 2 ? 6u : 0u;
    k.io[0] = io_of<out_t<F, T>>();
    for (int i = 1; i <= Arity; ++i) k.io[i] = io_of<T>();
  }
  return k;
}

template <typename T>
constexpr Kernel pick_where() {
  Kernel k;
  if constexpr (compiled_in_this_capability<T>) {
    using S = std::conditional_t<std::is_same<T, bool>::value, bool, bits_of<T>>;
    k.loop = &where_loop<S>;
    k.inputs = 3;
    k.io[0] = k.io[2] = k.io[3] = io_of<S>();
    k.io[1] = io_of<bool>();
  }
  return k;
}

#define JT_KERNEL_ROW(F, arity) per_dtype<Kernel>([](auto t) { return pick<F, arity, typename decltype(t)::type>(); })
#define JT_UNARY_ENTRY(name) {#name, 1, name##_op::predicate, JT_KERNEL_ROW(name##_op, 1)},
#define JT_BINARY_ENTRY(name) {#name, 2, name##_op::predicate, JT_KERNEL_ROW(name##_op, 2)},
#define JT_TERNARY_ENTRY(name) {#name, 3, false, JT_KERNEL_ROW(name##_op, 3)},

const OpEntry kOps[] = {
    JT_UNARY_OPS(JT_UNARY_ENTRY) JT_BINARY_OPS(JT_BINARY_ENTRY) JT_TERNARY_OPS(JT_TERNARY_ENTRY)
    {"where", 3, false, per_dtype<Kernel>([](auto t) { return pick_where<typename decltype(t)::type>(); })},
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
  if (!e.by_dtype[dtype].loop) return 0;
  return 1 | (e.arity << 1) | (e.predicate ? 16 : 0);
}

int elementwise_run(const EwPlan& p) {
  if (p.op < 0 || p.op >= kNumOps) return -1;
  const Kernel& k = kOps[p.op].by_dtype[(int)p.dtype];
#if JT_CPU_CAP_IS_BASELINE
  if (!k.loop) return -1;
#else
  if (!k.loop) return baseline::elementwise_run(p);  // a dtype this capability leaves to the baseline
#endif
  const Kernel* run = &k;
  Kernel with_opmath_scalars;  // only when a plan has one: the small-op path copies nothing
  if (p.opmath_scalars) {  // a float32 scalar slot of a 16-bit float op passes to its float loop as it is
    with_opmath_scalars = k;
    for (int i = 1; i <= k.inputs; ++i) if ((p.opmath_scalars >> i & 1) && k.io[i].converts) with_opmath_scalars.io[i] = io_of<float>();
    run = &with_opmath_scalars;
  }
  switch (k.inputs) {
    case 1: walk<2>(p, *run); break;
    case 2: walk<3>(p, *run); break;
    default: walk<4>(p, *run); break;
  }
  return 0;
}

JT_CPU_CAP_END
