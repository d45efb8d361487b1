// Opens the namespace of the capability this file is being compiled for (JT_CPU_CAP, set by
// cmake/CMakeLists.txt: baseline, avx2 or avx512), so the same source gives three sets of kernels
// that link side by side. Each vectorized file includes this first and closes with
// JT_CPU_CAP_END.
#pragma once
#ifndef JT_CPU_CAP
#error "kernels/vectorized/ is compiled once per capability: JT_CPU_CAP must name it"
#endif
#define JT_CPU_CAP_BEGIN namespace jt { namespace JT_CPU_CAP {
#define JT_CPU_CAP_END } }
