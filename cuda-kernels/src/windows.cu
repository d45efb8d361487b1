// Sliding windows on CUDA (jt/windows.h, the CPU kernels' geometry): im2col a thread per column
// entry; col2im a thread per image element, gathering the column entries that read it (no
// atomics, so the sums are deterministic, in the CPU's accumulator type); max pooling a thread per
// window, with the CPU's rule for NaN and ties.
#include "jt/no_throw.h"
#include "jt/functors.h"
#include "jt/jt.h"
#include "jt/plans.h"
#include "jt/windows.h"
#include "runtime.cuh"

namespace jt {
namespace cuda {
namespace {

__device__ inline int64_t first_item() { return blockIdx.x * (int64_t)blockDim.x + threadIdx.x; }
__device__ inline int64_t item_step() { return (int64_t)gridDim.x * blockDim.x; }

template <typename T>
__global__ void im2col_kernel(const __grid_constant__ WindowGeometry g, const T* image, T* cols) {
  const int64_t K = g.window_size(), L = g.positions(), total = g.batch * g.channels * K * L;
  for (int64_t i = first_item(); i < total; i += item_step()) {
    const int64_t pos = i % L, row = (i / L) % (g.channels * K), n = i / (L * g.channels * K);
    const int64_t c = row / K, k = row % K;
    const int64_t kw = k % g.kernel[2], kh = (k / g.kernel[2]) % g.kernel[1], kd = k / (g.kernel[2] * g.kernel[1]);
    const int64_t ow = pos % g.out[2], oh = (pos / g.out[2]) % g.out[1], od = pos / (g.out[2] * g.out[1]);
    const int64_t id = g.at(0, od, kd), ih = g.at(1, oh, kh), iw = g.at(2, ow, kw);
    const bool inside = id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1] && iw >= 0 && iw < g.in[2];
    cols[n * g.col_n + row * g.col_row + pos * g.col_pos] = inside ? image[n * g.image_n + c * g.image_c + id * g.image_s[0] + ih * g.image_s[1] + iw * g.image_s[2]] : T(0);
  }
}

// The output positions o along dim d whose window reads i with kernel offset k: o·stride = i + padding − k·dilation.
__device__ inline bool reader(const WindowGeometry& g, int d, int64_t i, int64_t k, int64_t& o) {
  const int64_t t = i + g.padding[d] - k * g.dilation[d];
  if (t < 0 || t % g.stride[d] != 0) return false;
  o = t / g.stride[d];
  return o < g.out[d];
}

template <typename T>
__global__ void col2im_kernel(const __grid_constant__ WindowGeometry g, T* image, const T* cols) {
  using A = opmath_t<T>;
  const int64_t K = g.window_size(), L = g.positions(), P = g.plane(), total = g.batch * g.channels * P;
  for (int64_t i = first_item(); i < total; i += item_step()) {
    const int64_t p = i % P, u = i / P, n = u / g.channels, c = u % g.channels;
    const int64_t iw = p % g.in[2], ih = (p / g.in[2]) % g.in[1], id = p / (g.in[2] * g.in[1]);
    const T* col = cols + n * g.col_n + c * K * g.col_row;
    A sum = 0;
    for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
      int64_t od;
      if (!reader(g, 0, id, kd, od)) continue;
      for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
        int64_t oh;
        if (!reader(g, 1, ih, kh, oh)) continue;
        for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
          int64_t ow;
          if (!reader(g, 2, iw, kw, ow)) continue;
          const int64_t k = (kd * g.kernel[1] + kh) * g.kernel[2] + kw;
          sum += (A)col[k * g.col_row + ((od * g.out[1] + oh) * g.out[2] + ow) * g.col_pos];
        }
      }
    }
    image[n * g.image_n + c * g.image_c + id * g.image_s[0] + ih * g.image_s[1] + iw * g.image_s[2]] = (T)sum;
  }
}

template <typename T>
__global__ void max_pool_kernel(const __grid_constant__ WindowGeometry g, const T* image, T* out, int64_t* indices) {
  using A = opmath_t<T>;
  const int64_t L = g.positions(), total = g.batch * g.channels * L;
  for (int64_t i = first_item(); i < total; i += item_step()) {
    const int64_t pos = i % L, u = i / L, n = u / g.channels, c = u % g.channels;
    const int64_t ow = pos % g.out[2], oh = (pos / g.out[2]) % g.out[1], od = pos / (g.out[2] * g.out[1]);
    const T* src = image + n * g.image_n + c * g.image_c;
    A best{};  // the window's first element replaces it (where < 0)
    int64_t where = -1;
    for (int64_t kd = 0; kd < g.kernel[0]; ++kd) {
      const int64_t id = g.at(0, od, kd);
      if (id < 0 || id >= g.in[0]) continue;
      for (int64_t kh = 0; kh < g.kernel[1]; ++kh) {
        const int64_t ih = g.at(1, oh, kh);
        if (ih < 0 || ih >= g.in[1]) continue;
        for (int64_t kw = 0; kw < g.kernel[2]; ++kw) {
          const int64_t iw = g.at(2, ow, kw);
          if (iw < 0 || iw >= g.in[2]) continue;
          const A v = (A)src[id * g.image_s[0] + ih * g.image_s[1] + iw * g.image_s[2]];
          if (where < 0 || v > best || v != v) {
            best = v;
            where = (id * g.in[1] + ih) * g.in[2] + iw;
          }
        }
      }
    }
    out[i] = where < 0 ? empty_window_max<T, A>() : (T)best;  // a window wholly in the padding (jt/windows.h)
    indices[i] = where;
  }
}

