// "Sample Shading" by static use, read from a module as the application gave it: "If a
// fragment shader entry point statically uses an input variable decorated with a BuiltIn of
// SampleId or SamplePosition, sample shading is enabled" (likewise an input decorated Sample).
// Static use is a property of the source: a statement that only names gl_SampleID counts, yet
// the optimizer removes such a variable before the translator's interface facts are read.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tessera::jit {

// True when the Fragment entry point `entryPoint` lists in its interface an Input variable
// decorated BuiltIn SampleId, BuiltIn SamplePosition or Sample. The module is valid SPIR-V.
bool staticallyUsesSampleShadingInputs(std::span<const uint32_t> words, std::string_view entryPoint);

}  // namespace tessera::jit
