// VkInstance: the enabled instance extensions, the debug messengers and the one CPU
// physical device.
#pragma once

#include <bitset>
#include <cstdarg>
#include <memory>
#include <vulkan/vulkan_core.h>

#include "debug_messenger.h"
#include "extensions.h"
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

int findExtension(const char* name, bool device);  // index in supportedExtensions() or -1

}  // namespace tessera
