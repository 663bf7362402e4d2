// The device-level half of VK_EXT_debug_utils (labels, object names and tags) and the core 1.1
// device-group commands, for a single-device group.
//
// Labels and tags are annotations for debuggers and capture tools; Tessera has no use for them,
// and the spec gives them no effect on execution, so accepting them is the whole job (a NULL
// entry point instead would crash every program that labels its command buffers). Object names
// are accepted the same way.
#include "entrypoints.h"

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkSetDebugUtilsObjectNameEXT(VkDevice, const VkDebugUtilsObjectNameInfoEXT*) {
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkSetDebugUtilsObjectTagEXT(VkDevice, const VkDebugUtilsObjectTagInfoEXT*) {
  return VK_SUCCESS;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginDebugUtilsLabelEXT(VkCommandBuffer, const VkDebugUtilsLabelEXT*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndDebugUtilsLabelEXT(VkCommandBuffer) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdInsertDebugUtilsLabelEXT(VkCommandBuffer, const VkDebugUtilsLabelEXT*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkQueueBeginDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkQueueEndDebugUtilsLabelEXT(VkQueue) {}
VKAPI_ATTR void VKAPI_CALL tessera_vkQueueInsertDebugUtilsLabelEXT(VkQueue, const VkDebugUtilsLabelEXT*) {}

// A group of one device: the only valid mask is 1, and every command already runs on it.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDeviceMask(VkCommandBuffer, uint32_t) {}

// Only meaningful between two devices of a group; a group of one has no peers, so any call is
// answered with what a device can do with its own memory.
VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceGroupPeerMemoryFeatures(VkDevice, uint32_t, uint32_t, uint32_t,
                                                                      VkPeerMemoryFeatureFlags* pPeerMemoryFeatures) {
  *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT | VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT | VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}

}  // extern "C"
