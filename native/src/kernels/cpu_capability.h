// Which instruction set the vectorized kernels (kernels/vectorized/) run with. Those files are
// compiled once per capability into namespaces jt::baseline, jt::avx2 and jt::avx512 (cmake/
// CMakeLists.txt); cpu_dispatch.cpp forwards each entry point to the best one this CPU runs, or
// to the one JT_CPU_CAPABILITY (or jt_set_cpu_capability) asks for. Every capability computes the
// same bits: the vectorized files are compiled without FMA contraction and without reassociation.
#pragma once

namespace jt {

enum class CpuCapability : int { Baseline = 0, Avx2 = 1, Avx512 = 2 };
constexpr int kNumCpuCapabilities = 3;

const char* cpu_capability_name(CpuCapability c);  // "baseline", "avx2", "avx512"
CpuCapability cpu_capability_supported();          // the best this CPU runs
CpuCapability cpu_capability();                    // the one in use
// false (nothing changed) when the CPU lacks it
bool set_cpu_capability(CpuCapability c);

}  // namespace jt
