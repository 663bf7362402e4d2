// VK_KHR_external_semaphore_fd with VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT: a
// semaphore's payload is a page of a sealed memfd (icd/semaphore_payload.h) that the exporting and
// every importing semaphore map shared, so a signal on one device (or in one process) is seen
// by waits on another. Binary and timeline semaphores, permanent and temporary imports.
#include <fcntl.h>
#include <unistd.h>

#include "device.h"
#include "entrypoints.h"
#include "instance.h"
#include "physical_device.h"
#include "sync.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo* pInfo, VkExternalSemaphoreProperties* pProps) {
  // Opaque fds, for binary and timeline semaphores alike.
  const bool opaqueFd = pInfo->handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  pProps->exportFromImportedHandleTypes = opaqueFd ? VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProps->compatibleHandleTypes = opaqueFd ? VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT : 0;
  pProps->externalSemaphoreFeatures =
      opaqueFd ? VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetSemaphoreFdKHR(VkDevice device, const VkSemaphoreGetFdInfoKHR* pGetFdInfo,
                                                          int* pFd) {
  Semaphore* s = fromHandle<Semaphore>(pGetFdInfo->semaphore);
  const SharedPayload& current = s->exported();
  if (pGetFdInfo->handleType != VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT || current.fd < 0) {
    reportError(fromHandle<Device>(device)->instance, VK_OBJECT_TYPE_SEMAPHORE, uint64_t(pGetFdInfo->semaphore),
                "vkGetSemaphoreFdKHR: the semaphore was not created exportable as an opaque fd");
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  // A new fd referring to the payload, owned by the application.
  const int fd = fcntl(current.fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  *pFd = fd;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkImportSemaphoreFdKHR(VkDevice device,
                                                             const VkImportSemaphoreFdInfoKHR* pImportSemaphoreFdInfo) {
  const VkImportSemaphoreFdInfoKHR& info = *pImportSemaphoreFdInfo;
  Semaphore* s = fromHandle<Semaphore>(info.semaphore);
  SharedPayload imported;
  if (info.handleType == VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT) imported = importSharedPayload(info.fd);
  if (!imported.payload) {
    reportError(fromHandle<Device>(device)->instance, VK_OBJECT_TYPE_SEMAPHORE, uint64_t(info.semaphore),
                "vkImportSemaphoreFdKHR: fd %d is not an opaque-fd semaphore payload exported by Tessera", info.fd);
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  // The fd now belongs to the semaphore ("Importing Semaphore Payloads": ownership transfers on
  // success). A temporary import lasts until the next wait; a permanent one replaces the payload.
  s->adopt(imported, info.flags & VK_SEMAPHORE_IMPORT_TEMPORARY_BIT);
  return VK_SUCCESS;
}

}  // extern "C"
