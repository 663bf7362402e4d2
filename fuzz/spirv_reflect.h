// Just enough reflection of a SPIR-V module for the fuzz targets: its first entry point and
// a descriptor layout that gives every (set, binding) the module declares the kind its type
// asks for, as an application's pipeline layout would. Tolerates any words (fuzz input).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tessera/spirv_jit.h"

namespace tessera_fuzz {

struct EntryPoint {
  bool found = false;
  uint32_t executionModel = 5;  // GLCompute when the module names none
  std::string name = "main";
};

EntryPoint firstEntryPoint(std::span<const uint32_t> words);

// Bindings laid out one after the other in each set, abi::kDescriptorSize bytes per element.
std::vector<tessera::jit::DescriptorBinding> reflectBindings(std::span<const uint32_t> words);

}  // namespace tessera_fuzz