// The input's gradient, a thread per input element: the sum of the gradients of the windows that
// cover it and took it (their index names it), gathered, so no atomics and a fixed order.
template <typename T>
__global__ void max_pool_backward_kernel(const __grid_constant__ WindowGeometry g, T* grad_in, const T* grad_out, const int64_t* indices) {
  using A = opmath_t<T>;
  const int64_t L = g.positions(), P = g.plane(), total = g.batch * g.channels * P;
  for (int64_t i = first_item(); i < total; i += item_step()) {
    const int64_t p = i % P, u = i / P;
    const int64_t ix[3] = {p / (g.in[2] * g.in[1]), (p / g.in[2]) % g.in[1], p % g.in[2]};
    int64_t lo[3], hi[3];
    for (int d = 0; d < 3; ++d) {  // windows o with o·stride − padding ≤ i ≤ o·stride − padding + (kernel − 1)·dilation
      const int64_t reach = (g.kernel[d] - 1) * g.dilation[d], top = ix[d] + g.padding[d];
      lo[d] = top - reach <= 0 ? 0 : (top - reach + g.stride[d] - 1) / g.stride[d];
      hi[d] = top / g.stride[d] + 1 < g.out[d] ? top / g.stride[d] + 1 : g.out[d];
    }
    const T* go = grad_out + u * L;
    const int64_t* idx = indices + u * L;
    A sum = 0;
    for (int64_t od = lo[0]; od < hi[0]; ++od)
      for (int64_t oh = lo[1]; oh < hi[1]; ++oh)
        for (int64_t ow = lo[2]; ow < hi[2]; ++ow) {
          const int64_t o = (od * g.out[1] + oh) * g.out[2] + ow;
          if (idx[o] == p) sum += (A)go[o];
        }
    grad_in[(u / g.channels) * g.image_n + (u % g.channels) * g.image_c + ix[0] * g.image_s[0] + ix[1] * g.image_s[1] + ix[2] * g.image_s[2]] = (T)sum;
  }
}

}  // namespace
}  // namespace cuda
}  // namespace jt

using namespace jt;
using namespace jt::cuda;

static int windows_unguarded(const int64_t* words) {
  windows_plan r(words);
  WindowGeometry g;
  if (!r.current() || !g.read(r) || !g.read_columns(r) || (r.fold != 0 && r.fold != 1)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value) {
      const int64_t work = r.fold ? g.batch * g.channels * g.plane() : g.batch * g.channels * g.window_size() * g.positions();
      if (work == 0) {
        st = JT_OK;
        return;
      }
      T* image = reinterpret_cast<T*>(r.image);
      T* cols = reinterpret_cast<T*>(r.columns);
      if (r.fold) col2im_kernel<T><<<blocks_for(work), kThreads, 0, current_stream()>>>(g, image, cols);
      else im2col_kernel<T><<<blocks_for(work), kThreads, 0, current_stream()>>>(g, image, cols);
      st = launch_status();
    }
  });
  return st;
}
int jtc_windows(const int64_t* words) { return jt::guarded_status([&] { return windows_unguarded(words); }); }

static int max_pool_unguarded(const int64_t* words) {
  max_pool_plan r(words);
  WindowGeometry g;
  if (!r.current() || !g.read(r)) return JT_INVALID;
  int st = JT_NO_KERNEL;
  dispatch_dtype((DType)r.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (is_floating<T>::value || kInt<T>) {
      const int64_t work = g.batch * g.channels * (r.backward ? g.plane() : g.positions());
      if (work == 0) {
        st = JT_OK;
        return;
      }
      if (r.backward) {  // indices from the forward kernel; one outside the plane matches no element, so nothing reads or writes outside
        max_pool_backward_kernel<T><<<blocks_for(work), kThreads, 0, current_stream()>>>(
            g, reinterpret_cast<T*>(r.image), reinterpret_cast<const T*>(r.out), reinterpret_cast<const int64_t*>(r.indices));
        st = launch_status();
        return;
      }
      max_pool_kernel<T><<<blocks_for(work), kThreads, 0, current_stream()>>>(g, reinterpret_cast<const T*>(r.image),
                                                                             reinterpret_cast<T*>(r.out), reinterpret_cast<int64_t*>(r.indices));
      st = launch_status();
    }
  });
  return st;
}
int jtc_max_pool(const int64_t* words) { return jt::guarded_status([&] { return max_pool_unguarded(words); }); }
