// Direct convolution on the CPU (plans.h's conv plan): stride 1, any padding and dilation, groups,
// 1 to 3 spatial dims, float32 and float64, with no im2col columns and no GEMM packing. mode 0 is
// the forward, mode 1 the input's gradient (the same correlation over the output's gradient with
// the kernel flipped and its channel axes swapped), mode 2 the weight's gradient.
//
// Note [Flat padded planes]: a sample's image channels are copied into zero-padded planes; an
// output position is then the flat index q = Σ o[d]·ps[d] (ps the padded plane's strides) of its
// window's first element, and the kernel's tap t reads q + off[t]. A run of consecutive q's is one
// 1-D correlation with fixed tap offsets: vectors of consecutive outputs read vectors of
// consecutive inputs, with no bounds check and no copy of each window. The q's that fall past a
// row's end (x ≥ the output's width) are computed and dropped when the block is written out; the
// weight's gradient reads the output's gradient laid out the same way, zeros at those q's.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "jt/jt.h"
#include "kernels/kernels.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace {

// Register blocks: the forward keeps kPositions vectors of outputs for kOutBlock channels
// (accumulators plus the loaded inputs and one broadcast weight within the register file); the
// weight's gradient kGradOut output channels × kGradIn input channels × up to kTapRun taps of a row.
#if defined(JT_CPU_CAP_avx512)
constexpr int kOutBlock = 8, kGradOut = 4;
#else
constexpr int kOutBlock = 4, kGradOut = 2;
#endif
constexpr int kPositions = 3, kGradIn = 2, kTapRun = 3;
constexpr int64_t kGradChunk = 1024;  // positions per pass of the weight's gradient: its rows stay in L1

template <typename T>
inline T lane_sum(typename Vec<T>::type v) {
  T s = 0;
  for (int i = 0; i < Vec<T>::lanes; ++i) s += v[i];
  return s;
}

int64_t round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

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

// result[kOutBlock channels][kPositions vectors from q] = Σ_c Σ_t w · image[c][q + off[t]]; w packed [c][t][kOutBlock].
template <typename T>
inline void forward_block(const T* image, int64_t plane, int64_t channels, const int64_t* off, int64_t taps, const T* w, T* out,
                          int64_t ld) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[kPositions][kOutBlock];
  for (int p = 0; p < kPositions; ++p)
    for (int o = 0; o < kOutBlock; ++o) acc[p][o] = V{};
  for (int64_t c = 0; c < channels; ++c, image += plane) {
    for (int64_t t = 0; t < taps; ++t, w += kOutBlock) {
      const T* s = image + off[t];
      V x[kPositions];
      for (int p = 0; p < kPositions; ++p) x[p] = load(s + p * L);
      for (int o = 0; o < kOutBlock; ++o) {
        const T wv = w[o];  // a scalar operand: one broadcast from memory (V{} + w would add 0.0 first)
        for (int p = 0; p < kPositions; ++p) acc[p][o] += x[p] * wv;
      }
    }
  }
  for (int o = 0; o < kOutBlock; ++o)
    for (int p = 0; p < kPositions; ++p) store(out + o * ld + p * L, acc[p][o]);
}

// Modes 0 and 1: the result's channels in blocks of kOutBlock, the weight packed per block as
// forward_block reads it (zeros for a last block's missing channels); tasks are (sample, group, block).
template <typename T>
struct Correlation {
  Geometry g;
  const T* image = nullptr;
  T* result = nullptr;
  const T* bias = nullptr;
  int64_t image_per_group = 0, result_per_group = 0, blocks = 0;
  std::vector<T> packed;
  std::vector<int64_t> off;

  // weight_at(result channel u in its group, image channel v in its group, tap t, group) for each packed entry.
  template <typename WeightAt>
  void pack(WeightAt weight_at) {
    image_per_group = g.image_channels / g.groups;
    result_per_group = g.result_channels / g.groups;
    blocks = (result_per_group + kOutBlock - 1) / kOutBlock;
    const int64_t taps = g.taps();
    packed.assign((size_t)(g.groups * blocks * image_per_group * taps * kOutBlock), T(0));
    T* w = packed.data();
    for (int64_t gi = 0; gi < g.groups; ++gi)
      for (int64_t b = 0; b < blocks; ++b)
        for (int64_t v = 0; v < image_per_group; ++v)
          for (int64_t t = 0; t < taps; ++t, w += kOutBlock)
            for (int o = 0; o < kOutBlock && b * kOutBlock + o < result_per_group; ++o) w[o] = weight_at(b * kOutBlock + o, v, t, gi);
    for (int64_t r : g.row_offsets)
      for (int64_t k = 0; k < g.kernel[2]; ++k) off.push_back(r + k * g.dilation[2]);
  }

