// Helpers for unit tests that call the descriptor entry points directly (no loader, no
// validation layer), so they can reach the bytes the driver writes and use what the device
// does not advertise yet (inline uniform blocks, binding flags, null descriptors).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include "descriptors.h"
#include "device.h"
#include "entrypoints.h"
#include "physical_device.h"
#include "resources.h"

namespace tessera_test {

using tessera::fromHandle;
using tessera::toHandle;

// Tracks live allocations so a test can see what an object owns and that it is all freed.
struct TrackingAllocator {
  std::map<void*, size_t> live;
  int failAfter = -1;  // allocations that succeed before every further one fails; -1: never fail
  int fill = 0xAB;     // new allocations are filled with this byte, so nothing is zero by chance

  static void* VKAPI_CALL alloc(void* user, size_t size, size_t align, VkSystemAllocationScope) {
    auto* self = static_cast<TrackingAllocator*>(user);
    if (self->failAfter == 0) return nullptr;
    if (self->failAfter > 0) --self->failAfter;
    void* p = nullptr;
    if (posix_memalign(&p, std::max(align, sizeof(void*)), size)) return nullptr;
    std::memset(p, self->fill, size);
    self->live[p] = size;
    return p;
  }
  static void* VKAPI_CALL realloc(void*, void*, size_t, size_t, VkSystemAllocationScope) { return nullptr; }
  static void VKAPI_CALL free(void* user, void* p) {
    if (!p) return;
    static_cast<TrackingAllocator*>(user)->live.erase(p);
    std::free(p);
  }
  VkAllocationCallbacks callbacks() { return {this, alloc, realloc, free, nullptr, nullptr}; }
};

// A device object good enough for the descriptor entry points (they use its allocator only).
struct FakeDevice {
  tessera::Device device;
  VkDevice handle() { return toHandle<VkDevice>(&device); }
};

inline VkDescriptorSetLayoutBinding binding(uint32_t number, VkDescriptorType type, uint32_t count,
                                            const VkSampler* immutable = nullptr) {
  return {number, type, count, VK_SHADER_STAGE_COMPUTE_BIT, immutable};
}

inline VkDescriptorSetLayout makeLayout(VkDevice dev, const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                        const std::vector<VkDescriptorBindingFlags>& flags = {},
                                        const VkAllocationCallbacks* allocator = nullptr) {
  VkDescriptorSetLayoutBindingFlagsCreateInfo fi{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
  fi.bindingCount = uint32_t(flags.size());
  fi.pBindingFlags = flags.data();
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, flags.empty() ? nullptr : &fi};
  ci.bindingCount = uint32_t(bindings.size());
  ci.pBindings = bindings.data();
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(tessera_vkCreateDescriptorSetLayout(dev, &ci, allocator, &layout), VK_SUCCESS);
  return layout;
}

inline const tessera::DescriptorSetLayout& layoutOf(VkDescriptorSetLayout l) {
  return *fromHandle<tessera::DescriptorSetLayout>(l);
}

inline VkDescriptorPool makePool(VkDevice dev, uint32_t maxSets, const std::vector<VkDescriptorPoolSize>& sizes,
                                 const void* pNext = nullptr, const VkAllocationCallbacks* allocator = nullptr) {
  VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, pNext};
  ci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  ci.maxSets = maxSets;
  ci.poolSizeCount = uint32_t(sizes.size());
  ci.pPoolSizes = sizes.data();
  VkDescriptorPool pool = VK_NULL_HANDLE;
  EXPECT_EQ(tessera_vkCreateDescriptorPool(dev, &ci, allocator, &pool), VK_SUCCESS);
  return pool;
}

// Allocates one set; returns the VkResult and the set through `out`.
inline VkResult allocate(VkDevice dev, VkDescriptorPool pool, VkDescriptorSetLayout layout, VkDescriptorSet* out,
                         const uint32_t* variableCount = nullptr) {
  VkDescriptorSetVariableDescriptorCountAllocateInfo vi{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO, nullptr, 1, variableCount};
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, variableCount ? &vi : nullptr, pool, 1,
                                 &layout};
  return tessera_vkAllocateDescriptorSets(dev, &ai, out);
}

inline tessera::DescriptorSet& setOf(VkDescriptorSet s) { return *fromHandle<tessera::DescriptorSet>(s); }

// The descriptor at (binding, element) of a set, as the kernel would read it.
template <typename D>
D descriptorAt(VkDescriptorSet s, uint32_t binding, uint32_t element = 0) {
  const tessera::DescriptorSet& set = setOf(s);
  const tessera::DescriptorBinding* b = set.layout->find(binding);
  EXPECT_NE(b, nullptr);
  D d;
  std::memcpy(&d, set.memory + b->offset + element * tessera::abi::kDescriptorSize, sizeof d);
  return d;
}

// Device memory and a buffer bound to it at `offset`.
struct HostBuffer {
  std::vector<uint8_t> bytes;
  tessera::DeviceMemory memory;
  tessera::Buffer buffer;
  HostBuffer(VkDeviceSize size, VkDeviceSize offset = 0) : bytes(size + offset) {
    memory.size = bytes.size();
    memory.data = bytes.data();
    buffer.size = size;
    buffer.memory = &memory;
    buffer.memoryOffset = offset;
  }
  VkBuffer handle() { return toHandle<VkBuffer>(&buffer); }
};

}  // namespace tessera_test
