// Note [ASan and the caching allocator]
// Under AddressSanitizer (the JT_SANITIZE test build), the caching allocator poisons the bytes
// it holds but has not handed out: a cached block, a split remainder, and the tail of a block
// past the bytes requested. A kernel that reads a freed or foreign block is then caught, which
// a cache that never returns memory to malloc would otherwise hide. Nothing in other builds.
#pragma once
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define JT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JT_ASAN 1
#endif
#endif

#ifdef JT_ASAN
#include <sanitizer/asan_interface.h>
#define JT_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define JT_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define JT_POISON(p, n) ((void)(p), (void)(n))
#define JT_UNPOISON(p, n) ((void)(p), (void)(n))
#endif