  void run() const {
    constexpr int L = Vec<T>::lanes;
    const int64_t block = kPositions * L, span = round_up(g.positions, block), plane = g.plane_length(block, L);
    const int64_t weights_per_block = image_per_group * g.taps() * kOutBlock;
    parallel_for(0, g.batch * g.groups * blocks, 1, [&](int64_t t0, int64_t t1) {
      std::vector<T> planes((size_t)(image_per_group * plane), T(0)), out((size_t)(kOutBlock * span));  // planes: zeroed once (pad)
      int64_t padded = -1;  // the (sample, group) whose planes are in planes
      for (int64_t task = t0; task < t1; ++task) {
        const int64_t ng = task / blocks, b = task % blocks, n = ng / g.groups, gi = ng % g.groups;
        if (ng != padded) {
          g.pad(image, n, gi * image_per_group, image_per_group, planes.data(), plane);
          padded = ng;
        }
        const T* w = packed.data() + (gi * blocks + b) * weights_per_block;
        for (int64_t q = 0; q < span; q += block)
          forward_block(planes.data() + q, plane, image_per_group, off.data(), (int64_t)off.size(), w, out.data() + q, span);
        write(n, gi * result_per_group + b * kOutBlock, std::min<int64_t>(kOutBlock, result_per_group - b * kOutBlock), out.data(), span);
      }
    });
  }

  // The block's channels [u0, u0 + count) of sample n: each output row from its padded row, plus the bias.
  void write(int64_t n, int64_t u0, int64_t count, const T* out, int64_t span) const {
    for (int64_t u = 0; u < count; ++u) {
      const T add = bias ? bias[u0 + u] : T(0);
      T* dst = result + (n * g.result_channels + u0 + u) * g.result_plane();
      const T* src = out + u * span;
      for (int64_t a = 0; a < g.out[0]; ++a)
        for (int64_t b = 0; b < g.out[1]; ++b, dst += g.out[2]) {
          const T* row = src + a * g.ps[0] + b * g.ps[1];
          for (int64_t x = 0; x < g.out[2]; ++x) dst[x] = row[x] + add;
        }
    }
  }
};

// acc[o][c][k] (vectors of T, in memory between calls: gw_o, gw_c and 1 vectors apart) += gy[o][q] ·
// image[c][q + k·step] lane by lane, over q in [0, count) (a multiple of one vector). The lanes
// are summed once, when every sample has been added (weight_grad).
template <typename T, int NO, int NC, int KX>
void weight_grad_block(const T* gy, int64_t ldg, const T* image, int64_t plane, int64_t step, int64_t count,
                       T* acc_at, int64_t gw_o, int64_t gw_c) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NO][NC][KX];
  for (int o = 0; o < NO; ++o)
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) acc[o][c][k] = load(acc_at + (o * gw_o + c * gw_c + k) * L);
  for (int64_t q = 0; q < count; q += L) {
    V y[NO];
    for (int o = 0; o < NO; ++o) y[o] = load(gy + o * ldg + q);
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) {
        const V x = load(image + c * plane + q + k * step);
        for (int o = 0; o < NO; ++o) acc[o][c][k] += y[o] * x;
      }
  }
  for (int o = 0; o < NO; ++o)
    for (int c = 0; c < NC; ++c)
      for (int k = 0; k < KX; ++k) store(acc_at + (o * gw_o + c * gw_c + k) * L, acc[o][c][k]);
}

template <typename T, int NO, int NC>
void weight_grad_run(int kx, const T* gy, int64_t ldg, const T* image, int64_t plane, int64_t step, int64_t count,
                     T* acc, int64_t gw_o, int64_t gw_c) {
  switch (kx) {
    case 1: weight_grad_block<T, NO, NC, 1>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
    case 2: weight_grad_block<T, NO, NC, 2>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
    default: weight_grad_block<T, NO, NC, kTapRun>(gy, ldg, image, plane, step, count, acc, gw_o, gw_c); break;
  }
}

