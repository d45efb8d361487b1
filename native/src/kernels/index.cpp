// Gather and scatter by element offsets: the byte movers behind advanced indexing. Java computes
// the offsets and has checked every index against its dim; here only bytes move.
#include <cstring>

#include "kernels/kernels.h"
#include "parallel.h"

namespace jt {
namespace {

template <typename T>
void gather_typed(T* dst, const T* src, const int64_t* offsets, int64_t n) {
  parallel_for(0, n, kGrainSize, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) dst[i] = src[offsets[i]];
  });
}

template <typename T>
void scatter_typed(T* dst, const int64_t* offsets, const T* src, int64_t n) {
  // Serial: with repeated offsets the last write must win, as a sequential loop gives.
  for (int64_t i = 0; i < n; ++i) dst[offsets[i]] = src[i];
}

}  // namespace

void index_gather(void* dst, const void* src, int elem_size, const int64_t* offsets, int64_t n) {
  switch (elem_size) {
    case 1: gather_typed(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(src), offsets, n); break;
    case 2: gather_typed(static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), offsets, n); break;
    case 4: gather_typed(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), offsets, n); break;
    case 8: gather_typed(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(src), offsets, n); break;
  }
}

void index_scatter(void* dst, int elem_size, const int64_t* offsets, const void* src, int64_t n) {
  switch (elem_size) {
    case 1: scatter_typed(static_cast<uint8_t*>(dst), offsets, static_cast<const uint8_t*>(src), n); break;
    case 2: scatter_typed(static_cast<uint16_t*>(dst), offsets, static_cast<const uint16_t*>(src), n); break;
    case 4: scatter_typed(static_cast<uint32_t*>(dst), offsets, static_cast<const uint32_t*>(src), n); break;
    case 8: scatter_typed(static_cast<uint64_t*>(dst), offsets, static_cast<const uint64_t*>(src), n); break;
  }
}

}  // namespace jt
