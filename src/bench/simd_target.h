// Caps the Highway target that SIMD kernels in this process dispatch to, so that one machine can
// time the cpu provider on a lower instruction set than its own (an AVX-512 host measuring the
// AVX2 code that users' Zen 3 machines run). The provider is loaded with dlopen but shares this
// process's libhwy, whose chosen target every HWY_DYNAMIC_DISPATCH reads on each call.
#pragma once

#include <string>
#include <string_view>

namespace aclnn_check::bench {

// Disables every target better than `name` (a Highway target name such as avx2, any case),
// replacing an earlier cap (an unknown name leaves none).
// Throws std::invalid_argument naming the targets this build compiled and this CPU runs when
// `name` is not one of them.
void CapSimdTarget(std::string_view name);

// The target the kernels dispatch to now ("AVX3", "AVX2", ...).
std::string BestSimdTarget();

}  // namespace aclnn_check::bench
