#include "structure_limits.h"

#include <unordered_set>

#include <spirv/unified1/spirv.hpp11>

namespace tessera::jit {

uint32_t structuredNestingDepth(std::span<const uint32_t> words) {
  std::unordered_set<uint32_t> open;  // merge labels declared and not yet reached
  uint32_t deepest = 0;
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    const auto op = spv::Op(words[pos] & 0xffff);
    if (count == 0 || count > words.size() - pos) break;
    if (op == spv::Op::OpLabel && count >= 2) open.erase(words[pos + 1]);
    if ((op == spv::Op::OpSelectionMerge || op == spv::Op::OpLoopMerge) && count >= 2) {
      open.insert(words[pos + 1]);
      deepest = std::max<uint32_t>(deepest, uint32_t(open.size()));
    }
    if (op == spv::Op::OpFunctionEnd) open.clear();
    pos += count;
  }
  return deepest;
}

bool checkStructureLimits(std::span<const uint32_t> words, std::string* message) {
  const uint32_t depth = structuredNestingDepth(words);
  if (depth <= kMaxStructuredNesting) return true;
  *message = "structured control flow nested " + std::to_string(depth) + " deep; Tessera compiles at most " +
             std::to_string(kMaxStructuredNesting) + " levels (validating deeper nesting takes minutes)";
  return false;
}

}  // namespace tessera::jit
