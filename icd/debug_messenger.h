// VK_EXT_debug_utils messengers and VK_EXT_debug_report callbacks of one instance: where the
// driver tells the application what it did wrong or why something failed.
#pragma once

#include <mutex>
#include <vector>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct DebugUtilsMessenger {
  VkDebugUtilsMessageSeverityFlagsEXT severities;
  VkDebugUtilsMessageTypeFlagsEXT types;
  PFN_vkDebugUtilsMessengerCallbackEXT callback;
  void* userData;
};

struct DebugReportCallback {
  VkDebugReportFlagsEXT flags;
  PFN_vkDebugReportCallbackEXT callback;
  void* userData;
};

class DebugMessengers {
 public:
  void add(DebugUtilsMessenger* m);
  void remove(DebugUtilsMessenger* m);
  void add(DebugReportCallback* c);
  void remove(DebugReportCallback* c);
  // Messengers chained into VkInstanceCreateInfo cover vkCreateInstance and
  // vkDestroyInstance only (spec: VkDebugUtilsMessengerCreateInfoEXT in the pNext chain).
  void addFromChain(const void* pNext);
  void setChainedActive(bool active);

  void message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
               VkObjectType objectType, uint64_t objectHandle, const char* text);

 private:
  std::mutex mutex_;
  std::vector<DebugUtilsMessenger*> messengers_;
  std::vector<DebugReportCallback*> reports_;
  std::vector<DebugUtilsMessenger> chainedMessengers_;
  std::vector<DebugReportCallback> chainedReports_;
  bool chainedActive_ = true;
};

}  // namespace tessera
