// VkShaderModule: the application's SPIR-V words, copied. Nothing is checked here but the
// size; the JIT validates the module when a pipeline is created from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tessera {

struct ShaderModule {
  size_t wordCount = 0;
  const uint32_t* words = nullptr;  // in the same allocation as the module

  std::span<const uint32_t> code() const { return {words, wordCount}; }
};

}  // namespace tessera
