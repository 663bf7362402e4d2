// The generated name -> function table (entrypoints.cpp) and the lookups the GetProcAddr
// functions build on.
#pragma once

#include <span>
#include <vulkan/vulkan_core.h>

namespace tessera {

enum class EntryPointLevel { Global, Instance, PhysicalDevice, Device };

struct EntryPoint {
  const char* name;
  PFN_vkVoidFunction function;  // NULL when Tessera does not implement it
  EntryPointLevel level;
  int coreMinor;                // 0..3: part of Vulkan 1.<coreMinor>; -1: extension only
  int extension;                // index into supportedExtensions(), or -1
  int extension2;               // a second providing extension, or -1
};

std::span<const EntryPoint> entryPoints();  // sorted by name
const EntryPoint* findEntryPoint(const char* name);

}  // namespace tessera
