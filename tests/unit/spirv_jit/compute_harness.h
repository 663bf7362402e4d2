// Runs a compute shader from the test corpus directly through the JIT (no Vulkan): storage
// buffer i is set 0, binding i; push constants as given. Lets one process compare every SIMD
// width against a C++ reference.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera_test {

std::vector<uint32_t> loadShader(const std::string& name);  // <corpus>/<name>.spv

struct ComputeRun {
  std::string shader;
  uint32_t simdWidth = 8;
  uint32_t groups[3] = {1, 1, 1};
  std::vector<std::vector<uint8_t>*> buffers;  // storage buffers, set 0 bindings 0..n-1
  std::vector<uint8_t> pushConstants;
  std::vector<tessera::jit::SpecializationEntry> specialization;
  std::vector<uint8_t> specializationData;
  bool optimize = true;
};

// Compiles and runs; returns the compile result (status and message).
tessera::jit::CompileResult runShader(const ComputeRun& run);

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}
template <typename... T>
std::vector<uint8_t> pushBytes(T... values) {
  std::vector<uint8_t> out;
  (
      [&] {
        const auto* p = reinterpret_cast<const uint8_t*>(&values);
        out.insert(out.end(), p, p + sizeof(values));
      }(),
      ...);
  return out;
}

inline const uint32_t kSimdWidths[] = {4, 8, 16};

}  // namespace tessera_test
