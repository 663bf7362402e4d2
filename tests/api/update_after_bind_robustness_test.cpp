// robustBufferAccessUpdateAfterBind (VkPhysicalDeviceVulkan12Properties): robustBufferAccess
// together with update-after-bind uniform, storage, uniform texel and storage texel buffers, on
// Tessera and on lavapipe. For each kind, one allocation holds buffer A (16 words) and after it
// buffer B (16 sentinel words); a third buffer, `whole`, covers both. The set is written with
// `whole`, the command buffer records the bind and the dispatch, and only then, before the
// submit, are the descriptors rewritten to A (UPDATE_AFTER_BIND). The shader
// (tests/shaders/update_after_bind_robustness.comp) reads and writes words 0..31. What
// "Robust Buffer Access" allows for the out-of-range half: a load gives zero or a value from
// the memory bound to A (never B's, which a descriptor left at `whole` would give), a store
// may change only A's memory (B keeps its sentinels); lengths are A's. Descriptors captured
// when the set is bound, or accesses checked against `whole`, would read B's words or store
// into B.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "one_set_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kWords = 16;  // words in buffer A, in buffer B

// robustBufferAccess with the four update-after-bind features (`robustOnly`: robustBufferAccess).
bool offersUpdateAfterBindRobustness(VkPhysicalDevice pd, bool robustOnly = false) {
  VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
  vkGetPhysicalDeviceProperties2(pd, &p);
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
  vkGetPhysicalDeviceFeatures2(pd, &f);
  if (robustOnly) return f.features.robustBufferAccess;
  return p12.robustBufferAccessUpdateAfterBind && f.features.robustBufferAccess &&
         f12.descriptorBindingUniformBufferUpdateAfterBind && f12.descriptorBindingStorageBufferUpdateAfterBind &&
         f12.descriptorBindingUniformTexelBufferUpdateAfterBind && f12.descriptorBindingStorageTexelBufferUpdateAfterBind;
}

uint32_t memoryType(VkPhysicalDevice pd, uint32_t bits) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  return 0;
}

// A, B and `whole` of one descriptor kind, in one mapped allocation.
struct Pair {
  VkBuffer a = VK_NULL_HANDLE, b = VK_NULL_HANDLE, whole = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint32_t* words = nullptr;  // A's words; B's start at words + bOffset / 4
  VkDeviceSize bOffset = 0;
};

Pair makePair(VkPhysicalDevice pd, VkDevice dev, VkBufferUsageFlags usage, uint32_t aBase, uint32_t bBase) {
  Pair p;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = kWords * 4;
  bci.usage = usage;
  vkCreateBuffer(dev, &bci, nullptr, &p.a);
  vkCreateBuffer(dev, &bci, nullptr, &p.b);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, p.a, &req);
  p.bOffset = (req.size + req.alignment - 1) / req.alignment * req.alignment;
  bci.size = p.bOffset + kWords * 4;
  vkCreateBuffer(dev, &bci, nullptr, &p.whole);
  VkMemoryRequirements wholeReq;
  vkGetBufferMemoryRequirements(dev, p.whole, &wholeReq);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, std::max(wholeReq.size, p.bOffset + req.size),
                           memoryType(pd, req.memoryTypeBits & wholeReq.memoryTypeBits)};
  EXPECT_EQ(vkAllocateMemory(dev, &mai, nullptr, &p.memory), VK_SUCCESS);
  vkBindBufferMemory(dev, p.a, p.memory, 0);
  vkBindBufferMemory(dev, p.b, p.memory, p.bOffset);
  vkBindBufferMemory(dev, p.whole, p.memory, 0);
  void* mapped = nullptr;
  vkMapMemory(dev, p.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
  p.words = static_cast<uint32_t*>(mapped);
  std::memset(p.words, 0, size_t(p.bOffset + kWords * 4));
  for (uint32_t i = 0; i < kWords; ++i) {
    p.words[i] = aBase + i;
    p.words[p.bOffset / 4 + i] = bBase + i;
  }
  return p;
}

void destroyPair(VkDevice dev, Pair& p) {
  vkDestroyBuffer(dev, p.a, nullptr);
  vkDestroyBuffer(dev, p.b, nullptr);
  vkDestroyBuffer(dev, p.whole, nullptr);
  vkFreeMemory(dev, p.memory, nullptr);
}

// A loaded out-of-range word is allowed when it is zero or one of A's words (values
// base..base+15, or what the shader stored in A: storeBase..storeBase+15).
bool allowed(uint32_t v, uint32_t base, uint32_t storeBase) {
  return v == 0 || (v >= base && v < base + kWords) || (v >= storeBase && v < storeBase + kWords);
}

