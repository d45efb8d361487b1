// Winograd F(2 × 2, 3 × 3) for 3 × 3, stride-1, undilated 2-D convolutions without groups: the
// forward (mode 0) and the input's gradient (mode 1, a forward over the output's gradient with the
// weights flipped and transposed), Note [Winograd F(2x2, 3x3)].
//
// Note [Winograd F(2x2, 3x3)] A 2 × 2 block of outputs (a tile) of a 3 × 3 correlation reads a
// 4 × 4 patch d of each input channel, and Winograd's minimal filtering writes it as
// Y = Aᵀ [Σ_c (G g_c Gᵀ) ⊙ (Bᵀ d_c B)] A: 16 products a channel instead of 36. The 16 positions ξ
// of the transformed domain are independent, so a block of tiles is 16 matrix products over the
// channels, M[ξ][t][u] = Σ_c V[ξ][t][c] · U[ξ][c][u] (2.25× fewer multiply-adds than the direct
// sum), run as the lanes' tiles run (Note [Channels in lanes]: output channels along the lanes, a
// tile's value broadcast); the transforms are additions, vectorized over channels (G's halves are
// exact in binary). The rounding differs from a direct sum's by a few units in the last place of
// the products' magnitudes. A result that is not finite is computed again by the direct kernels,
// so infinities and NaNs come out as theirs (the transforms would subtract one infinity from
// another). Each output element is summed by one task, whatever the thread count.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "jt/jt.h"
#include "parallel.h"

#include "kernels/vectorized/capability_namespace.h"
#include "kernels/vectorized/conv_lanes.h"
#include "kernels/vectorized/vector_types.h"

JT_CPU_CAP_BEGIN
namespace conv {
namespace {

// The convolution as a forward: `in` read ([batch, cin, ih, iw]), `out` written ([batch, cout, oh, ow]).
struct Wino {
  int64_t batch = 0, cin = 0, cout = 0, ih = 0, iw = 0, oh = 0, ow = 0, top = 0, left = 0;
  int64_t th = 0, tw = 0;           // tiles down and across: ceil(oh / 2), ceil(ow / 2)
  int64_t rows = 1, cp = 0, up = 0;  // tile rows a task; cin and cout rounded up to whole vectors
  int64_t grid_w() const { return 2 * tw + 2; }
};

// Tiles a task aims at: V and M of a block stay within L2 at 64 channels.
constexpr int64_t kTaskTiles = 36;

// d[i][j] (vectors of channels) → Bᵀ d B into v[4i + j], Bᵀ = [1 0 −1 0; 0 1 1 0; 0 −1 1 0; 0 1 0 −1].
template <typename V>
inline void input_transform(const V (&d)[4][4], V (&v)[16]) {
  V r[4][4];
  for (int j = 0; j < 4; ++j) {
    r[0][j] = d[0][j] - d[2][j];
    r[1][j] = d[1][j] + d[2][j];
    r[2][j] = d[2][j] - d[1][j];
    r[3][j] = d[1][j] - d[3][j];
  }
  for (int i = 0; i < 4; ++i) {
    v[4 * i + 0] = r[i][0] - r[i][2];
    v[4 * i + 1] = r[i][1] + r[i][2];
    v[4 * i + 2] = r[i][2] - r[i][1];
    v[4 * i + 3] = r[i][1] - r[i][3];
  }
}

// A 3 × 3 filter g → G g Gᵀ (4 × 4), G = [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1].
template <typename T>
inline void filter_transform(const T (&g)[3][3], T (&u)[16]) {
  T r[4][3];
  for (int j = 0; j < 3; ++j) {
    r[0][j] = g[0][j];
    r[1][j] = T(0.5) * (g[0][j] + g[1][j] + g[2][j]);
    r[2][j] = T(0.5) * (g[0][j] - g[1][j] + g[2][j]);
    r[3][j] = g[2][j];
  }
  for (int i = 0; i < 4; ++i) {
    u[4 * i + 0] = r[i][0];
    u[4 * i + 1] = T(0.5) * (r[i][0] + r[i][1] + r[i][2]);
    u[4 * i + 2] = T(0.5) * (r[i][0] - r[i][1] + r[i][2]);
    u[4 * i + 3] = r[i][2];
  }
}

// out[p][NV·L] = Σ_c rows[p][c] · w[c][NV·L] for NP tiles: one ξ's product, a register block.
template <typename T, int NP, int NV>
inline void product_tile(const T* const* rows, int64_t cin, const T* w, T* const* out) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  V acc[NP][NV];
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) acc[p][v] = V{};
  for (int64_t c = 0; c < cin; ++c, w += NV * L) {
    V wv[NV];
    for (int v = 0; v < NV; ++v) wv[v] = load(w + v * L);
    for (int p = 0; p < NP; ++p) {
      const T x = rows[p][c];
      for (int v = 0; v < NV; ++v) acc[p][v] += wv[v] * x;
    }
  }
  for (int p = 0; p < NP; ++p)
    for (int v = 0; v < NV; ++v) store(out[p] + v * L, acc[p][v]);
}

