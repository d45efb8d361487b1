// The stream caching allocator's events: a freed block used on other streams waits for them
// (Note [Stream ordering of reuse]).
#include <iterator>
#include <new>

#include "allocator/stream_caching_allocator.h"

namespace jt {

// One event per stream the block was used on; the block is cached when the last completes.
// Where no event can be made or queued (the heap refused its queue), the device is waited for
// instead: free() never fails (Note [No throw after the heap refuses]).
void StreamCachingAllocator::insert_events(StreamBlock* b) {
  bool synchronized = false;
  for (StreamId s : b->stream_uses) {
    void* event = provider_->record_event(s);
    if (event) {
      try {
        events_[s].emplace_back(event, b);
        b->event_count++;
        continue;
      } catch (const std::bad_alloc&) {
        provider_->release_event(event);
      }
    }
    if (!synchronized) {  // no event to wait on: wait for the device instead
      provider_->synchronize();
      synchronized = true;
    }
  }
  b->stream_uses.clear();
  if (b->event_count == 0) free_block(b);
}

// Polls each stream's events in the order they were recorded, caching blocks whose last completed.
void StreamCachingAllocator::process_events() {
  for (auto it = events_.begin(); it != events_.end();) {
    EventQueue& queue = it->second;
    while (!queue.empty() && provider_->event_done(queue.front().first)) {
      StreamBlock* b = queue.front().second;
      provider_->release_event(queue.front().first);
      queue.pop_front();
      if (--b->event_count == 0) free_block(b);
    }
    it = queue.empty() ? events_.erase(it) : std::next(it);
  }
}

void StreamCachingAllocator::synchronize_and_free_events() {
  if (events_.empty()) return;
  provider_->synchronize();
  for (auto& entry : events_) {
    for (auto& e : entry.second) {
      provider_->release_event(e.first);
      if (--e.second->event_count == 0) free_block(e.second);
    }
  }
  events_.clear();
}

}  // namespace jt
