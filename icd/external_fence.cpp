// VK_KHR_external_fence_fd with VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT: like semaphores
// (icd/external_semaphore.cpp), a fence's payload is a page of a sealed memfd that the exporting
// and every importing fence map shared. Permanent imports replace the payload; a temporary one
// lasts until the fence is next reset.
#include <fcntl.h>
#include <unistd.h>

#include "device.h"
#include "entrypoints.h"
#include "instance.h"
#include "sync.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo* pInfo, VkExternalFenceProperties* pProps) {
  const bool opaqueFd = pInfo->handleType == VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT;
  pProps->exportFromImportedHandleTypes = opaqueFd ? VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProps->compatibleHandleTypes = opaqueFd ? VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProps->externalFenceFeatures =
      opaqueFd ? VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetFenceFdKHR(VkDevice device, const VkFenceGetFdInfoKHR* pGetFdInfo, int* pFd) {
  Fence* f = fromHandle<Fence>(pGetFdInfo->fence);
  const SharedPayload& current = f->exported();
  if (pGetFdInfo->handleType != VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT || current.fd < 0) {
    reportError(fromHandle<Device>(device)->instance, VK_OBJECT_TYPE_FENCE, uint64_t(pGetFdInfo->fence),
                "vkGetFenceFdKHR: the fence was not created exportable as an opaque fd");
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  const int fd = fcntl(current.fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  *pFd = fd;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkImportFenceFdKHR(VkDevice device, const VkImportFenceFdInfoKHR* pImportFenceFdInfo) {
  const VkImportFenceFdInfoKHR& info = *pImportFenceFdInfo;
  Fence* f = fromHandle<Fence>(info.fence);
  SharedPayload imported;
  if (info.handleType == VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT) imported = importSharedPayload(info.fd);
  if (!imported.payload) {
    reportError(fromHandle<Device>(device)->instance, VK_OBJECT_TYPE_FENCE, uint64_t(info.fence),
                "vkImportFenceFdKHR: fd %d is not an opaque-fd fence payload exported by Tessera", info.fd);
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  f->adopt(imported, info.flags & VK_FENCE_IMPORT_TEMPORARY_BIT);
  return VK_SUCCESS;
}

}  // extern "C"