// One task: sample n, tile rows [r0, r1). Scratch: grid (channels-last input rows), vt (V[ξ][t][cp]),
// mt (M[ξ][t][up]), staging (channels-last output rows). False when a result is not finite.
template <typename T>
bool run_task(const Wino& g, const lanes::Packed<T>& packed, const T* bias_up, const T* in, T* out, int64_t n, int64_t r0, int64_t r1,
              T* grid, T* vt, T* mt, T* staging) {
  using V = typename Vec<T>::type;
  constexpr int L = Vec<T>::lanes;
  const int64_t R = r1 - r0, nt = R * g.tw, gw = g.grid_w(), grid_rows = 2 * R + 2, iplane = g.ih * g.iw;
  // the input rows the tiles read, channels last, zeros where padding
  std::memset(grid, 0, (size_t)(grid_rows * gw * g.cp) * sizeof(T));
  const int64_t count = std::min(g.iw, gw - g.left);
  for (int64_t lr = 0; lr < grid_rows && count > 0; ++lr) {
    const int64_t iy = 2 * r0 - g.top + lr;
    if (iy < 0 || iy >= g.ih) continue;
    transpose(in + n * g.cin * iplane + iy * g.iw, iplane, g.cin, count, grid + (lr * gw + g.left) * g.cp, g.cp);
  }
  // V = Bᵀ d B per tile and vector of channels
  const int64_t vstride = nt * g.cp;
  for (int64_t a = 0; a < R; ++a)
    for (int64_t tx = 0; tx < g.tw; ++tx) {
      const int64_t t = a * g.tw + tx;
      for (int64_t k = 0; k < g.cp; k += L) {
        V d[4][4], v[16];
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) d[i][j] = load(grid + ((2 * a + i) * gw + 2 * tx + j) * g.cp + k);
        input_transform(d, v);
        for (int x = 0; x < 16; ++x) store(vt + x * vstride + t * g.cp + k, v[x]);
      }
    }
  // M[ξ] = V[ξ] · U[ξ], blocks of output vectors
  const int64_t mstride = nt * g.up;
  for (int64_t x = 0; x < 16; ++x)
    for (int64_t b = 0; b < packed.blocks; ++b)
      lanes::with_vectors(packed.vectors_in(b), [&](auto NVc) {
        constexpr int NV = decltype(NVc)::value, NP = lanes::tile_positions<NV>();
        const T* w = packed.block(x, b);
        T* mb = mt + x * mstride + b * lanes::kMaxVectors * L;
        alignas(64) T sink[NV * L];
        const T* rows[NP];
        T* dst[NP];
        for (int64_t t = 0; t < nt; t += NP) {
          for (int p = 0; p < NP; ++p) {
            const bool real = t + p < nt;
            rows[p] = vt + x * vstride + (real ? t + p : nt - 1) * g.cp;
            dst[p] = real ? mb + (t + p) * g.up : sink;
          }
          product_tile<T, NP, NV>(rows, g.cin, w, dst);
        }
      });
  // Y = Aᵀ M A (+ bias) into channels-last rows, Aᵀ = [1 1 1 0; 0 1 −1 −1]
  V seen = V{};  // products with 0: NaN once any result is infinite or NaN
  const int64_t sw = 2 * g.tw;
  for (int64_t a = 0; a < R; ++a)
    for (int64_t tx = 0; tx < g.tw; ++tx) {
      const int64_t t = a * g.tw + tx;
      for (int64_t k = 0; k < g.up; k += L) {
        V m[16], s[2][4];
        for (int x = 0; x < 16; ++x) m[x] = load(mt + x * mstride + t * g.up + k);
        for (int j = 0; j < 4; ++j) {
          s[0][j] = m[j] + m[4 + j] + m[8 + j];
          s[1][j] = m[4 + j] - m[8 + j] - m[12 + j];
        }
        const V bias = load(bias_up + k);
        for (int i = 0; i < 2; ++i) {
          const V y0 = s[i][0] + s[i][1] + s[i][2] + bias, y1 = s[i][1] - s[i][2] - s[i][3] + bias;
          seen += y0 * T(0) + y1 * T(0);
          T* row = staging + ((2 * a + i) * sw + 2 * tx) * g.up + k;
          store(row, y0);
          store(row + g.up, y1);
        }
      }
    }
  // the rows the output has, channels first
  const int64_t oplane = g.oh * g.ow;
  for (int64_t lr = 0; lr < 2 * R && 2 * r0 + lr < g.oh; ++lr)
    transpose(staging + lr * sw * g.up, g.up, g.ow, g.cout, out + n * g.cout * oplane + (2 * r0 + lr) * g.ow, oplane);
  for (int l = 0; l < L; ++l)
    if (seen[l] != seen[l]) return false;
  return true;
}

