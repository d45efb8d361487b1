// The plans Java hands to kernels. A plan crosses JNI as one int64 array: one-word fields F(name),
// then arrays A(name, length) whose lengths are expressions of the fields before them, in the
// order listed. Each list below is the only statement of its plan's layout on this side; Java's
// packer for the plan (org.jtensor.dispatch.plan) states its own and the two are compared as
// strings (jt_plan_layout) when the library loads. Word 0 is always the layout version, checked
// again on every call. Every plan that writes a tensor carries that tensor's dtype, which the
// kernel checks against what it would write.
#pragma once
#include <cstdint>

#define JT_PLAN_VERSION 1

#define JT_COPY_PLAN(F, A) \
  F(version) F(ndim) F(dst) F(dst_dtype) F(src) F(src_dtype) \
  A(sizes, ndim) A(dst_strides, ndim) A(src_strides, ndim)

#define JT_FILL_PLAN(F, A) \
  F(version) F(ndim) F(dst) F(dtype) F(integral) F(value) \
  A(sizes, ndim) A(strides, ndim)

// params: four doubles' raw bits, then the same four as exact longs. scalars: per operand, the
// value (raw double bits or an exact long) and (dtype code << 1 | integral); read where address is 0.
#define JT_ELEMENTWISE_PLAN(F, A) \
  F(version) F(op) F(dtype) F(out_dtype) F(nops) F(ndim) \
  A(params, 8) A(addresses, nops) A(scalars, 2 * nops) A(sizes, ndim) A(strides, nops * ndim)

#define JT_REDUCE_PLAN(F, A) \
  F(version) F(op) F(dtype) F(out_dtype) F(ndim) F(out) F(in) F(values) F(divisor) \
  A(sizes, ndim) A(out_strides, ndim) A(in_strides, ndim) A(reduced, ndim)

// A scan along dim (op from jt_scan_op_id): out over in's shape; indices (int64, same shape) are
// written by cummax/cummin only (0 and ignored otherwise).
#define JT_SCAN_PLAN(F, A) \
  F(version) F(op) F(dtype) F(out_dtype) F(ndim) F(dim) F(out) F(in) F(indices) \
  A(sizes, ndim) A(out_strides, ndim) A(in_strides, ndim) A(indices_strides, ndim)

#define JT_GEMM_PLAN(F, A) \
  F(version) F(dtype) F(out_dtype) F(m) F(n) F(k) F(a) F(b) F(c) \
  F(a_row) F(a_col) F(b_row) F(b_col) F(c_row) F(c_col) F(alpha) F(beta) F(batch_ndim) \
  A(batch_sizes, batch_ndim) A(a_batch, batch_ndim) A(b_batch, batch_ndim) A(c_batch, batch_ndim)

// Indexing along dim (gather, scatter, index_select, index_add_): self, index and other walked
// over one iteration shape; self's stride along dim applies to the index value. self and other
// share dtype, which is the output's whichever of them is written.
#define JT_INDEX_ALONG_PLAN(F, A) \
  F(version) F(mode) F(dtype) F(index_dtype) F(ndim) F(dim) F(dim_size) F(self) F(index) F(other) \
  A(shape, ndim) A(self_strides, ndim) A(index_strides, ndim) A(other_strides, ndim)

// A random draw into dst (row-major element order): kind from jt_random_kind; a and b as double
// bits (integers: low and range as int64); p the float64 probabilities of bernoulli_tensor, else 0.
#define JT_RANDOM_PLAN(F, A) \
  F(version) F(kind) F(dtype) F(ndim) F(dst) F(key) F(counter) F(a) F(b) F(p) \
  A(sizes, ndim) A(dst_strides, ndim) A(p_strides, ndim)

