#include "jt/storage.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>

#include "allocator/foreign_allocator.h"

namespace jt {

static_assert(offsetof(StorageImpl, data_ptr) == 0, "Java reads the data pointer at offset 0");

StorageImpl* storage_new(int device, int64_t nbytes) {
  DeviceAllocator* allocator = device_allocator(device);
  return allocator ? storage_new_on(allocator, device, nbytes) : nullptr;
}

StorageImpl* storage_new_on(DeviceAllocator* allocator, int device, int64_t nbytes) {
  Allocation a;
  if (nbytes > 0 && !(a = allocator->allocate((size_t)nbytes)).data) return nullptr;
  StorageImpl* s = new (std::nothrow) StorageImpl();  // no exception may reach the JVM
  if (!s) {
    allocator->free(a.ctx);
    return nullptr;
  }
  s->allocator = allocator;
  s->device = device;
  s->set(a, nbytes);
  return s;
}

StorageImpl* storage_wrap(void* data, int64_t nbytes) {
  StorageImpl* s = new (std::nothrow) StorageImpl();
  if (!s) return nullptr;
  Allocation a = foreign_allocation(data, nbytes);
  if (!a.ctx) {
    delete s;
    return nullptr;
  }
  s->allocator = &foreign_allocator();
  s->device = (int)DeviceType::CPU;
  s->set(a, nbytes);
  return s;
}

void storage_release(StorageImpl* s) {
  if (!s->release()) return;
  s->allocator->free(s->ctx);
  delete s;
}

bool storage_resize(StorageImpl* s, int64_t nbytes) {
  Allocation a;
  if (nbytes > 0 && !(a = s->allocator->allocate((size_t)nbytes)).data) return false;
  if (a.data && s->data_ptr) s->allocator->copy_bytes(a.data, s->data_ptr, (size_t)std::min(nbytes, s->nbytes));
  s->allocator->free(s->ctx);
  s->set(a, nbytes);
  return true;
}

}  // namespace jt
