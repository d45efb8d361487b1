// The CPU's hint for a spin-wait loop: x86's pause, aarch64's yield, nothing elsewhere.
#pragma once

namespace jt {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace jt
