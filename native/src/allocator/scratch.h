// Kernel scratch memory from the CPU caching allocator, returned when it goes out of scope.
// A header of its own so kernels need not include the allocator's internals.
#pragma once
#include <cstddef>

namespace jt {

struct Block;

// data() is nullptr when memory is out: kernels then take a path without scratch, since an
// exception on a worker thread would end the process.
class ScratchBuffer {
 public:
  explicit ScratchBuffer(size_t bytes);
  ~ScratchBuffer();
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;
  char* data() const { return data_; }

 private:
  Block* block_;
  char* data_;
};

}  // namespace jt
