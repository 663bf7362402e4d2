// Limits the spec lets a driver check, refused with a clear VkResult and a debug-utils message
// rather than accepted and mishandled:
//  - a buffer above maxBufferSize (VUID-VkBufferCreateInfo-size-06409): VK_ERROR_OUT_OF_DEVICE_MEMORY,
//    what lavapipe returns for sizes above its own limit;
//  - Workgroup variables above maxComputeSharedMemorySize (VUID-RuntimeSpirv-Workgroup-06530)
//    and Private/Function arrays too large for any stack: VK_ERROR_UNKNOWN from
//    vkCreateComputePipelines, refused before code generation (so quickly). Exactly the limit
//    works and computes the values the shader defines.
// The validation layer reports the same rules; its own messages are taken, shader validation
// is off where the layer would stop at the SPIR-V (the driver must refuse it by itself).
#include <chrono>
#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

class MemoryLimits : public ComputeTest {
 protected:
  MemoryLimits() { validationDisables = {VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT}; }

  Program sharedOf(uint32_t elements) {
    const VkSpecializationMapEntry entry{0, 0, 4};
    const VkSpecializationInfo spec{1, &entry, 4, &elements};
    return createProgram(loadCorpusShader("shared_sized"), 1, 0, VK_NULL_HANDLE, nullptr, &spec);
  }
};

TEST_F(MemoryLimits, BuffersAboveMaxBufferSizeAreRefused) {
  VkPhysicalDeviceMaintenance4Properties m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &m4};
  vkGetPhysicalDeviceProperties2(physicalDevice, &props);
  ASSERT_GT(m4.maxBufferSize, 1u << 30);
  VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  ci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  ci.size = m4.maxBufferSize;
  VkBuffer b = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateBuffer(device, &ci, nullptr, &b), VK_SUCCESS) << "the limit itself is allowed";
  vkDestroyBuffer(device, b, nullptr);
  for (VkDeviceSize size : {m4.maxBufferSize + 1, VkDeviceSize(1) << 62, ~VkDeviceSize(0)}) {
    ci.size = size;
    b = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBuffer(device, &ci, nullptr, &b), VK_ERROR_OUT_OF_DEVICE_MEMORY) << size;
    EXPECT_EQ(b, VK_NULL_HANDLE);
  }
  EXPECT_EQ(takeMessages("above maxBufferSize"), 3u);
  takeMessages("VUID-VkBufferCreateInfo-size-06409");  // layers that know the rule say it too
}

TEST_F(MemoryLimits, SharedMemoryUpToTheLimitWorksAndAboveItIsRefused) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physicalDevice, &props);
  const uint32_t limit = props.limits.maxComputeSharedMemorySize;
  ASSERT_GE(limit, 16384u);  // the spec's minimum
  Program atLimit = sharedOf(limit / 4);
  ASSERT_EQ(atLimit.result, VK_SUCCESS);
  std::vector<uint8_t> out(2 * 64 * 4);
  run(atLimit, {&out}, {}, 2);
  for (uint32_t i = 0; i < 128; ++i) {
    uint32_t v;
    std::memcpy(&v, out.data() + 4 * i, 4);
    ASSERT_EQ(v, ((i % 64) * 131u) % (limit / 4) * 3u) << i;
  }
  destroy(atLimit);
  // One element more, and an array whose byte size wraps 32 bits.
  for (uint32_t elements : {limit / 4 + 1, 0x40000001u}) {
    const auto start = std::chrono::steady_clock::now();
    Program over = sharedOf(elements);
    EXPECT_EQ(over.result, VK_ERROR_UNKNOWN) << elements;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << elements;
    destroy(over);
  }
  EXPECT_EQ(takeMessages("Workgroup variables of"), 2u);
  takeMessages("VUID-RuntimeSpirv-Workgroup-06530");  // the layer checks the size it can compute
}

// Block-decorated Workgroup variables alias (VK_KHR_workgroup_memory_explicit_layout): two blocks
// as large as the limit take the limit, not twice it, and read each other's words.
TEST_F(MemoryLimits, AliasedSharedBlocksCountOnceAgainstTheLimit) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physicalDevice, &props);
  ASSERT_EQ(props.limits.maxComputeSharedMemorySize, 32768u) << "the shader's blocks are 32 KiB each";
  Program p = createProgram(loadCorpusShader("shared_blocks_at_limit"), 1, 0);
  ASSERT_EQ(p.result, VK_SUCCESS);
  std::vector<uint8_t> out(2 * 64 * 4);
  run(p, {&out}, {}, 2);
  for (uint32_t i = 0; i < 128; ++i) {
    uint32_t v;
    std::memcpy(&v, out.data() + 4 * i, 4);
    const uint32_t pair = ((i % 64) * 131u) % 4096u;
    ASSERT_EQ(v, 2 * pair * 3u + (2 * pair + 1) * 3u) << i;
  }
  destroy(p);
}

TEST_F(MemoryLimits, PrivateArraysTooLargeForAStackAreRefused) {
  for (uint32_t n : {1u << 28, 0xFFFFFFF0u}) {
    const uint32_t data[3] = {n, 0, 64};
    const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    const VkSpecializationInfo spec{3, entries, 12, data};
    const auto start = std::chrono::steady_clock::now();
    Program p = createProgram(loadCorpusShader("big_private"), 1, 0, VK_NULL_HANDLE, nullptr, &spec);
    EXPECT_EQ(p.result, VK_ERROR_UNKNOWN) << n;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << n;
    destroy(p);
  }
  EXPECT_EQ(takeMessages("Private and Function variables"), 2u);
}

}  // namespace
}  // namespace tessera_test
