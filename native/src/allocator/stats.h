// Allocator statistics under PyTorch's memory_stats key names.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace jt {

// A change to a Stat kept apart (a thread cache's, Note [Thread caches]); high: the most current
// rose above where it started.
struct StatDelta {
  int64_t current = 0, high = 0, allocated = 0, freed = 0;
  void increase(int64_t n) { current += n; allocated += n; if (current > high) high = current; }
  void decrease(int64_t n) { current -= n; freed += n; }
};

struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void fold(const StatDelta& d) {
    if (current + d.high > peak) peak = current + d.high;
    current += d.current;
    allocated += d.allocated;
    freed += d.freed;
  }
  void increase(int64_t n) { current += n; allocated += n; if (current > peak) peak = current; }
  void decrease(int64_t n) { current -= n; freed += n; }
  void reset_peak() { peak = current; }
  void reset_accumulated() { allocated = 0; freed = 0; }
};

enum StatType { kAll = 0, kSmallPool = 1, kLargePool = 2, kNumStatTypes = 3 };

// A family counts in "all" and in the block's pool.
template <typename S>
void stat_increase(S* family, bool small, int64_t n) {
  family[kAll].increase(n);
  family[small ? kSmallPool : kLargePool].increase(n);
}
template <typename S>
void stat_decrease(S* family, bool small, int64_t n) {
  family[kAll].decrease(n);
  family[small ? kSmallPool : kLargePool].decrease(n);
}

// Per-pool families, each reported as <name>.<all|small_pool|large_pool>.<current|peak|allocated|freed>.
#define JT_STAT_FAMILIES(X) \
  X(active) X(active_bytes) X(allocated_bytes) X(allocation) X(inactive_split) \
  X(inactive_split_bytes) X(requested_bytes) X(reserved_bytes) X(segment)

// The families and how a block's life moves them, over Stat (the allocator's stats) or StatDelta
// (a thread cache's changes, folded into the former: Note [Thread caches]).
template <typename S>
struct BlockStats {
#define JT_DECLARE_FAMILY(name) S name[kNumStatTypes];
  JT_STAT_FAMILIES(JT_DECLARE_FAMILY)
#undef JT_DECLARE_FAMILY
  S oversize_allocations, oversize_segments;

  // A block's life, counted alike by every caching allocator. over: the size is at least
  // max_split_size (the oversize_* counts).
  void block_handed_out(bool small, int64_t size, int64_t requested, bool over) {
    stat_increase(allocation, small, 1);
    stat_increase(allocated_bytes, small, size);
    stat_increase(active, small, 1);
    stat_increase(active_bytes, small, size);
    stat_increase(requested_bytes, small, requested);
    if (over) oversize_allocations.increase(1);
  }
  void block_freed(bool small, int64_t size, bool over) {  // no longer allocated
    stat_decrease(allocation, small, 1);
    stat_decrease(allocated_bytes, small, size);
    if (over) oversize_allocations.decrease(1);
  }
  void block_inactive(bool small, int64_t size, int64_t requested) {  // cached again: no longer active
    stat_decrease(active, small, 1);
    stat_decrease(active_bytes, small, size);
    stat_decrease(requested_bytes, small, requested);
  }
  void inactive_split_changed(bool small, int64_t size, int sign) {
    if (sign > 0) {
      stat_increase(inactive_split, small, 1);
      stat_increase(inactive_split_bytes, small, size);
    } else {
      stat_decrease(inactive_split, small, 1);
      stat_decrease(inactive_split_bytes, small, size);
    }
  }
};

struct DeviceStats : BlockStats<Stat> {
  int64_t num_alloc_retries = 0, num_ooms = 0, num_device_alloc = 0, num_device_free = 0;
  int64_t max_split_size = 0;

  // A segment's life, counted alike by every caching allocator.
  void segment_reserved(bool small, int64_t size, bool over) {
    num_device_alloc++;
    stat_increase(segment, small, 1);
    stat_increase(reserved_bytes, small, size);
    if (over) oversize_segments.increase(1);
  }
  void segment_released(bool small, int64_t size, bool over) {
    num_device_free++;
    stat_decrease(segment, small, 1);
    stat_decrease(reserved_bytes, small, size);
    if (over) oversize_segments.decrease(1);
  }

  // Adds a thread cache's changes (Note [Thread caches]); each peak as current plus d's high.
  void fold(const BlockStats<StatDelta>& d) {
#define JT_FOLD_FAMILY(name) for (int p = 0; p < kNumStatTypes; ++p) name[p].fold(d.name[p]);
    JT_STAT_FAMILIES(JT_FOLD_FAMILY)
#undef JT_FOLD_FAMILY
    oversize_allocations.fold(d.oversize_allocations);
    oversize_segments.fold(d.oversize_segments);
  }

  // Flattened names and values, in the same (sorted) order.
  static const std::vector<std::string>& names();
  void values(int64_t* out) const;
  void reset_peak();
  void reset_accumulated();
};

}  // namespace jt
