// The geometry of sliding windows (im2col, col2im, max pooling) for the CPU and CUDA kernels alike
// (JT_HOST_DEVICE): a plan's 1 to 3 spatial dims as three, missing leading dims of size 1, so one
// loop nest serves conv1d, conv2d and conv3d.
#pragma once
#include <cstdint>
#include <limits>
#include <type_traits>

#include "jt/dtype.h"

namespace jt {

struct WindowGeometry {
  int64_t batch = 0, channels = 0;
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1}, padding[3] = {0, 0, 0}, dilation[3] = {1, 1, 1};
  int64_t image_n = 0, image_c = 0, image_s[3] = {0, 0, 0};  // element strides
  int64_t col_n = 0, col_row = 0, col_pos = 0;                  // the columns' strides (windows plans only)

  // False when the plan's numbers cannot describe windows (Java checks them first; this guards the kernel).
  template <typename Plan>
  bool read(const Plan& r) {
    if (r.nsp < 1 || r.nsp > 3 || r.batch < 0 || r.channels < 0) return false;
    batch = r.batch;
    channels = r.channels;
    image_n = r.image_strides[0];
    image_c = r.image_strides[1];
    const int first = 3 - (int)r.nsp;
    for (int d = 0; d < (int)r.nsp; ++d) {
      const int g = first + d;
      in[g] = r.in_sizes[d];
      out[g] = r.out_sizes[d];
      kernel[g] = r.kernel[d];
      stride[g] = r.stride[d];
      padding[g] = r.padding[d];
      dilation[g] = r.dilation[d];
      image_s[g] = r.image_strides[2 + d];
      if (in[g] < 0 || out[g] < 0 || kernel[g] < 1 || stride[g] < 1 || padding[g] < 0 || dilation[g] < 1) return false;
      // Every read, o·stride − padding + k·dilation, in int64: a wrapped one would lie outside the image
      // where the kernels' span scans take it for inside (Java refuses such geometry by name first).
      const int64_t last = out[g] > 0 ? out[g] - 1 : 0, reach = kernel[g] - 1;
      if (!fits_product(last, stride[g]) || !fits_product(reach, dilation[g]) || last * stride[g] > INT64_MAX - reach * dilation[g]) {
        return false;
      }
    }
    return true;
  }

  static bool fits_product(int64_t a, int64_t b) { return a == 0 || b <= INT64_MAX / a; }  // a, b >= 0

  // The windows plan's columns strides, over [batch, channels · window_size, positions].
  template <typename Plan>
  bool read_columns(const Plan& r) {
    col_n = r.columns_strides[0];
    col_row = r.columns_strides[1];
    col_pos = r.columns_strides[2];
    return col_n >= 0 && col_row >= 0 && col_pos >= 0;
  }

  JT_HOST_DEVICE int64_t window_size() const { return kernel[0] * kernel[1] * kernel[2]; }
  JT_HOST_DEVICE int64_t positions() const { return out[0] * out[1] * out[2]; }
  JT_HOST_DEVICE int64_t plane() const { return in[0] * in[1] * in[2]; }
  // Where kernel offset k of the window at output position o reads along dim d (may be outside [0, in)).
  JT_HOST_DEVICE int64_t at(int d, int64_t o, int64_t k) const { return o * stride[d] - padding[d] + k * dilation[d]; }
};

// A window wholly in the padding (kernel 2, dilation 2 and padding 1 over a width of 1 make one:
// PyTorch accepts the geometry) reads nothing: its maximum is PyTorch's starting value, -inf (an
// integer type's lowest), and its index -1, which the backward skips, as the output depends on no
// input. (PyTorch's index there names its start stepped past the padding: an element outside the
// window, or past the plane, where its backward would write.) A: T's math type.
template <typename T, typename A>
JT_HOST_DEVICE inline T empty_window_max() {
  if constexpr (std::is_floating_point<A>::value) {
    return (T)(-std::numeric_limits<A>::infinity());
  } else {
    return std::numeric_limits<T>::lowest();
  }
}

}  // namespace jt