// With `updateAfterBind` false (a driver without the update-after-bind features), the
// descriptors are written with A before recording: the same expectations, checked on plain
// robustBufferAccess.
void run(VkPhysicalDevice pd, const char* driver, bool updateAfterBind) {
  VkPhysicalDeviceFeatures features{};
  features.robustBufferAccess = VK_TRUE;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.descriptorBindingUniformBufferUpdateAfterBind = updateAfterBind;
  v12.descriptorBindingStorageBufferUpdateAfterBind = updateAfterBind;
  v12.descriptorBindingUniformTexelBufferUpdateAfterBind = updateAfterBind;
  v12.descriptorBindingStorageTexelBufferUpdateAfterBind = updateAfterBind;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v12};
  v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
  TestDevice d(pd, &features, &v13);
  ASSERT_NE(d.dev, VK_NULL_HANDLE) << driver;
  void* outMap;
  VkBuffer out = d.createMappedBuffer(16 * 33, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  std::memset(outMap, 0xEE, 16 * 33);
  Pair ssbo = makePair(pd, d.dev, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0x1000, 0xB100);
  Pair ubo = makePair(pd, d.dev, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, 0x2000, 0xB200);
  Pair utb = makePair(pd, d.dev, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, 0x3000, 0xB300);
  Pair stb = makePair(pd, d.dev, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, 0x4000, 0xB400);
  {
    OneSetCompute program(d,
                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                           VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER},
                          "update_after_bind_robustness", updateAfterBind ? std::vector<uint32_t>{1, 2, 3, 4} : std::vector<uint32_t>{});
    ASSERT_TRUE(program.ok()) << driver;
    auto writeA = [&] {
      program.writeBuffer(1, ssbo.a);
      program.writeBuffer(2, ubo.a);
      program.writeTexelBuffer(3, program.createView(utb.a, VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE));
      program.writeTexelBuffer(4, program.createView(stb.a, VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE));
    };
    program.writeBuffer(0, out);
    if (updateAfterBind) {
      // Before binding: descriptors that reach B too.
      program.writeBuffer(1, ssbo.whole);
      program.writeBuffer(2, ubo.whole);
      program.writeTexelBuffer(3, program.createView(utb.whole, VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE));
      program.writeTexelBuffer(4, program.createView(stb.whole, VK_FORMAT_R32_UINT, 0, VK_WHOLE_SIZE));
    } else {
      writeA();
    }
    VkCommandBuffer cmd = program.record(1);
    if (updateAfterBind) writeA();  // after vkCmdBindDescriptorSets, before the submit: A only
    program.submit(cmd);
  }
  std::vector<std::array<uint32_t, 4>> o(33);
  std::memcpy(o.data(), outMap, 33 * 16);
  EXPECT_EQ(o[0][0], kWords) << driver << ": storage buffer length";
  EXPECT_EQ(o[0][1], kWords) << driver << ": uniform texel buffer size";
  EXPECT_EQ(o[0][2], kWords) << driver << ": storage texel buffer size";
  const uint32_t bases[4] = {0x1000, 0x2000, 0x3000, 0x4000};
  const uint32_t storeBases[4] = {0x5000, 0x2000, 0x3000, 0x6000};  // uniform kinds: nothing stored
  const bool stored[4] = {true, false, false, true};
  const char* kinds[4] = {"storage buffer", "uniform buffer", "uniform texel buffer", "storage texel buffer"};
  for (uint32_t i = 0; i < 2 * kWords; ++i)
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t v = o[1 + i][k];
      if (i < kWords) {
        EXPECT_EQ(v, bases[k] + i) << driver << " " << kinds[k] << ": word " << i;
      } else {
        EXPECT_TRUE(allowed(v, bases[k], storeBases[k]))
            << driver << " " << kinds[k] << ": out-of-range word " << i << " read 0x" << std::hex << v;
      }
    }
  const Pair* pairs[4] = {&ssbo, &ubo, &utb, &stb};
  for (uint32_t k = 0; k < 4; ++k)
    for (uint32_t i = 0; i < kWords; ++i) {
      EXPECT_EQ(pairs[k]->words[pairs[k]->bOffset / 4 + i], 0xB100u + 0x100 * k + i)
          << driver << " " << kinds[k] << ": an out-of-range store reached buffer B's word " << i;
      if (stored[k]) {
        EXPECT_EQ(pairs[k]->words[i], storeBases[k] + i) << driver << " " << kinds[k] << ": word " << i << " stored";
      }
    }
  for (Pair* p : {&ssbo, &ubo, &utb, &stb}) destroyPair(d.dev, *p);
  vkDestroyBuffer(d.dev, out, nullptr);
}

TEST(UpdateAfterBindRobustness, OutOfRangeAccessesThroughDescriptorsUpdatedAfterBindingStayInTheirBuffer) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  ASSERT_TRUE(offersUpdateAfterBindRobustness(drivers.tessera))
      << "Tessera does not offer robustBufferAccess with update-after-bind buffer descriptors";
  run(drivers.tessera, "Tessera", true);
  // lavapipe (Mesa 22.3) offers robustBufferAccessUpdateAfterBind but none of the four
  // update-after-bind buffer features: it checks the expectations on descriptors written
  // before binding then.
  if (drivers.lavapipe && offersUpdateAfterBindRobustness(drivers.lavapipe)) {
    run(drivers.lavapipe, "lavapipe", true);
    std::printf("lavapipe: compared with update-after-bind descriptors\n");
  } else if (drivers.lavapipe && offersUpdateAfterBindRobustness(drivers.lavapipe, true)) {
    run(drivers.lavapipe, "lavapipe", false);
    std::printf("lavapipe: compared with descriptors written before binding\n");
  }
}

}  // namespace
}  // namespace tessera_test
