// Limits on the memory a compute module declares, checked on the parsed module before
// translation and LLVM's code generator (issue 14, "bounded compile time and memory"):
//  - Workgroup variables within maxComputeSharedMemorySize (VUID-RuntimeSpirv-Workgroup-06530;
//    a module above it is invalid, refused rather than given more memory than advertised);
//  - Private and Function variables within kMaxInvocationMemoryBytes per invocation: the
//    kernel's stack holds W copies of them.
// Sizes are computed in 64 bits from scalar sizes alone (no padding), so that a module is
// never refused for padding the driver adds, and a huge array cannot wrap the 32-bit layout
// sizes the translator uses: below these limits every layout size fits comfortably.
#pragma once

#include <cstdint>
#include <string>

#include "spirv_module.h"

namespace tessera::jit {

constexpr uint32_t kMaxComputeSharedMemorySize = 32768;         // the advertised limit
constexpr uint64_t kMaxInvocationMemoryBytes = uint64_t(1) << 26;  // 64 MiB: 1 GiB of stack at W = 16

// False, with a message naming the limit, when the module's variables exceed a limit.
bool checkMemoryLimits(const Module& module, std::string* message);

}  // namespace tessera::jit
