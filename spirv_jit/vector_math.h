// glibc's vector math library (libmvec, shipped with libc6): W-lane variants of the float
// transcendentals, so that a shader's sin() over W lanes is one or a few calls instead of W
// calls into libm. Their accuracy (at most 4 ULP, glibc's libm-test-ulps) is within the SPIR-V
// precision Vulkan requires (appendix "Precision and Operation of SPIR-V Instructions"), which
// tests/unit/spirv_jit/glsl_std450_test.cpp checks at W = 4, 8 and 16.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::jit {

struct VectorMathFunction {
  std::string symbol;  // e.g. _ZGVeN16v_sinf
  uint32_t lanes = 0;  // 0: none available
};

// The widest variant of the float function `scalarName` ("sinf", "powf", ...) that this CPU
// can call (16 lanes need AVX-512, 8 AVX2, 4 SSE2). Always the same one on a machine: the
// variants round differently, and results must not depend on the kernels' width.
VectorMathFunction vectorMathFunction(const std::string& scalarName);

// Every variant available here, as (symbol, address), for the JIT's symbol table.
std::vector<std::pair<std::string, void*>> vectorMathSymbols();

}  // namespace tessera::jit
