// The direct convolution's geometry over flat padded planes (Note [Flat padded planes] in
// convolution.cpp), shared by its forward and input-gradient kernels (convolution.cpp) and its
// weight-gradient kernels (conv_weight_grad.cpp). Compiled into each CPU capability's namespace.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "allocator/scratch.h"
#include "jt/plans.h"
#include "parallel.h"
#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace conv {

inline int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

// n elements of T from the CPU caching allocator, from a 64-byte boundary (a vector of output
// channels then never straddles a cache line), zeroed unless asked not to (a buffer every element
// of which is written before it is read); data() is null when memory is out. The blocks come back
// warm call after call: a std::vector of megabytes was mapped, faulted in and unmapped by every
// call (a third of the weight gradient's time at [32, 64, 32, 32]).
template <typename T>
class Scratch {
 public:
  explicit Scratch(int64_t n, bool zeroed = true) : buffer_((size_t)n * sizeof(T) + 64) {
    if (!buffer_.data()) return;
    data_ = reinterpret_cast<T*>((reinterpret_cast<uintptr_t>(buffer_.data()) + 63) & ~uintptr_t(63));
    if (zeroed) std::memset(data_, 0, (size_t)n * sizeof(T));
  }
  T* data() const { return data_; }

 private:
  ScratchBuffer buffer_;
  T* data_ = nullptr;
};

// Whether n values are all finite (no exponent of all ones): an OR of integer tests, which vectorizes.
template <typename T>
inline bool all_finite(const T* p, int64_t n) {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr U exponent = sizeof(T) == 4 ? (U)0x7f800000u : (U)0x7ff0000000000000ull;
  U bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    U bits;
    std::memcpy(&bits, p + i, sizeof bits);
    bad |= (U)((bits & exponent) == exponent);
  }
  return bad == 0;
}

