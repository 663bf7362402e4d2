// staticallyUsesSampleShadingInputs (sample_shading_use.h): one pass over the instructions of
// the unoptimized module. An entry point's interface lists the Input variables it uses
// (SPIR-V 1.4 and later: every global it references), which is the static use the rule names.
#include "sample_shading_use.h"

#include <algorithm>
#include <set>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

namespace tessera::jit {

bool staticallyUsesSampleShadingInputs(std::span<const uint32_t> words, std::string_view entryPoint) {
  constexpr size_t kHeaderWords = 5;
  if (words.size() <= kHeaderWords) return false;
  std::set<uint32_t> sampleShadingVariables;  // decorated SampleId, SamplePosition or Sample
  std::vector<uint32_t> interface;             // of the named Fragment entry point
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xFFFF;
    if (count == 0 || at + count > words.size()) break;
    const uint32_t* operand = &words[at + 1];
    if (opcode == uint32_t(spv::Op::OpDecorate) && count >= 3) {
      const auto decoration = spv::Decoration(operand[1]);
      const bool builtIn = decoration == spv::Decoration::BuiltIn && count >= 4 &&
                           (spv::BuiltIn(operand[2]) == spv::BuiltIn::SampleId ||
                            spv::BuiltIn(operand[2]) == spv::BuiltIn::SamplePosition);
      if (builtIn || decoration == spv::Decoration::Sample) sampleShadingVariables.insert(operand[0]);
    } else if (opcode == uint32_t(spv::Op::OpEntryPoint) && count >= 4 &&
               spv::ExecutionModel(operand[0]) == spv::ExecutionModel::Fragment) {
      // The name is a nul-terminated string packed into words; the interface ids follow it.
      const char* name = reinterpret_cast<const char*>(&operand[2]);
      const size_t nameBytes = (count - 3) * 4;
      const size_t length = std::find(name, name + nameBytes, '\0') - name;
      if (std::string_view(name, length) == entryPoint) {
        const size_t nameWords = length / 4 + 1;
        for (size_t k = 3 + nameWords; k < count; ++k) interface.push_back(words[at + k]);
      }
    }
    at += count;
  }
  return std::any_of(interface.begin(), interface.end(), [&](uint32_t id) { return sampleShadingVariables.count(id) > 0; });
}

}  // namespace tessera::jit