// Mode 2: grad_w [O, C/groups, taps] from x (the image) and gy (the result's gradient). Each task
// owns (group, input channels, output channels) of grad_w and sums every sample into it in one
// order (lane by lane over the samples and positions, then the lanes): the same bits whatever the
// thread count.
//
// Note [Positions past a row's end] A flat run of positions includes, past each row's end, ones
// that no output has: there the output's gradient is 0, but the image it multiplies is the next
// row's first columns, and 0 · inf is NaN where PyTorch's sum never takes that product. So a
// sample with an infinite or NaN value declines (false): the caller composes the gradient instead.
// (The forward and the input's gradient drop those positions' results; the input's gradient
// multiplies the output's gradient's zero padding by the weight, so an infinite weight declines it.)
template <typename T>
bool weight_grad(const Geometry& g, const T* x, const T* gy, T* gw) {
  constexpr int L = Vec<T>::lanes;
  const int64_t cg = g.image_channels / g.groups, og = g.result_channels / g.groups, taps = g.taps();
  const int64_t span = round_up(g.positions, L), plane = g.plane_length(L, L);
  const int64_t threads = std::max(1, get_num_threads());
  // Input channels in units of kGradIn, output channels in units of kGradOut, split into about 4
  // tasks a thread, as evenly between the two as their counts allow: a task copies its input
  // channels' planes and its output channels' rows of every sample, for products of the two.
  const int64_t c_units = (cg + kGradIn - 1) / kGradIn, o_units = (og + kGradOut - 1) / kGradOut;
  const int64_t want = std::max<int64_t>(1, 4 * threads / g.groups);
  int64_t c_parts = 1, o_parts = 1;
  while (c_parts * o_parts < want && (c_parts < c_units || o_parts < o_units)) {
    const bool split_c = o_parts >= o_units || (c_parts < c_units && c_units / c_parts >= o_units / o_parts);
    (split_c ? c_parts : o_parts) *= 2;
  }
  c_parts = std::min(c_parts, c_units);
  o_parts = std::min(o_parts, o_units);
  std::atomic<bool> declined(false);
  parallel_for(0, g.groups * c_parts * o_parts, 1, [&](int64_t t0, int64_t t1) {
    std::vector<T> planes, rows, acc;  // acc: vectors as T (a std::vector of vectors would be code outside the capability)
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t gi = task / (c_parts * o_parts), cp = task / o_parts % c_parts, op = task % o_parts;
      const int64_t c0 = cp * c_units / c_parts * kGradIn, c1 = std::min(cg, (cp + 1) * c_units / c_parts * kGradIn);
      const int64_t o0 = op * o_units / o_parts * kGradOut, o1 = std::min(og, (op + 1) * o_units / o_parts * kGradOut);
      if (c0 >= c1 || o0 >= o1) continue;
      const int64_t nc_all = c1 - c0, acc_o = nc_all * taps;  // acc: [o1 - o0][c1 - c0][taps] vectors
      planes.assign((size_t)(nc_all * plane), T(0));
      rows.assign((size_t)((o1 - o0) * span), T(0));
      acc.assign((size_t)((o1 - o0) * acc_o * L), T(0));
      for (int64_t n = 0; n < g.batch && !declined.load(std::memory_order_relaxed); ++n) {
        if (!g.pad(x, n, gi * cg + c0, nc_all, planes.data(), plane, true)) declined.store(true, std::memory_order_relaxed);
        for (int64_t o = o0; o < o1; ++o) {  // the output's gradient at its flat padded positions
          const T* src = gy + (n * g.result_channels + gi * og + o) * g.result_plane();
          T* dst = rows.data() + (o - o0) * span;
          for (int64_t a = 0; a < g.out[0]; ++a)
            for (int64_t b = 0; b < g.out[1]; ++b, src += g.out[2]) copy_row(dst + a * g.ps[0] + b * g.ps[1], src, g.out[2]);
        }
        for (int64_t q0 = 0; q0 < span; q0 += kGradChunk) {
          const int64_t count = std::min(kGradChunk, span - q0);
          for (int64_t c = c0; c < c1; c += kGradIn) {
            const int nc = (int)std::min<int64_t>(kGradIn, c1 - c);
            for (size_t r = 0; r < g.row_offsets.size(); ++r)
              for (int64_t k = 0; k < g.kernel[2]; k += kTapRun) {
                const int kx = (int)std::min<int64_t>(kTapRun, g.kernel[2] - k);
                const T* image = planes.data() + (c - c0) * plane + q0 + g.row_offsets[r] + k * g.dilation[2];
                for (int64_t o = o0; o < o1;) {
                  const T* y = rows.data() + (o - o0) * span + q0;
                  T* a = acc.data() + ((o - o0) * acc_o + (c - c0) * taps + (int64_t)r * g.kernel[2] + k) * L;
                  const int step = o + kGradOut <= o1 ? kGradOut : 1;
                  if (step == kGradOut && nc == kGradIn) weight_grad_run<T, kGradOut, kGradIn>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else if (step == kGradOut) weight_grad_run<T, kGradOut, 1>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else if (nc == kGradIn) weight_grad_run<T, 1, kGradIn>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  else weight_grad_run<T, 1, 1>(kx, y, span, image, plane, g.dilation[2], count, a, acc_o, taps);
                  o += step;
                }
              }
          }
        }
      }
      for (int64_t o = o0; o < o1; ++o)
        for (int64_t i = 0; i < acc_o; ++i) gw[((gi * og + o) * cg + c0) * taps + i] = lane_sum<T>(load(acc.data() + ((o - o0) * acc_o + i) * L));
    }
  });
  return !declined.load();
}

