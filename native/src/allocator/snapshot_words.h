// jt_snapshot's words (jt.h), written alike by every caching allocator from its segments' blocks.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace jt {

// One segment, from its first block: its six words, then four per block. state(b) is a block's
// state word: 1 allocated, 0 cached, 2 freed but still waiting for events (active, not allocated).
template <typename B, typename State>
void append_segment_words(std::vector<int64_t>& v, const B* head, State state) {
  int64_t total = 0, allocated = 0, active = 0, nblocks = 0;
  for (const B* b = head; b; b = b->next, nblocks++) {
    const int64_t s = state(b);
    total += (int64_t)b->size;
    if (s == 1) allocated += (int64_t)b->size;
    if (s != 0) active += (int64_t)b->size;
  }
  v.insert(v.end(), {(int64_t)(intptr_t)head->ptr, total, allocated, active, head->small ? 1 : 0, nblocks});
  for (const B* b = head; b; b = b->next)
    v.insert(v.end(), {(int64_t)(intptr_t)b->ptr, (int64_t)b->size, (int64_t)b->requested, state(b)});
}

// Copies the words to out when they fit in cap; returns how many there are.
inline int64_t copy_words(const std::vector<int64_t>& v, int64_t* out, int64_t cap) {
  if ((int64_t)v.size() <= cap && out) std::memcpy(out, v.data(), v.size() * sizeof(int64_t));
  return (int64_t)v.size();
}

}  // namespace jt
