// VK_KHR_variable_pointers (Vulkan 1.1's variablePointersStorageBuffer and variablePointers)
// through the loader with validation, on Tessera and on lavapipe in one test. Two SPIR-V
// modules after the CTS's spirv_assembly.instruction.compute.variable_pointers.compute.* cases,
// with every lane of a batch choosing its own pointer:
//  - tests/shaders/var_ptr_single.spvasm, capability VariablePointersStorageBuffer only (what the
//    extension requires): pointers into one buffer from OpSelect, OpPhi, a function result and
//    OpPtrAccessChain;
//  - tests/shaders/var_ptr_mux.spvasm, capability VariablePointers: two buffers, pointers kept in
//    Private and Function variables, Workgroup pointers, OpPtrEqual / OpPtrNotEqual, a pointer
//    carried round a loop, writes through a variable pointer.
// The device enables robustBufferAccess2 (VK_EXT_robustness2), and some descriptors end before
// the elements the last invocations choose: "out-of-bounds reads return zero" and "writes are
// discarded" must hold for accesses through variable pointers too. Expected values are the
// SPIR-V meaning of each instruction, computed here; lavapipe must give the same.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "device_compute.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kN = 256;      // invocations (4 workgroups of 64)
constexpr uint32_t kBound = 200;  // elements the shortened descriptors cover

bool negative(uint32_t i) { return i % 4 == 0 || (i % 4 != 1 && ((i * 2654435761u) >> 13 & 1)); }

struct Binding {
  std::vector<uint32_t> words;
  uint32_t range = 0;  // bytes the descriptor covers (0: all)
};

// Runs `shader` over kN invocations with `bindings` (set 0, binding i) and returns them after.
std::vector<std::vector<uint32_t>> run(VkPhysicalDevice pd, const char* shader, bool full, std::vector<Binding> bindings) {
  VkPhysicalDeviceRobustness2FeaturesEXT r2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &r2};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(v11.variablePointersStorageBuffer);
  if (full) {
    EXPECT_TRUE(v11.variablePointers);
  }
  EXPECT_TRUE(r2.robustBufferAccess2);
  if (!v11.variablePointersStorageBuffer || (full && !v11.variablePointers) || !r2.robustBufferAccess2) return {};
  r2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  r2.robustBufferAccess2 = VK_TRUE;
  v11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &r2};
  v11.variablePointersStorageBuffer = VK_TRUE;
  v11.variablePointers = full;
  VkPhysicalDeviceFeatures features{};
  features.robustBufferAccess = VK_TRUE;  // robustBufferAccess2 requires it
  TestDevice device(pd, &features, &v11, {VK_EXT_ROBUSTNESS_2_EXTENSION_NAME});
  EXPECT_NE(device.dev, VK_NULL_HANDLE);
  if (!device.dev) return {};
  std::vector<DeviceBuffer> buffers;
  for (const Binding& b : bindings) buffers.push_back({b.words, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b.range});
  return dispatchOnDevice(device, shader, buffers, kN / 64);
}

std::vector<uint32_t> selectors() {
  std::vector<uint32_t> s(kN);
  for (uint32_t i = 0; i < kN; ++i) s[i] = negative(i) ? uint32_t(-1 - int32_t(i)) : i;
  return s;
}
std::vector<uint32_t> sequence(uint32_t count, uint32_t base) {
  std::vector<uint32_t> v(count);
  for (uint32_t i = 0; i < count; ++i) v[i] = base + i;
  return v;
}

// var_ptr_single: out[4i + c] = A[neg ? 2i : 2i + 1], 0 past A's range (2 kBound elements).
std::vector<std::vector<uint32_t>> expectedSingle() {
  const std::vector<uint32_t> a = sequence(2 * kN, 0x10000);
  std::vector<uint32_t> out(4 * kN);
  for (uint32_t i = 0; i < kN; ++i) {
    const uint32_t e = negative(i) ? 2 * i : 2 * i + 1;
    for (uint32_t c = 0; c < 4; ++c) out[4 * i + c] = e < 2 * kBound ? a[e] : 0;
  }
  return {a, selectors(), out};
}

// var_ptr_mux (its header comment): A, B (kBound elements bound), S, C, D (kBound bound), out.
std::vector<std::vector<uint32_t>> expectedMux() {
  std::vector<uint32_t> c = sequence(kN, 0x30000), d = sequence(kN, 0x40000), out(12 * kN, 0xEEEEEEEEu);
  for (uint32_t i = 0; i < kN; ++i) {
    const bool neg = negative(i);
    const uint32_t a = 0x10000 + i, b = i < kBound ? 0x20000 + i : 0;
    for (uint32_t k : {0, 1, 2, 3, 4, 5, 6, 7, 11}) out[12 * i + k] = neg ? a : b;
    out[12 * i + 8] = out[12 * i + 9] = neg ? 1 : 0;
    out[12 * i + 10] = (i % 4) % 2 ? b : a;
    if (neg) c[i] += 1000;
    else if (i < kBound) d[i] += 1000;
  }
  return {sequence(kN, 0x10000), sequence(kN, 0x20000), selectors(), c, d, out};
}

void compare(const char* driver, const std::vector<std::vector<uint32_t>>& got, const std::vector<std::vector<uint32_t>>& want) {
  ASSERT_EQ(got.size(), want.size()) << driver;
  for (size_t b = 0; b < want.size(); ++b)
    for (size_t k = 0; k < want[b].size(); ++k)
      ASSERT_EQ(got[b][k], want[b][k]) << driver << ": binding " << b << " word " << k;
}

void check(bool full) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<Binding> bindings;
  std::vector<std::vector<uint32_t>> want;
  if (full) {
    bindings = {{sequence(kN, 0x10000)}, {sequence(kN, 0x20000), 4 * kBound}, {selectors()}, {sequence(kN, 0x30000)},
                {sequence(kN, 0x40000), 4 * kBound}, {std::vector<uint32_t>(12 * kN, 0xEEEEEEEEu)}};
    want = expectedMux();
  } else {
    bindings = {{sequence(2 * kN, 0x10000), 8 * kBound}, {selectors()}, {std::vector<uint32_t>(4 * kN, 0xEEEEEEEEu)}};
    want = expectedSingle();
  }
  const char* shader = full ? "var_ptr_mux" : "var_ptr_single";
  compare("Tessera", run(drivers.tessera, shader, full, bindings), want);
  if (drivers.lavapipe) compare("lavapipe", run(drivers.lavapipe, shader, full, bindings), want);
}

TEST(ComputeVariablePointers, StorageBufferPointersFromSelectPhiCallAndPtrAccessChain) { check(false); }
TEST(ComputeVariablePointers, TwoBuffersPrivateFunctionAndWorkgroupPointersAndWrites) { check(true); }

}  // namespace
}  // namespace tessera_test
