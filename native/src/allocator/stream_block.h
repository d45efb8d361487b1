// The blocks and pools of the stream-aware caching allocator (stream_caching_allocator.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "allocator/caching_allocator.h"  // NodeRecycler
#include "jt/device_provider.h"

namespace jt {

struct StreamBlock {
  StreamId stream = 0;  // the stream it was allocated on; its segment serves that stream only
  size_t size = 0;      // a multiple of 512
  size_t requested = 0;
  char* ptr = nullptr;
  bool allocated = false;
  bool small = false;
  int event_count = 0;  // events still pending after its free: until 0 it stays out of the pool
  int64_t gc_base = 0;  // its pool's lookup count when it was cached (garbage_collection_threshold)
  std::vector<StreamId> stream_uses;  // other streams it was used on (recordStream)
  StreamBlock* prev = nullptr;  // neighbours within its segment
  StreamBlock* next = nullptr;

  bool is_split() const { return prev || next; }
  bool pending_free() const { return !allocated && event_count > 0; }
  bool cached() const { return !allocated && event_count == 0; }  // in its pool
};

// Best fit per stream: ordered by stream, then size, then address.
struct StreamBlockLess {
  bool operator()(const StreamBlock* a, const StreamBlock* b) const {
    if (a->stream != b->stream) return a->stream < b->stream;
    if (a->size != b->size) return a->size < b->size;
    return a->ptr < b->ptr;
  }
};

struct StreamPool {
  using Nodes = NodeRecycler<StreamBlock*>;
  // nodes: the free list both pools share (Note [No throw after the heap refuses], caching_allocator.h)
  StreamPool(bool is_small, const Nodes& nodes) : blocks(StreamBlockLess{}, nodes), small(is_small) {}
  std::set<StreamBlock*, StreamBlockLess, Nodes> blocks;
  const bool small;
  int64_t lookups = 0;  // free-block searches, the clock garbage collection ages blocks by

  void insert(StreamBlock* b) {
    b->gc_base = lookups;
    blocks.insert(b);
  }
  int64_t age(const StreamBlock* b) const { return lookups - b->gc_base; }
};

}  // namespace jt