// Advanced indexing (get: other = self[indices]; put: self[indices] = other): every operand over the
// result's shape; per index tensor its data, dtype, the indexed dim's size and self stride, and its
// strides over the result's shape.
#define JT_INDEX_ADVANCED_PLAN(F, A) \
  F(version) F(put) F(dtype) F(ndim) F(nindices) F(self) F(other) \
  A(shape, ndim) A(self_strides, ndim) A(other_strides, ndim) A(index_data, nindices) A(index_dtypes, nindices) \
  A(index_sizes, nindices) A(index_self_strides, nindices) A(index_strides, nindices * ndim)

// nonzero: the coordinates of src's non-zero elements into out ([rows, ndim] int64), or only their count when out is 0.
#define JT_NONZERO_PLAN(F, A) \
  F(version) F(dtype) F(ndim) F(src) F(out) F(rows) A(sizes, ndim) A(strides, ndim)

// sort along dim (stable; NaN largest): values in dtype, indices int64, both over in's shape.
#define JT_SORT_PLAN(F, A) \
  F(version) F(dtype) F(ndim) F(dim) F(descending) F(values) F(indices) F(in) \
  A(sizes, ndim) A(values_strides, ndim) A(indices_strides, ndim) A(in_strides, ndim)

// select along dim (kthvalue, mode, nanmedian): per line of in along dim, the int64 position of its
// k-th smallest element (op 0, k from 0; NaN largest), of its mode (op 1) or of its median
// ignoring NaN (op 2), each chosen among equal values as PyTorch's CPU kernel chooses; indices has
// in's shape but size 1 at dim.
#define JT_SELECT_PLAN(F, A) \
  F(version) F(op) F(dtype) F(ndim) F(dim) F(k) F(indices) F(in) \
  A(sizes, ndim) A(indices_strides, ndim) A(in_strides, ndim)

// searchsorted: out[i] (int64 or int32, contiguous) = where in[i] goes in its row of bd (lower
// bound, or upper when right), in and bd contiguous in dtype: bd is rows rows of len, in's value i
// searches row i / inner, or the one row when shared; sorter (int64, bd's layout, 0 for none)
// orders each row. n values in all.
#define JT_SEARCH_PLAN(F, A) \
  F(version) F(dtype) F(out_dtype) F(right) F(n) F(inner) F(rows) F(len) F(shared) F(out) F(in) F(bd) F(sorter)

// softmax (log 0) or log_softmax (log 1) along dim: out has in's shape and dtype; float16/bfloat16
// accumulate in float, float32 in float, float64 in double (as PyTorch).
#define JT_SOFTMAX_PLAN(F, A) \
  F(version) F(log) F(dtype) F(ndim) F(dim) F(out) F(in) \
  A(sizes, ndim) A(out_strides, ndim) A(in_strides, ndim)

// Sliding windows over nsp (1 to 3) spatial dims, as convolution and pooling see them (windows.h):
// the image [batch, channels, in_sizes...] with image_strides (2 + nsp, elements), each window of
// kernel elements dilation apart, windows stride apart from -padding, out_sizes windows per dim.
// fold 0 (im2col): columns [batch, channels * prod(kernel), prod(out_sizes)] with columns_strides
// (3; im2col writes them row-major only, col2im reads any layout) gets each window's elements
// (0 where it reaches past the image); fold 1 (col2im): the image gets, per element, the sum of
// the columns' entries that read it (every image element written).
#define JT_WINDOWS_PLAN(F, A) \
  F(version) F(fold) F(dtype) F(nsp) F(batch) F(channels) F(image) F(columns) \
  A(columns_strides, 3) A(image_strides, 2 + nsp) A(in_sizes, nsp) A(out_sizes, nsp) A(kernel, nsp) A(stride, nsp) A(padding, nsp) A(dilation, nsp)

