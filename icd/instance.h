// VkInstance: the enabled instance extensions, the debug messengers and the one CPU
// physical device.
#pragma once

#include <bitset>
#include <cstdarg>
#include <memory>
#include <vulkan/vulkan_core.h>

#include "debug_messenger.h"
#include "extensions.h"
#include "feature_set.h"
#include "handles.h"

namespace tessera {

struct PhysicalDevice;

struct Instance : DispatchableObject {
  VkAllocationCallbacks allocatorStorage{};
  bool hasAllocator = false;
  uint32_t apiVersion = VK_API_VERSION_1_0;
  std::bitset<size_t(ExtensionId::Count)> enabledExtensions;
  DebugMessengers debug;
  PhysicalDevice* physicalDevice = nullptr;

  const VkAllocationCallbacks* allocator() const { return hasAllocator ? &allocatorStorage : nullptr; }
  bool extensionEnabled(int index) const { return index >= 0 && enabledExtensions.test(size_t(index)); }
};

// Reports an application-visible problem through debug-utils (and TESSERA_LOG).
void reportError(Instance* instance, VkObjectType type, uint64_t handle, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

// Whether Tessera offers extension `index` of supportedExtensions(): an instance extension when
// deviceFeatures is null, else a device extension of the physical device with those features
// (all its commands implemented, and the features the spec requires of it present).
bool extensionOffered(size_t index, const FeatureSet* deviceFeatures);
// Index in supportedExtensions() of the offered extension `name` (as above), or -1.
int findExtension(const char* name, const FeatureSet* deviceFeatures);

}  // namespace tessera
