// The indexing entry points' host side: plans made into args (index_items.cuh) and the sequence of
// walks, over a Grid that runs the items: the device's kernels (index_along.cu, index_advanced.cu)
// or a host test's loops. Self is the caller's tensor, so scatter, accumulate and put check every
// index in a walk of their own before any byte of self changes; gather and get write only their
// fresh output, checking as they go. A Grid has:
//   int open()                        a fresh first-bad word (kNoBad)
//   int check(const Args&)            the check walk: every bad item's position into the word
//   int write<T, MODE>(const Args&)   the write walk (gather and get report bad positions too)
//   int first_bad(uint64_t*)          the word, once the walks before it are done
//   int read_index(const char* base, bool wide, int64_t off, int64_t* v)   one index value
#pragma once
#include <cstdint>

#include "index_items.cuh"
#include "jt/index_limits.h"  // kMaxAdvancedIndices
#include "jt/jt.h"
#include "jt/plans.h"

namespace jt {
namespace cuda {

// JT_OK; JT_INVALID for a plan of another version or mode, or of more than kMaxDims dims not of
// size 1; JT_NO_KERNEL where the CPU's index_along has no loop either (an index dtype, a rank).
inline int prepare_along(const index_along_plan& r, AlongArgs& a) {
  if (!r.current() || r.mode < kGather || r.mode > kAccumulate || !valid_dtype((int)r.dtype)) return JT_INVALID;
  if (r.ndim < 1 || r.ndim > 64 || r.dim < 0 || r.dim >= r.ndim) return JT_NO_KERNEL;
  if (r.index_dtype != (int)DType::Int64 && r.index_dtype != (int)DType::Int32) return JT_NO_KERNEL;
  a.mode = (int)r.mode;
  a.dtype = (DType)r.dtype;
  a.wide = r.index_dtype == (int)DType::Int64;
  const int64_t elem = (int64_t)dtype_size(a.dtype), index_elem = a.wide ? 8 : 4;
  a.dim_size = r.dim_size;
  a.dim_stride = r.self_strides[r.dim] * elem;
  a.self = reinterpret_cast<char*>(r.self);
  a.index = reinterpret_cast<const char*>(r.index);
  a.other = reinterpret_cast<char*>(r.other);
  int64_t self_strides[64], check_sizes[64], check_strides[64];
  int nc = 0;
  a.n = a.nchecked = 1;
  for (int k = 0; k < r.ndim; ++k) {
    self_strides[k] = k == r.dim ? 0 : r.self_strides[k];  // the index value supplies that position
    a.n *= r.shape[k];
    if (r.index_strides[k] != 0) {
      check_sizes[nc] = r.shape[k], check_strides[nc++] = r.index_strides[k];
      a.nchecked *= r.shape[k];
    }
  }
  if (a.n == 0) return JT_OK;  // nothing is read
  const int64_t elems[3] = {elem, index_elem, elem};
  const int64_t* strides[3] = {self_strides, r.index_strides, r.other_strides};
  const int64_t* cstrides[1] = {check_strides};
  if (!a.g.build((int)r.ndim, r.shape, strides, elems) || !a.check.build(nc, check_sizes, cstrides, &index_elem))
    return JT_INVALID;
  return JT_OK;
}

// JT_INDEX_OUT_OF_RANGE with bad[0] the index at byte offset off.
template <typename Grid>
int report_index(Grid& grid, const char* base, bool wide, int64_t off, int64_t* bad) {
  int64_t v = 0;
  const int st = grid.read_index(base, wide, off, &v);
  if (st != JT_OK) return st;
  bad[0] = v;
  return JT_INDEX_OUT_OF_RANGE;
}

// Gather and scatter move bytes: one walk per element width. Accumulate adds in the dtype.
template <typename Grid>
int write_along(Grid& grid, const AlongArgs& a) {
  if (a.mode == kAccumulate)
    return dispatch_dtype(a.dtype, [&](auto tag) { return grid.template write<typename decltype(tag)::type, kAccumulate>(a); });
  auto move = [&](auto tag) {
    using W = typename decltype(tag)::type;
    return a.mode == kGather ? grid.template write<W, kGather>(a) : grid.template write<W, kScatter>(a);
  };
  switch (dtype_size(a.dtype)) {
    case 1: return move(TypeTag<uint8_t>{});
    case 2: return move(TypeTag<uint16_t>{});
    case 4: return move(TypeTag<uint32_t>{});
    case 8: return move(TypeTag<uint64_t>{});
  }
  return JT_NO_KERNEL;
}

// jtc_index_along over a grid: jt_index_along's statuses and *bad.
template <typename Grid>
int run_along(const int64_t* words, int64_t* bad, Grid& grid) {
  const index_along_plan r(words);
  AlongArgs a;
  int st = prepare_along(r, a);
  if (st != JT_OK || a.n == 0) return st;
  if ((st = grid.open()) != JT_OK) return st;
  uint64_t pos = kNoBad;
  const bool gather = a.mode == kGather;
  if (!gather) {
    if ((st = grid.check(a)) != JT_OK || (st = grid.first_bad(&pos)) != JT_OK) return st;
    if (pos != kNoBad) return report_index(grid, a.index, a.wide, along_index_offset(a, true, pos), bad);
  }
  if ((st = write_along(grid, a)) != JT_OK || !gather) return st;
  if ((st = grid.first_bad(&pos)) != JT_OK) return st;
  return pos == kNoBad ? JT_OK : report_index(grid, a.index, a.wide, along_index_offset(a, false, pos), bad);
}

constexpr int kFewIndices = 4;  // up to this many index tensors take the small args

// As prepare_along, for an advanced plan whose version, dtype and count the caller checked.
template <int K>
int prepare_advanced(const index_advanced_plan& r, AdvancedArgs<K>& a) {
  if (r.ndim < 0 || r.ndim > 64) return JT_NO_KERNEL;
  a.put = r.put != 0;
  a.dtype = (DType)r.dtype;
  a.nindices = (int)r.nindices;
  a.self = reinterpret_cast<char*>(r.self);
  a.other = reinterpret_cast<char*>(r.other);
  const int64_t elem = (int64_t)dtype_size(a.dtype);
  static const int64_t kZeros[64] = {};  // strides of the slots past nindices
  const int64_t* strides[2 + K] = {r.self_strides, r.other_strides};
  int64_t elems[2 + K] = {elem, elem};
  for (int j = 0; j < K; ++j) {
    strides[2 + j] = kZeros, elems[2 + j] = 0;
    if (j >= a.nindices) continue;
    if (r.index_dtypes[j] != (int)DType::Int64 && r.index_dtypes[j] != (int)DType::Int32) return JT_NO_KERNEL;
    a.index[j] = reinterpret_cast<const char*>(r.index_data[j]);
    a.wide[j] = r.index_dtypes[j] == (int)DType::Int64;
    a.size[j] = r.index_sizes[j];
    a.self_stride[j] = r.index_self_strides[j] * elem;
    strides[2 + j] = r.index_strides + j * r.ndim;
    elems[2 + j] = a.wide[j] ? 8 : 4;
  }
  a.n = 1;
  for (int d = 0; d < r.ndim; ++d) a.n *= r.shape[d];
  if (a.n == 0) return JT_OK;
  return a.g.build((int)r.ndim, r.shape, strides, elems) ? JT_OK : JT_INVALID;
}

// JT_INDEX_OUT_OF_RANGE with bad[0] the index and bad[1] its tensor, at a reported position.
template <typename Grid, int K>
int report_advanced(Grid& grid, const AdvancedArgs<K>& a, uint64_t pos, int64_t* bad) {
  const int64_t i = (int64_t)(pos / (uint64_t)a.nindices);
  const int j = (int)(pos % (uint64_t)a.nindices);
  int64_t off[2 + K];
  first_offsets(a.g, i, 2 + a.nindices, off);
  bad[1] = j;
  return report_index(grid, a.index[j], a.wide[j], off[2 + j], bad);
}

template <typename Grid, int K>
int run_advanced_with(const index_advanced_plan& r, int64_t* bad, Grid& grid) {
  AdvancedArgs<K> a;
  int st = prepare_advanced(r, a);
  if (st != JT_OK || a.n == 0) return st;
  if ((st = grid.open()) != JT_OK) return st;
  uint64_t pos = kNoBad;
  if (a.put) {
    if ((st = grid.check(a)) != JT_OK || (st = grid.first_bad(&pos)) != JT_OK) return st;
    if (pos != kNoBad) return report_advanced(grid, a, pos, bad);
  }
  auto move = [&](auto tag) {  // get and put move bytes
    using W = typename decltype(tag)::type;
    return a.put ? grid.template write<W, true>(a) : grid.template write<W, false>(a);
  };
  switch (dtype_size(a.dtype)) {
    case 1: st = move(TypeTag<uint8_t>{}); break;
    case 2: st = move(TypeTag<uint16_t>{}); break;
    case 4: st = move(TypeTag<uint32_t>{}); break;
    case 8: st = move(TypeTag<uint64_t>{}); break;
    default: return JT_NO_KERNEL;
  }
  if (st != JT_OK || a.put) return st;
  if ((st = grid.first_bad(&pos)) != JT_OK) return st;
  return pos == kNoBad ? JT_OK : report_advanced(grid, a, pos, bad);
}

// jtc_index_advanced over a grid: jt_index_advanced's statuses, bad[0] and bad[1].
template <typename Grid>
int run_advanced(const int64_t* words, int64_t* bad, Grid& grid) {
  const index_advanced_plan r(words);
  if (!r.current() || !valid_dtype((int)r.dtype) || r.nindices < 1 || r.nindices > kMaxAdvancedIndices) return JT_INVALID;
  return r.nindices <= kFewIndices ? run_advanced_with<Grid, kFewIndices>(r, bad, grid)
                                   : run_advanced_with<Grid, kMaxAdvancedIndices>(r, bad, grid);
}

}  // namespace cuda
}  // namespace jt