// The plan's geometry, as the forward (or weight gradient) sees it; false for numbers that do not
// describe a stride-1 convolution (Java checks them first; this guards the kernel).
bool read_forward(const conv_plan& r, Geometry& g) {
  if (r.nsp < 1 || r.nsp > 3 || r.batch < 0 || r.channels < 1 || r.out_channels < 1 || r.groups < 1) return false;
  if (r.channels % r.groups != 0 || r.out_channels % r.groups != 0) return false;
  g.batch = r.batch;
  g.groups = r.groups;
  g.image_channels = r.channels;
  g.result_channels = r.out_channels;
  const int first = 3 - (int)r.nsp;
  for (int d = 0; d < (int)r.nsp; ++d) {
    const int e = first + d;
    g.in[e] = r.in_sizes[d];
    g.out[e] = r.out_sizes[d];
    g.kernel[e] = r.kernel[d];
    g.before[e] = r.pad_before[d];
    g.dilation[e] = r.dilation[d];
    if (g.in[e] < 1 || g.kernel[e] < 1 || g.dilation[e] < 1 || g.before[e] < 0 || r.pad_after[d] < 0) return false;
    if (g.out[e] < 1 || g.out[e] != g.in[e] + g.before[e] + r.pad_after[d] - g.dilation[e] * (g.kernel[e] - 1)) return false;
  }
  g.finish();
  return true;
}

// The input's gradient as a correlation: image the output's gradient, padded by the kernel's
// reach less the forward's padding (at most the reach: checked), result the input's shape.
bool read_input_grad(const conv_plan& r, const Geometry& f, Geometry& g) {
  g = f;
  g.image_channels = f.result_channels;
  g.result_channels = f.image_channels;
  const int first = 3 - (int)r.nsp;
  for (int e = 0; e < 3; ++e) {
    const int64_t reach = f.dilation[e] * (f.kernel[e] - 1);
    const int64_t after = e < first ? 0 : r.pad_after[e - first];
    if (f.before[e] > reach || after > reach) return false;
    g.in[e] = f.out[e];
    g.out[e] = f.in[e];
    g.before[e] = reach - f.before[e];
  }
  g.finish();
  return true;
}

template <typename T>
int run(const conv_plan& r) {
  Geometry f;
  if (!read_forward(r, f)) return JT_INVALID;
  const T* weight = reinterpret_cast<const T*>(r.weight);
  const int64_t taps = f.taps(), cg = f.image_channels / f.groups, og = f.result_channels / f.groups;
  switch (r.mode) {
    case 0: {
      Correlation<T> c;
      c.g = f;
      c.image = reinterpret_cast<const T*>(r.x);
      c.result = reinterpret_cast<T*>(r.y);
      c.bias = reinterpret_cast<const T*>(r.bias);
      c.pack([&](int64_t u, int64_t v, int64_t t, int64_t gi) { return weight[((gi * og + u) * cg + v) * taps + t]; });
      c.run();
      return JT_OK;
    }
    case 1: {
      Correlation<T> c;
      if (!read_input_grad(r, f, c.g)) return JT_INVALID;
      if (!all_finite(weight, f.result_channels * cg * taps)) return JT_VALUE_OUT_OF_RANGE;  // Note [Positions past a row's end]
      c.image = reinterpret_cast<const T*>(r.y);
      c.result = reinterpret_cast<T*>(r.x);
      // result channel u (the input's), image channel v (the output's): the forward's weight [v][u], flipped.
      c.pack([&](int64_t u, int64_t v, int64_t t, int64_t gi) { return weight[((gi * og + v) * cg + u) * taps + (taps - 1 - t)]; });
      c.run();
      return JT_OK;
    }
    case 2:
      return weight_grad(f, reinterpret_cast<const T*>(r.x), reinterpret_cast<const T*>(r.y), reinterpret_cast<T*>(r.weight))
          ? JT_OK : JT_VALUE_OUT_OF_RANGE;
    default: return JT_INVALID;
  }
}

}  // namespace

int conv_run(const conv_plan& r) {
  switch ((DType)r.dtype) {
    case DType::Float32: return run<float>(r);
    case DType::Float64: return run<double>(r);
    default: return JT_NO_KERNEL;
  }
}

JT_CPU_CAP_END
