#include "allocator/thread_cache.h"

#include "allocator/caching_allocator.h"

#include <pthread.h>

namespace jt {
namespace {

constexpr int kThreadSlots = 4;  // allocators a thread caches for at once (the CPU's, and tests')

// A thread's caches, one per allocator it freed into; at the thread's exit each goes back to its
// allocator if that still lives.
struct Slots {
  uint64_t ids[kThreadSlots] = {};
  std::shared_ptr<ThreadCache> caches[kThreadSlots];

  ~Slots() {
    for (auto& c : caches) {
      if (!c) continue;
      std::lock_guard<std::mutex> live(allocators_mutex());
      if (CachingAllocator* a = c->owner.load()) a->retire_thread_cache(c.get());
    }
  }
};

// A thread's Slots live on the heap behind a plain thread_local pointer, freed by a pthread key's
// destructor at the thread's exit. A thread_local Slots with its own destructor would do the same
// on glibc, but under MinGW's emulated TLS that destructor can run after the thread's TLS block is
// freed (the crash under wine, docs/platforms.md); key destructors run on both before anything is
// torn down. The main thread's Slots are never freed: the process is ending. The destructor clears
// the pointer: another key's destructor that runs later on the exiting thread (a library's exit
// hook) and allocates gets fresh Slots, which the next round of key destructors retires, instead
// of the freed ones (a cache registered in freed memory, never retired; heap corruption).
thread_local Slots* slots = nullptr;

pthread_key_t slots_key() {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    pthread_key_create(&k, [](void* p) {
      slots = nullptr;
      delete static_cast<Slots*>(p);
    });
    return k;
  }();
  return key;
}

Slots& this_thread_slots() {
  if (!slots) {
    slots = new Slots();
    pthread_setspecific(slots_key(), slots);
  }
  return *slots;
}

}  // namespace

std::mutex& allocators_mutex() {
  static std::mutex* m = new std::mutex();  // never destroyed: threads may exit after static destructors
  return *m;
}

ThreadCache* this_thread_cache(CachingAllocator& a, uint64_t id) {
  Slots& s = this_thread_slots();
  for (int i = 0; i < kThreadSlots; ++i)
    if (s.ids[i] == id) return s.caches[i].get();
  for (int i = 0; i < kThreadSlots; ++i) {
    if (s.ids[i] == 0 || !s.caches[i]->owner.load()) {  // free, or its allocator is gone
      s.caches[i] = a.register_thread_cache();
      s.ids[i] = id;
      return s.caches[i].get();
    }
  }
  return nullptr;
}

}  // namespace jt