template <typename T>
int run(const Wino& g, const T* in, const T* weight_at_u_c, T* out, const T* bias, bool flip) {
  // U[ξ][c][u], from the [cout][cin][3][3] filter (flip: the input's gradient, filter[c][u] of w[u][c] turned 180°),
  // written straight into the layout the tiles read: o innermost, so each of the 16 ξ is written
  // in order (o outermost scattered every write to another cache line of a buffer that for a deep
  // layer is 16 MB, which cost more than the products at batch 1)
  lanes::Packed<T> packed(16, g.cout, g.cin, 1);
  if (!packed.ok()) return JT_OUT_OF_MEMORY;
  for (int64_t c = 0; c < g.cin; ++c)
    for (int64_t o = 0; o < g.cout; ++o) {
      T f[3][3], t[16];
      const T* src = flip ? weight_at_u_c + (c * g.cout + o) * 9 : weight_at_u_c + (o * g.cin + c) * 9;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) f[i][j] = flip ? src[(2 - i) * 3 + (2 - j)] : src[i * 3 + j];
      filter_transform(f, t);
      for (int x = 0; x < 16; ++x) packed.entry(x, c, 0, o) = t[x];
    }
  std::vector<T> bias_up((size_t)g.up, T(0));
  if (bias) std::copy(bias, bias + g.cout, bias_up.begin());
  const int64_t blocks = (g.th + g.rows - 1) / g.rows, nt = g.rows * g.tw;
  std::atomic<int> status(JT_OK);
  parallel_for(0, g.batch * blocks, 1, [&](int64_t t0, int64_t t1) {
    const int64_t grid = (2 * g.rows + 2) * g.grid_w() * g.cp, vt = 16 * nt * g.cp, mt = 16 * nt * g.up, st = 2 * g.rows * 2 * g.tw * g.up;
    Scratch<T> scratch(grid + vt + mt + st, false);
    T* base = scratch.data();
    if (!base) {
      status.store(JT_OUT_OF_MEMORY);
      return;
    }
    for (int64_t task = t0; task < t1; ++task) {
      const int64_t n = task / blocks, r0 = task % blocks * g.rows, r1 = std::min(g.th, r0 + g.rows);
      if (!run_task(g, packed, bias_up.data(), in, out, n, r0, r1, base, base + grid, base + grid + vt, base + grid + vt + mt)) {
        int expected = JT_OK;
        status.compare_exchange_strong(expected, JT_VALUE_OUT_OF_RANGE);
      }
    }
  });
  return status.load();
}

}  // namespace

