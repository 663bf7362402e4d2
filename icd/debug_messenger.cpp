#include "debug_messenger.h"

#include <algorithm>

#include "entrypoints.h"
#include "handles.h"
#include "host_allocator.h"
#include "instance.h"

namespace tessera {

void DebugMessengers::add(DebugUtilsMessenger* m) {
  std::lock_guard lock(mutex_);
  messengers_.push_back(m);
}
void DebugMessengers::remove(DebugUtilsMessenger* m) {
  std::lock_guard lock(mutex_);
  std::erase(messengers_, m);
}
void DebugMessengers::add(DebugReportCallback* c) {
  std::lock_guard lock(mutex_);
  reports_.push_back(c);
}
void DebugMessengers::remove(DebugReportCallback* c) {
  std::lock_guard lock(mutex_);
  std::erase(reports_, c);
}

void DebugMessengers::addFromChain(const void* pNext) {
  std::lock_guard lock(mutex_);
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT) {
      auto* ci = reinterpret_cast<const VkDebugUtilsMessengerCreateInfoEXT*>(s);
      chainedMessengers_.push_back({ci->messageSeverity, ci->messageType, ci->pfnUserCallback, ci->pUserData});
    } else if (s->sType == VK_STRUCTURE_TYPE_DEBUG_REPORT_CALLBACK_CREATE_INFO_EXT) {
      auto* ci = reinterpret_cast<const VkDebugReportCallbackCreateInfoEXT*>(s);
      chainedReports_.push_back({ci->flags, ci->pfnCallback, ci->pUserData});
    }
  }
}

void DebugMessengers::setChainedActive(bool active) {
  std::lock_guard lock(mutex_);
  chainedActive_ = active;
}

static VkDebugReportFlagsEXT reportFlag(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  switch (severity) {
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT: return VK_DEBUG_REPORT_ERROR_BIT_EXT;
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT: return VK_DEBUG_REPORT_WARNING_BIT_EXT;
    case VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT: return VK_DEBUG_REPORT_INFORMATION_BIT_EXT;
    default: return VK_DEBUG_REPORT_DEBUG_BIT_EXT;
  }
}

void DebugMessengers::message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                              VkDebugUtilsMessageTypeFlagsEXT type, VkObjectType objectType,
                              uint64_t objectHandle, const char* text) {
  VkDebugUtilsObjectNameInfoEXT object{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr,
                                       objectType, objectHandle, nullptr};
  VkDebugUtilsMessengerCallbackDataEXT data{};
  data.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT;
  data.pMessageIdName = "Tessera";
  data.pMessage = text;
  data.objectCount = objectHandle ? 1 : 0;
  data.pObjects = objectHandle ? &object : nullptr;
  std::lock_guard lock(mutex_);
  auto deliver = [&](const DebugUtilsMessenger& m) {
    if ((m.severities & severity) && (m.types & type)) m.callback(severity, type, &data, m.userData);
  };
  for (auto* m : messengers_) deliver(*m);
  if (chainedActive_)
    for (auto& m : chainedMessengers_) deliver(m);
  VkDebugReportFlagsEXT flag = reportFlag(severity);
  auto report = [&](const DebugReportCallback& c) {
    if (c.flags & flag)
      c.callback(flag, VkDebugReportObjectTypeEXT(objectType == VK_OBJECT_TYPE_UNKNOWN ? 0 : objectType),
                 objectHandle, 0, 0, "Tessera", text, c.userData);
  };
  for (auto* c : reports_) report(*c);
  if (chainedActive_)
    for (auto& c : chainedReports_) report(c);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDebugUtilsMessengerEXT(
    VkInstance instance, const VkDebugUtilsMessengerCreateInfoEXT* pCreateInfo,
    const VkAllocationCallbacks* pAllocator, VkDebugUtilsMessengerEXT* pMessenger) {
  Instance* inst = fromHandle<Instance>(instance);
  auto* m = hostNew<DebugUtilsMessenger>(pickAllocator(pAllocator, inst->allocator()),
                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!m) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *m = {pCreateInfo->messageSeverity, pCreateInfo->messageType, pCreateInfo->pfnUserCallback,
        pCreateInfo->pUserData};
  inst->debug.add(m);
  *pMessenger = toHandle<VkDebugUtilsMessengerEXT>(m);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDebugUtilsMessengerEXT(
    VkInstance instance, VkDebugUtilsMessengerEXT messenger, const VkAllocationCallbacks* pAllocator) {
  if (!messenger) return;
  Instance* inst = fromHandle<Instance>(instance);
  auto* m = fromHandle<DebugUtilsMessenger>(messenger);
  inst->debug.remove(m);
  hostDelete(pickAllocator(pAllocator, inst->allocator()), m);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkSubmitDebugUtilsMessageEXT(
    VkInstance instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT types, const VkDebugUtilsMessengerCallbackDataEXT* data) {
  Instance* inst = fromHandle<Instance>(instance);
  inst->debug.message(severity, types, VK_OBJECT_TYPE_UNKNOWN, 0, data->pMessage);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDebugReportCallbackEXT(
    VkInstance instance, const VkDebugReportCallbackCreateInfoEXT* pCreateInfo,
    const VkAllocationCallbacks* pAllocator, VkDebugReportCallbackEXT* pCallback) {
  Instance* inst = fromHandle<Instance>(instance);
  auto* c = hostNew<DebugReportCallback>(pickAllocator(pAllocator, inst->allocator()),
                                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!c) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *c = {pCreateInfo->flags, pCreateInfo->pfnCallback, pCreateInfo->pUserData};
  inst->debug.add(c);
  *pCallback = toHandle<VkDebugReportCallbackEXT>(c);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDebugReportCallbackEXT(
    VkInstance instance, VkDebugReportCallbackEXT callback, const VkAllocationCallbacks* pAllocator) {
  if (!callback) return;
  Instance* inst = fromHandle<Instance>(instance);
  auto* c = fromHandle<DebugReportCallback>(callback);
  inst->debug.remove(c);
  hostDelete(pickAllocator(pAllocator, inst->allocator()), c);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDebugReportMessageEXT(
    VkInstance instance, VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT objectType,
    uint64_t object, size_t location, int32_t messageCode, const char* pLayerPrefix,
    const char* pMessage) {
  Instance* inst = fromHandle<Instance>(instance);
  auto severity = (flags & VK_DEBUG_REPORT_ERROR_BIT_EXT) ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                  : (flags & (VK_DEBUG_REPORT_WARNING_BIT_EXT | VK_DEBUG_REPORT_PERFORMANCE_WARNING_BIT_EXT))
                      ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT
                  : (flags & VK_DEBUG_REPORT_INFORMATION_BIT_EXT) ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT
                                                                 : VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT;
  inst->debug.message(severity, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, VkObjectType(objectType),
                      object, pMessage);
}

}  // extern "C"
