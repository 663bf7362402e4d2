// Buffer device addresses (core 1.2, required by 1.3): a buffer's address is where its bytes
// are in this process, which is exactly what a shader's physical storage buffer pointer
// dereferences. Capture/replay of addresses across runs is not offered
// (bufferDeviceAddressCaptureReplay is false), so the opaque capture queries return 0 as the
// spec allows for resources not created for capture/replay.
#include "entrypoints.h"
#include "handles.h"
#include "resources.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR VkDeviceAddress VKAPI_CALL tessera_vkGetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo* pInfo) {
  return VkDeviceAddress(reinterpret_cast<uintptr_t>(fromHandle<Buffer>(pInfo->buffer)->data()));
}

VKAPI_ATTR uint64_t VKAPI_CALL tessera_vkGetBufferOpaqueCaptureAddress(VkDevice, const VkBufferDeviceAddressInfo*) { return 0; }

VKAPI_ATTR uint64_t VKAPI_CALL tessera_vkGetDeviceMemoryOpaqueCaptureAddress(VkDevice, const VkDeviceMemoryOpaqueCaptureAddressInfo*) {
  return 0;
}

}  // extern "C"