template <typename T>
bool takes_winograd(const conv_plan& r) {
  if (r.mode > 1 || r.nsp != 2 || r.groups != 1) return false;
  for (int d = 0; d < 2; ++d)
    if (r.kernel[d] != 3 || r.stride[d] != 1 || r.dilation[d] != 1 || r.pad_before[d] < 0 || r.pad_before[d] > 2 || r.pad_after[d] < 0 ||
        r.pad_after[d] > 2)
      return false;
  if (const char* forced = std::getenv("JT_CONV_WINOGRAD")) return std::atoi(forced) == 1;
  // jt_bench's conv lines (docs/performance.md, session 21): 0.6-0.9 of the direct kernels' time with
  // two vectors of channels on one side and one on the other; 1.1× theirs at one vector each side
  // (16 → 16 channels in float32), where the transforms weigh as much as the products.
  // And with at least kMinTiles 2 × 2 tiles a call: the filter's transform is made every call and a
  // task is a block of one image's tile rows, so a small batch of small images pays the transform
  // for few products, on fewer tasks than threads. Measured (2 threads, batch 1-16, 7 × 7 to 28 × 28,
  // 128-512 channels, session 29): Winograd 1.3-4× the direct kernels' time at 16-98 tiles, about
  // even at 128-256, ahead from 196 where the images are 14 × 14 or larger. Measured again after the
  // direct kernels' forward for few positions (session 35, 2 threads, 64-512 channels): 1.3-1.7×
  // their time at 196-256 tiles in both modes, 1.0-1.35× at 392-400, about even at 576, ahead from
  // 784 (0.9×) and at 1,568 (0.7×).
  constexpr int64_t L = Vec<T>::lanes, kMinTiles = 512;
  const int64_t* plane = r.mode == 0 ? r.out_sizes : r.in_sizes;  // the plane the tiles cover
  const int64_t tiles = r.batch * ((plane[0] + 1) / 2) * ((plane[1] + 1) / 2);
  return std::min(r.channels, r.out_channels) >= L && std::max(r.channels, r.out_channels) >= 2 * L && tiles >= kMinTiles;
}

template <typename T>
int run_winograd(const conv_plan& r) {
  if (!lanes::Grid().read_sizes(r)) return JT_INVALID;
  constexpr int64_t L = Vec<T>::lanes;
  Wino g;
  const bool forward = r.mode == 0;
  g.batch = r.batch;
  g.cin = forward ? r.channels : r.out_channels;
  g.cout = forward ? r.out_channels : r.channels;
  const int64_t* in_sizes = forward ? r.in_sizes : r.out_sizes;
  const int64_t* out_sizes = forward ? r.out_sizes : r.in_sizes;
  g.ih = in_sizes[0], g.iw = in_sizes[1], g.oh = out_sizes[0], g.ow = out_sizes[1];
  // the input's gradient reads the output's gradient with 2 − padding before (Note [Winograd F(2x2, 3x3)])
  g.top = forward ? r.pad_before[0] : 2 - r.pad_before[0];
  g.left = forward ? r.pad_before[1] : 2 - r.pad_before[1];
  g.th = (g.oh + 1) / 2, g.tw = (g.ow + 1) / 2;
  g.rows = std::max<int64_t>(1, std::min(g.th, kTaskTiles / g.tw));
  g.cp = round_up(g.cin, L), g.up = round_up(g.cout, L);
  if (g.batch == 0 || g.oh == 0 || g.ow == 0) return JT_OK;
  const T* w = reinterpret_cast<const T*>(r.weight);
  if (forward)
    return run(g, reinterpret_cast<const T*>(r.x), w, reinterpret_cast<T*>(r.y), reinterpret_cast<const T*>(r.bias), false);
  return run(g, reinterpret_cast<const T*>(r.y), w, reinterpret_cast<T*>(r.x), static_cast<const T*>(nullptr), true);
}

template bool takes_winograd<float>(const conv_plan&);
template bool takes_winograd<double>(const conv_plan&);
template int run_winograd<float>(const conv_plan&);
template int run_winograd<double>(const conv_plan&);

}  // namespace conv
JT_CPU_CAP_END
