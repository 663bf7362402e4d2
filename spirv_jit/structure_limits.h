// Limits on a module's structure, checked on its words before the SPIR-V validator (issue 14,
// "bounded compile time"). The validator's structured control-flow checks cost about the cube
// of the nesting depth (measured with SPIRV-Tools 2023.1: depth 250 takes 0.4 s, 500 takes 3 s,
// 1000 takes 23 s), so a module nested deeper than kMaxStructuredNesting is refused before it
// reaches the validator. SPIR-V's universal limit is 1023 ("Universal Limits"); real shaders
// stay far below 256.
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace tessera::jit {

inline constexpr uint32_t kMaxStructuredNesting = 256;

// The deepest structured nesting of the module: at each block, how many constructs declared by
// an OpSelectionMerge or OpLoopMerge before it have not yet reached their merge block's label.
// Valid modules list a merge block after its header, so this is the nesting depth; on other
// input it is an over-estimate, never a crash (malformed words end the scan).
uint32_t structuredNestingDepth(std::span<const uint32_t> words);

// False, with a message naming the limit, when the module is nested too deeply.
bool checkStructureLimits(std::span<const uint32_t> words, std::string* message);

}  // namespace tessera::jit
