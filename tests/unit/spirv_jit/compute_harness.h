// Runs a compute shader from the test corpus directly through the JIT (no Vulkan): buffer i is
// set 0, binding i (a storage buffer unless said otherwise); push constants as given. Lets one
// process compare every SIMD width against a C++ reference.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera_test {

std::vector<uint32_t> loadShader(const std::string& name);  // <corpus>/<name>.spv
// SPIR-V assembly (Vulkan 1.3 environment) as words; a test failure if it does not assemble.
std::vector<uint32_t> assembleSpirv(const std::string& text);

constexpr uint32_t kStorageBuffer = 7;  // VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
constexpr uint32_t kUniformBuffer = 6;  // VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER

// What a buffer's descriptor covers of its vector: bytes [offset, offset + range).
struct BufferView {
  uint64_t offset = 0;
  uint64_t range = ~uint64_t(0);  // ~0: to the end of the vector
};

struct ComputeRun {
  std::string shader;
  uint32_t simdWidth = 8;
  uint32_t groups[3] = {1, 1, 1};
  std::vector<std::vector<uint8_t>*> buffers;  // set 0 bindings 0..n-1
  std::vector<uint8_t> pushConstants;
  std::vector<tessera::jit::SpecializationEntry> specialization;
  std::vector<uint8_t> specializationData;
  bool optimize = true;
  std::vector<uint32_t> descriptorTypes;  // per binding; missing entries are storage buffers
  std::vector<BufferView> views;          // per buffer; missing entries cover the whole vector
  // Descriptor arrays: binding b holds arraySizes[b] descriptors (missing entries: 1), taking
  // that many consecutive entries of `buffers`. Empty: one binding per buffer.
  std::vector<uint32_t> arraySizes;
  // Dynamic offsets of the *_DYNAMIC bindings, in binding and array-element order.
  std::vector<uint32_t> dynamicOffsets;
  // BoundResources::cancel (null: never cancelled), the device watchdog's word.
  const volatile uint32_t* cancel = nullptr;
};

constexpr uint32_t kStorageBufferDynamic = 9;  // VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC

// Compiles (no cache) without running.
tessera::jit::CompileResult compileShader(const ComputeRun& run);
// Compiles SPIR-V words directly, with `buffers` storage buffers at set 0.
tessera::jit::CompileResult compileWords(std::span<const uint32_t> words, uint32_t simdWidth,
                                         uint32_t buffers = 1, bool optimize = true);
// Runs a compiled program with run's buffers, views, push constants and group counts.
void dispatch(const tessera::jit::ComputeProgram& program, const ComputeRun& run);
// Compiles and runs; returns the compile result (status and message).
tessera::jit::CompileResult runShader(const ComputeRun& run);

// The buffers after one run per SIMD width (kSimdWidths order), each run starting from fresh
// copies of `initial` (run.buffers and run.simdWidth are replaced). A compile failure is a test
// failure (and gives an empty result).
using Buffers = std::vector<std::vector<uint8_t>>;
std::vector<Buffers> runAtEveryWidth(ComputeRun run, const Buffers& initial);
// Expects every width's buffers to be bit-identical to the first width's.
void expectSameAtEveryWidth(const std::vector<Buffers>& results);

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
  std::vector<uint8_t> out((sizeof(T) + ... + 0));
  size_t at = 0;
  ((std::memcpy(out.data() + at, &values, sizeof(T)), at += sizeof(T)), ...);
  return out;
}
// A buffer of n zero-initialized values of T, as bytes.
template <typename T>
std::vector<uint8_t> zeros(size_t n) {
  return std::vector<uint8_t>(n * sizeof(T), 0);
}

inline const uint32_t kSimdWidths[] = {4, 8, 16};

// Deterministic pseudo-random numbers for test inputs (xorshift; no global state).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  int32_t range(int32_t lo, int32_t hi) { return lo + int32_t(next() % uint64_t(int64_t(hi) - lo + 1)); }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(double(next() >> 11) / double(1ull << 53)); }

 private:
  uint64_t s_;
};

// Distance in units in the last place between two floats of the same sign class (0 if both
// are NaN or equal). Works on the ordered integer representation.
int64_t ulpDistance(float a, float b);
int64_t ulpDistance(double a, double b);
// Size of one ULP at the magnitude of x (float).
double ulpOf(float x);

}  // namespace tessera_test