// Max pooling over the same windows: out (dtype) and indices (int64), contiguous [batch, channels,
// out_sizes...], get each window's maximum (NaN wins, the first of equals) and its position in
// the image's plane (row-major over in_sizes), as PyTorch's max_pool*_with_indices. backward 1:
// the image (the input's gradient, every element written) gets the sum of out's entries (the
// output's gradient) whose index names it.
#define JT_MAX_POOL_PLAN(F, A) \
  F(version) F(backward) F(dtype) F(nsp) F(batch) F(channels) F(image) F(out) F(indices) \
  A(image_strides, 2 + nsp) A(in_sizes, nsp) A(out_sizes, nsp) A(kernel, nsp) A(stride, nsp) A(padding, nsp) A(dilation, nsp)

// Normalization (batch, layer and group norm; jt/norm.h) over x, contiguous [n, c, s] in dtype, in
// statistics groups: by_channel 1 (batch norm) one per channel over its n·s elements; 0 (layer and
// group norm) groups per sample, each c/groups consecutive channels of s elements. mean and rstd
// (float64 whatever x's dtype; [c] or [n, groups]) are written by the forward, or given when
// fixed is 1 (batch norm in eval). weight and bias ([c], dtype; 0 when absent) scale and shift each
// channel; eps is a double's bits. backward 0: y = (x - mean)·rstd·weight + bias. backward 1: from
// grad ([n, c, s]) the gradients grad_x, grad_weight and grad_bias (each 0 when not wanted), mean and
// rstd treated as functions of x unless fixed.
#define JT_NORM_PLAN(F, A) \
  F(version) F(backward) F(by_channel) F(fixed) F(dtype) F(n) F(c) F(s) F(groups) F(eps) \
  F(x) F(weight) F(bias) F(mean) F(rstd) F(y) F(grad) F(grad_x) F(grad_weight) F(grad_bias)

// Scaled dot-product attention (vectorized/attention.cpp) over contiguous q [batch, heads, lq, e],
// k [batch, kv_heads, lk, e], v [batch, kv_heads, lk, ev] in dtype (float32, float64; float16 and
// bfloat16 on CUDA); query head h reads kv head h / (heads / kv_heads). scale and dropout are
// doubles' bits; causal keeps key j for query i when j <= i; mask_kind 0 none, 1 bool (true takes
// part), 2 additive in dtype's math type (float32 for 16-bit dtypes, as lse), read
// at mask with mask_strides over (batch, head, query, key), 0 where broadcast. Dropout draws from
// Philox under seed from block counter. mode 0: out [batch, heads, lq, ev] and lse [batch, heads,
// lq] (the rows' log-sum-exp, -inf for a row with every key masked). mode 1: from grad_out, out and
// lse the gradients grad_q, grad_k, grad_v (0 when not wanted). mode 2: the dropout factors
// (1 / (1 - dropout) or 0) as out [batch, heads, lq, lk].
#define JT_ATTENTION_PLAN(F, A) \
  F(version) F(mode) F(dtype) F(batch) F(heads) F(kv_heads) F(lq) F(lk) F(e) F(ev) F(scale) F(causal) \
  F(mask_kind) F(dropout) F(seed) F(counter) F(q) F(k) F(v) F(mask) F(out) F(lse) F(grad_out) F(grad_q) \
  F(grad_k) F(grad_v) A(mask_strides, 4)

// Direct convolution (vectorized/convolution.cpp, conv_lanes.cpp), over contiguous x [batch, channels,
// in_sizes...], y [batch, out_channels, out_sizes...] and weight [out_channels, channels / groups,
// kernel...] in dtype (float32 or float64): out = (in + pad_before + pad_after - dilation·(kernel - 1)
// - 1) / stride + 1. mode 0: y = x ⋆ weight + bias (bias [out_channels], 0 when absent). mode 1: x =
// the input's gradient from y, the output's (at stride 1 each pad at most dilation·(kernel - 1)).
// mode 2: weight = its gradient from x and y (bias unused).
#define JT_CONV_PLAN(F, A) \
  F(version) F(mode) F(dtype) F(nsp) F(batch) F(channels) F(out_channels) F(groups) F(x) F(weight) F(bias) F(y) \
  A(in_sizes, nsp) A(out_sizes, nsp) A(kernel, nsp) A(pad_before, nsp) A(pad_after, nsp) A(dilation, nsp) A(stride, nsp)

