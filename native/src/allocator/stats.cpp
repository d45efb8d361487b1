#include "allocator/stats.h"

#include <algorithm>
#include <utility>

namespace jt {
namespace {

const char* kPools[kNumStatTypes] = {"all", "small_pool", "large_pool"};
const char* kFields[4] = {"current", "peak", "allocated", "freed"};

int64_t field(const Stat& s, int f) {
  return f == 0 ? s.current : f == 1 ? s.peak : f == 2 ? s.allocated : s.freed;
}

// Every (name, getter) pair in one list; sorted once so Java gets PyTorch's ordering.
struct Entry {
  std::string name;
  int64_t (*get)(const DeviceStats&, int, int);
  int a, b;
};

std::vector<Entry> build_entries() {
  std::vector<Entry> e;
#define JT_ADD_FAMILY(fam)                                                              \
  for (int p = 0; p < kNumStatTypes; ++p)                                              \
    for (int f = 0; f < 4; ++f)                                                        \
      e.push_back({std::string(#fam) + "." + kPools[p] + "." + kFields[f],             \
                   [](const DeviceStats& s, int p2, int f2) { return field(s.fam[p2], f2); }, p, f});
  JT_STAT_FAMILIES(JT_ADD_FAMILY)
#undef JT_ADD_FAMILY
  for (int f = 0; f < 4; ++f) {
    e.push_back({std::string("oversize_allocations.") + kFields[f],
                 [](const DeviceStats& s, int, int f2) { return field(s.oversize_allocations, f2); }, 0, f});
    e.push_back({std::string("oversize_segments.") + kFields[f],
                 [](const DeviceStats& s, int, int f2) { return field(s.oversize_segments, f2); }, 0, f});
  }
  e.push_back({"max_split_size", [](const DeviceStats& s, int, int) { return s.max_split_size; }, 0, 0});
  e.push_back({"num_alloc_retries", [](const DeviceStats& s, int, int) { return s.num_alloc_retries; }, 0, 0});
  e.push_back({"num_device_alloc", [](const DeviceStats& s, int, int) { return s.num_device_alloc; }, 0, 0});
  e.push_back({"num_device_free", [](const DeviceStats& s, int, int) { return s.num_device_free; }, 0, 0});
  e.push_back({"num_ooms", [](const DeviceStats& s, int, int) { return s.num_ooms; }, 0, 0});
  std::sort(e.begin(), e.end(), [](const Entry& x, const Entry& y) { return x.name < y.name; });
  return e;
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = build_entries();
  return e;
}

}  // namespace

const std::vector<std::string>& DeviceStats::names() {
  static const std::vector<std::string> n = [] {
    std::vector<std::string> v;
    for (auto& e : entries()) v.push_back(e.name);
    return v;
  }();
  return n;
}

void DeviceStats::values(int64_t* out) const {
  const auto& e = entries();
  for (size_t i = 0; i < e.size(); ++i) out[i] = e[i].get(*this, e[i].a, e[i].b);
}

void DeviceStats::reset_peak() {
#define JT_RESET_PEAK(fam) for (auto& s : fam) s.reset_peak();
  JT_STAT_FAMILIES(JT_RESET_PEAK)
#undef JT_RESET_PEAK
  oversize_allocations.reset_peak();
  oversize_segments.reset_peak();
}

void DeviceStats::reset_accumulated() {
#define JT_RESET_ACC(fam) for (auto& s : fam) s.reset_accumulated();
  JT_STAT_FAMILIES(JT_RESET_ACC)
#undef JT_RESET_ACC
  oversize_allocations.reset_accumulated();
  oversize_segments.reset_accumulated();
  num_alloc_retries = num_ooms = num_device_alloc = num_device_free = 0;
}

}  // namespace jt
