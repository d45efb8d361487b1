// The CUDA indexing kernels' logic without a GPU: index_plans.cuh's entry sequence and
// index_items.cuh's per-item functions, run over a grid emulated by loops (items in a scrambled
// order, since a grid's threads keep none) on host memory, against the CPU (../index_cases.h: every
// mode and dtype, strided, transposed and broadcast operands, int32 and int64 indices, negative
// ones, the first out-of-range index as the CPU reports it with nothing written), and the
// compare-and-swap word of the 1- and 2-byte accumulate lane by lane.
#include <cstdio>
#include <cstring>
#include <vector>

#include "../index_cases.h"
#include "check.h"
#include "index_plans.cuh"
#include "jt/jt.h"

using namespace jt;
using namespace jt::cuda;

namespace {

using index_cases::Buf;
using index_cases::PlanOf;
using index_cases::V;

// Items 0..n-1 in a scrambled order: evens up, then odds down.
template <typename F>
void each_item(int64_t n, F&& f) {
  for (int64_t i = 0; i < n; i += 2) f(i);
  for (int64_t i = (n - 1) | 1; i >= 1; i -= 2)
    if (i < n) f(i);
}

struct HostWord {
  uint64_t word = kNoBad;
  int open() {
    word = kNoBad;
    return JT_OK;
  }
  int first_bad(uint64_t* pos) {
    *pos = word;
    return JT_OK;
  }
  int read_index(const char* base, bool wide, int64_t off, int64_t* v) {
    *v = load_index(base, wide, off);
    return JT_OK;
  }
};

// As index_along.cu's kernels.
struct AlongHostGrid : HostWord {
  int check(const AlongArgs& a) {
    each_item(a.nchecked, [&](int64_t i) {
      if (!along_index_ok(a, i)) note_bad(&word, (uint64_t)i);
    });
    return JT_OK;
  }
  template <typename T, int MODE>
  int write(const AlongArgs& a) {
    each_item(a.n, [&](int64_t i) {
      if (!along_item<T, MODE>(a, i) && MODE == kGather) note_bad(&word, (uint64_t)i);
    });
    return JT_OK;
  }
};

// As index_advanced.cu's kernels.
struct AdvancedHostGrid : HostWord {
  template <int K>
  int check(const AdvancedArgs<K>& a) {
    each_item(a.n, [&](int64_t i) {
      const int j = advanced_item<void, K, true>(a, i);
      if (j >= 0) note_bad(&word, advanced_bad_key(a, i, j));
    });
    return JT_OK;
  }
  template <typename T, bool PUT, int K>
  int write(const AdvancedArgs<K>& a) {
    each_item(a.n, [&](int64_t i) {
      const int j = advanced_item<T, K, PUT>(a, i);
      if (!PUT && j >= 0) note_bad(&word, advanced_bad_key(a, i, j));
    });
    return JT_OK;
  }
};

}  // namespace

// The kernels under test: index_plans.cuh's sequence over the emulated grids, on host memory.
int index_cases::under_test(bool advanced, const PlanOf& plan_of, const std::vector<Buf*>& bufs, int64_t* bad) {
  V addresses;
  for (Buf* b : bufs) addresses.push_back(b->addr());
  V plan = plan_of(addresses);
  if (advanced) {
    AdvancedHostGrid grid;
    return run_advanced(plan.data(), bad, grid);
  }
  AlongHostGrid grid;
  return run_along(plan.data(), bad, grid);
}

namespace {

// the compare-and-swap word: each lane of a word accumulated alone, the others kept
void cas_lanes() {
  uint32_t word = 0x80FF7F01u;
  int8_t* lanes = reinterpret_cast<int8_t*>(&word);
  accumulate_at(lanes + 1, (int8_t)1);   // 0x7F + 1 wraps to 0x80
  accumulate_at(lanes + 3, (int8_t)-1);  // 0x80 - 1 wraps to 0x7F
  CHECK_EQ(word, 0x7FFF8001u);
  uint32_t halves = 0xFFFF0002u;
  int16_t* h = reinterpret_cast<int16_t*>(&halves);
  accumulate_at(h + 1, (int16_t)1);  // -1 + 1
  CHECK_EQ(halves, 0x00000002u);
  uint32_t flags = 0x00BE0000u;  // a bool byte of 190 reads true; true + false is stored as 1
  bool* b = reinterpret_cast<bool*>(&flags);
  accumulate_at(b + 2, false);
  accumulate_at(b + 0, true);
  CHECK_EQ(flags, 0x00010001u);
}

}  // namespace

int main() {
  index_cases::run_all();
  cas_lanes();
  return jt_report("index_host_test");
}