// n elements; a short row (a 14-wide image's) by a loop, not a call to memcpy per row.
template <typename T>
inline void copy_row(T* dst, const T* src, int64_t n) {
  if (n >= 32) {
    std::memcpy(dst, src, (size_t)n * sizeof(T));
  } else {
    for (int64_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// Each group's weights as input channels in units of c_unit × output channels (or output vectors)
// in units of o_unit, split into about per_thread tasks a thread, as evenly between the two as their counts
// allow. A task owns whole weights, so the split (which follows the thread count) changes no sum.
struct TaskSplit {
  int64_t c_count, c_unit, o_count, o_unit, c_units, o_units, c_parts = 1, o_parts = 1;

  TaskSplit(int64_t c_count_, int64_t c_unit_, int64_t o_count_, int64_t o_unit_, int64_t groups, int per_thread = 4)
      : c_count(c_count_), c_unit(c_unit_), o_count(o_count_), o_unit(o_unit_),
        c_units((c_count + c_unit - 1) / c_unit), o_units((o_count + o_unit - 1) / o_unit) {
    const int64_t want = std::max<int64_t>(1, per_thread * std::max(1, get_num_threads()) / groups);
    while (c_parts * o_parts < want && (c_parts < c_units || o_parts < o_units)) {
      const bool split_c = o_parts >= o_units || (c_parts < c_units && c_units / c_parts >= o_units / o_parts);
      (split_c ? c_parts : o_parts) *= 2;
    }
    c_parts = std::min(c_parts, c_units);
    o_parts = std::min(o_parts, o_units);
  }

  int64_t per_group() const { return c_parts * o_parts; }

  // Task t's group and its channels [c0, c1) and [o0, o1); false when it has none.
  bool at(int64_t t, int64_t& gi, int64_t& c0, int64_t& c1, int64_t& o0, int64_t& o1) const {
    gi = t / per_group();
    const int64_t cp = t % per_group() / o_parts, op = t % o_parts;
    c0 = cp * c_units / c_parts * c_unit, c1 = std::min(c_count, (cp + 1) * c_units / c_parts * c_unit);
    o0 = op * o_units / o_parts * o_unit, o1 = std::min(o_count, (op + 1) * o_units / o_parts * o_unit);
    return c0 < c1 && o0 < o1;
  }
};

// One round of transpose_block: rows i and i + K (i & K == 0) swap their off-diagonal K-lane halves.
template <typename T, int K>
inline void transpose_round(typename Vec<T>::type* r) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef I M __attribute__((vector_size(sizeof(V))));
  M lo, hi;  // indices into (a = r[i], b = r[i + K]): a's below L, b's L + j
#pragma GCC unroll 16
  for (int j = 0; j < L; ++j) {
    lo[j] = (I)((j & K) ? L + j - K : j);
    hi[j] = (I)((j & K) ? L + j : j + K);
  }
#pragma GCC unroll 16
  for (int i = 0; i < L; ++i) {
    if (i & K) continue;
    const V a = r[i], b = r[i + K];
    r[i] = __builtin_shuffle(a, b, lo);
    r[i + K] = __builtin_shuffle(a, b, hi);
  }
  if constexpr (K > 1) transpose_round<T, K / 2>(r);
}

// dst[j·dst_ld + i] = src[i·src_ld + j] for i, j < lanes: one vector-square block transposed in
// log2(lanes) rounds of two-vector shuffles (the layout changes of the convolutions' kernels with
// channels along the lanes, which a loop of scalar moves made a tenth of a weight gradient's time).
template <typename T>
inline void transpose_block(const T* src, int64_t src_ld, T* dst, int64_t dst_ld) {
  constexpr int L = Vec<T>::lanes;
  typename Vec<T>::type r[L];
#pragma GCC unroll 16
  for (int i = 0; i < L; ++i) r[i] = load(src + i * src_ld);
  transpose_round<T, L / 2>(r);
#pragma GCC unroll 16
  for (int i = 0; i < L; ++i) store(dst + i * dst_ld, r[i]);
}

// dst[j·dst_ld + i] = src[i·src_ld + j] for i < rows, j < cols: vector-square blocks, the edges one by one.
template <typename T>
inline void transpose(const T* src, int64_t src_ld, int64_t rows, int64_t cols, T* dst, int64_t dst_ld) {
  constexpr int L = Vec<T>::lanes;
  const int64_t rb = rows / L * L, cb = cols / L * L;
  for (int64_t i = 0; i < rb; i += L) {
    for (int64_t j = 0; j < cb; j += L) transpose_block(src + i * src_ld + j, src_ld, dst + j * dst_ld + i, dst_ld);
    for (int64_t j = cb; j < cols; ++j)
      for (int64_t k = i; k < i + L; ++k) dst[j * dst_ld + k] = src[k * src_ld + j];
  }
  for (int64_t i = rb; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) dst[j * dst_ld + i] = src[i * src_ld + j];
}

// The weight gradients' sums A[gi][c·taps + t][u] (rows ld apart, u < og along them) into the
// weight's layout gw[gi][u][c·taps + t] (rows = cg·taps): vector-square blocks of rows, in parallel.
// (A scalar loop reading A a row apart per element was three quarters of a 512-channel 7 × 7
// layer's weight gradient at batch 1, where each sum itself takes only 49 products.)
template <typename T>
inline void sums_to_weight(const T* A, int64_t ld, int64_t groups, int64_t og, int64_t rows, T* gw) {
  constexpr int L = Vec<T>::lanes;
  const int64_t row_blocks = (rows + L - 1) / L;
  parallel_for(0, groups * row_blocks, std::max<int64_t>(1, kGrainSize / (L * og)), [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t gi = b / row_blocks, r0 = b % row_blocks * L;
      transpose(A + (gi * rows + r0) * ld, ld, std::min<int64_t>(L, rows - r0), og, gw + gi * og * rows + r0, rows);
    }
  });
}

// The conv plan's counts describe a convolution: 1 to 3 spatial dims, channels on both sides that
// the groups divide (each layout's reader then checks its sizes; Java checked them all first).
inline bool counts_valid(const conv_plan& r) {
  return r.nsp >= 1 && r.nsp <= 3 && r.batch >= 0 && r.channels >= 1 && r.out_channels >= 1 && r.groups >= 1 &&
         r.channels % r.groups == 0 && r.out_channels % r.groups == 0;
}

// One correlation image → result over flat padded planes; the spatial dims as three, leading ones of size 1.
struct Geometry {
  int64_t batch = 0, groups = 1, image_channels = 0, result_channels = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, kernel[3] = {1, 1, 1}, before[3] = {0, 0, 0}, dilation[3] = {1, 1, 1};
  int64_t ps[3] = {0, 0, 1};  // the padded plane's strides
  int64_t positions = 0;      // flat q's computed: out[0] rows of padded planes
  int64_t reach = 0;          // the last tap's offset
  std::vector<int64_t> row_offsets;  // per (k0, k1): its taps' offset before the last dim's

  int64_t taps() const { return kernel[0] * kernel[1] * kernel[2]; }
  int64_t image_plane() const { return in[0] * in[1] * in[2]; }
  int64_t result_plane() const { return out[0] * out[1] * out[2]; }

  // padded sizes give out = padded - dilation·(kernel - 1) (the caller checked it is at least 1).
  void finish() {
    int64_t padded[3];
    for (int d = 0; d < 3; ++d) padded[d] = out[d] + dilation[d] * (kernel[d] - 1);
    ps[1] = padded[2];
    ps[0] = padded[1] * padded[2];
    positions = out[0] * ps[0];
    row_offsets.clear();
    for (int64_t a = 0; a < kernel[0]; ++a)
      for (int64_t b = 0; b < kernel[1]; ++b) row_offsets.push_back(a * dilation[0] * ps[0] + b * dilation[1] * ps[1]);
    reach = row_offsets.back() + (kernel[2] - 1) * dilation[2];
  }

  // A padded plane's length: the positions a block computes (rounded up to block) plus the reach and one vector.
  int64_t plane_length(int64_t block, int lanes) const { return round_up(positions, block) + reach + lanes; }

  // Copies channels [c0, c0 + count) of sample n of image (contiguous) into padded planes of length
  // plane, zero everywhere else (the caller's buffer, zeroed once: every copy writes the same
  // places); false when a copied value is infinite or NaN (checked only when asked: see weight_grad).
  template <typename T>
  bool pad(const T* image, int64_t n, int64_t c0, int64_t count, T* planes, int64_t plane, bool check = false) const {
    const int64_t lead = before[0] * ps[0] + before[1] * ps[1] + before[2];
    bool finite = true;
    for (int64_t c = 0; c < count; ++c) {
      const T* src = image + (n * image_channels + c0 + c) * image_plane();
      T* dst = planes + c * plane + lead;
      for (int64_t a = 0; a < in[0]; ++a)
        for (int64_t b = 0; b < in[1]; ++b, src += in[2]) {
          copy_row(dst + a * ps[0] + b * ps[1], src, in[2]);
          if (check) finite &= all_finite(dst + a * ps[0] + b * ps[1], in[2]);
        }
    }
    return finite;
  }
};

// The weight's gradient (mode 2) into gw [O, C/groups, taps]: JT_OK, JT_VALUE_OUT_OF_RANGE when it
// declines (Note [Positions past a row's end]) or JT_OUT_OF_MEMORY (scratch refused).
// conv_weight_grad.cpp chooses the kernel by shape.
template <typename T>
int weight_grad(const Geometry& g, const T* x, const T* gy, T* gw);

// Modes 0 to 2 with the channels along the lanes, at any stride (conv_lanes.cpp, Note [Channels in lanes]).
template <typename T>
int run_in_lanes(const conv_plan& r);

// Modes 0 and 1 of 3 × 3, stride-1 2-D convolutions by Winograd F(2 × 2, 3 × 3) (conv_winograd.cpp):
// whether a plan takes it, and the run, which answers JT_VALUE_OUT_OF_RANGE for a result that is not
// finite (the direct kernels then compute it again).
template <typename T>
bool takes_winograd(const conv_plan& r);
template <typename T>
int run_winograd(const conv_plan& r);

}  // namespace conv
JT_CPU_CAP_END
