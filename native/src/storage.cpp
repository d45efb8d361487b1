#include "storage.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace jt {

static_assert(offsetof(StorageImpl, data_ptr) == 0, "Java reads the data pointer at offset 0");

StorageImpl* storage_new(int64_t nbytes) {
  Block* b = nullptr;
  if (nbytes > 0 && !(b = cpu_allocator().allocate((size_t)nbytes))) return nullptr;
  StorageImpl* s = new StorageImpl();
  s->set_block(b, nbytes);
  return s;
}

void storage_release(StorageImpl* s) {
  if (!s->release()) return;
  cpu_allocator().free(s->block);
  delete s;
}

bool storage_resize(StorageImpl* s, int64_t nbytes) {
  Block* b = nullptr;
  if (nbytes > 0 && !(b = cpu_allocator().allocate((size_t)nbytes))) return false;
  if (b && s->block) std::memcpy(b->ptr, s->block->ptr, (size_t)std::min(nbytes, s->nbytes));
  cpu_allocator().free(s->block);
  s->set_block(b, nbytes);
  return true;
}

}  // namespace jt