// grid_sample over contiguous input [n, c, (in_d,) in_h, in_w] and grid [n, (out_d,) out_h, out_w,
// nsp] (x, y(, z), in [-1, 1] across the input) in dtype (float32, float64), nsp 2 (in_d = out_d
// = 1; kernels/grid_sample.cpp, as PyTorch's 2-D CPU kernel) or 3 (grid_sample_3d.cpp, as its 3-D
// one): mode 0 bilinear (trilinear), 1 nearest, 2 bicubic (2-D only); padding 0 zeros, 1 border,
// 2 reflection. backward 0: out [n, c, (out_d,) out_h, out_w]. backward 1: from grad_out (out's
// shape) grad_input (input's shape) and grad_grid (grid's shape), each 0 when not wanted, every
// element written.
#define JT_GRID_SAMPLE_PLAN(F, A) \
  F(version) F(backward) F(dtype) F(mode) F(padding) F(align_corners) F(nsp) F(n) F(c) F(in_d) F(in_h) F(in_w) \
  F(out_d) F(out_h) F(out_w) F(input) F(grid) F(out) F(grad_out) F(grad_input) F(grad_grid)

#define JT_FORALL_PLANS(P) \
  P(copy, JT_COPY_PLAN) P(fill, JT_FILL_PLAN) P(elementwise, JT_ELEMENTWISE_PLAN) \
  P(reduce, JT_REDUCE_PLAN) P(scan, JT_SCAN_PLAN) P(gemm, JT_GEMM_PLAN) P(index_along, JT_INDEX_ALONG_PLAN) \
  P(random, JT_RANDOM_PLAN) P(index_advanced, JT_INDEX_ADVANCED_PLAN) P(nonzero, JT_NONZERO_PLAN) \
  P(sort, JT_SORT_PLAN) P(select, JT_SELECT_PLAN) P(search, JT_SEARCH_PLAN) P(softmax, JT_SOFTMAX_PLAN) P(windows, JT_WINDOWS_PLAN) P(max_pool, JT_MAX_POOL_PLAN) \
  P(norm, JT_NORM_PLAN) P(attention, JT_ATTENTION_PLAN) P(conv, JT_CONV_PLAN) P(grid_sample, JT_GRID_SAMPLE_PLAN)

namespace jt {

// One reader struct per plan: jt::copy_plan r(words) gives r.ndim, r.sizes, ... by name.
#define JT_PLAN_FIELD_DECL(f) int64_t f = 0;
#define JT_PLAN_ARRAY_DECL(f, len) const int64_t* f = nullptr;
#define JT_PLAN_FIELD_READ(f) f = w[at++];
#define JT_PLAN_ARRAY_READ(f, len) f = w + at; at += (len);
#define JT_PLAN_READER(name, LIST)                                 \
  struct name##_plan {                                             \
    LIST(JT_PLAN_FIELD_DECL, JT_PLAN_ARRAY_DECL)                   \
    explicit name##_plan(const int64_t* w) {                       \
      int64_t at = 0;                                              \
      LIST(JT_PLAN_FIELD_READ, JT_PLAN_ARRAY_READ)                 \
      (void)at;                                                    \
    }                                                              \
    bool current() const { return version == JT_PLAN_VERSION; }    \
  };
JT_FORALL_PLANS(JT_PLAN_READER)
#undef JT_PLAN_READER
#undef JT_PLAN_FIELD_DECL
#undef JT_PLAN_ARRAY_DECL
#undef JT_PLAN_FIELD_READ
#undef JT_PLAN_ARRAY_READ

}  // namespace jt
