// The geometry of sliding windows (im2col, col2im, max pooling) for the CPU and CUDA kernels alike
// (JT_HOST_DEVICE): a plan's 1 to 3 spatial dims as three, missing leading dims of size 1, so one
// loop nest serves conv1d, conv2d and conv3d.
#pragma once
#include <cstdint>

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
    }
    return true;
  }

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

}  // namespace jt
