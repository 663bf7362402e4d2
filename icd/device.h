// VkDevice and its queue.
#pragma once

#include <atomic>
#include <bitset>
#include <mutex>
#include <unordered_map>
#include <vulkan/vulkan_core.h>

#include "extensions.h"
#include "feature_set.h"
#include "handles.h"
#include "tessera/decoded_texture.h"

namespace tessera {

struct Instance;
struct PhysicalDevice;
struct Queue;

struct Device : DispatchableObject {
  Instance* instance = nullptr;
  PhysicalDevice* physical = nullptr;
  VkAllocationCallbacks allocatorStorage{};
  bool hasAllocator = false;
  uint32_t apiVersion = VK_API_VERSION_1_0;
  std::bitset<size_t(ExtensionId::Count)> enabledExtensions;
  FeatureSet enabledFeatures;
  Queue* queue = nullptr;
  // Set when executing a submission failed (an allocation an application's numbers sized, or
  // any other exception): the device is lost ("Lost Device"). Later submissions are not run,
  // and submits, fence, semaphore and idle waits say VK_ERROR_DEVICE_LOST.
  std::atomic<bool> lost{false};
  // Non-zero once the device is lost: the running work stops (abi::BoundResources::cancel,
  // read by kernels at loop back-edges and by the draw and dispatch loops).
  std::atomic<uint32_t> cancelWork{0};
  const volatile uint32_t* cancelWord() const { return reinterpret_cast<const volatile uint32_t*>(&cancelWork); }
  // Marks the device lost and stops its running work; reports `why` (debug utils) the first
  // time only. Safe from any thread.
  void lose(const char* why);
  // Images presented on this device so far: frame numbers of captures (icd/wsi_capture.h).
  std::atomic<uint64_t> framesPresented{0};
  // The bytes the decoded copies of its BC1 images may take together (decoded_texture.h).
  DecodedTextureBudget decodedTextures{DecodedTextureBudget::configuredLimit()};

  // VK_EXT_private_data / 1.3 private data: (slot, object) -> value.
  std::mutex privateDataMutex;
  std::unordered_map<uint64_t, std::unordered_map<uint64_t, uint64_t>> privateData;

  const VkAllocationCallbacks* allocator() const { return hasAllocator ? &allocatorStorage : nullptr; }
  bool extensionEnabled(int index) const { return index >= 0 && enabledExtensions.test(size_t(index)); }
};

}  // namespace tessera
