// vkCreateSamplerYcbcrConversion / vkDestroySamplerYcbcrConversion. They are core 1.1 commands,
// so vkGetDeviceProcAddr must return them even though Tessera does not offer the
// samplerYcbcrConversion feature (without it, creating a conversion is invalid usage). The
// object keeps its create info; no sampler or view reads it until Y'CbCr sampling exists.
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"

namespace tessera {

struct SamplerYcbcrConversion {
  VkSamplerYcbcrConversionCreateInfo info{};  // pNext cleared
};

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateSamplerYcbcrConversion(VkDevice device,
                                                                      const VkSamplerYcbcrConversionCreateInfo* pCreateInfo,
                                                                      const VkAllocationCallbacks* pAllocator,
                                                                      VkSamplerYcbcrConversion* pConversion) {
  Device* dev = fromHandle<Device>(device);
  auto* c = hostNew<SamplerYcbcrConversion>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!c) return VK_ERROR_OUT_OF_HOST_MEMORY;
  c->info = *pCreateInfo;
  c->info.pNext = nullptr;
  *pConversion = toHandle<VkSamplerYcbcrConversion>(c);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroySamplerYcbcrConversion(VkDevice device, VkSamplerYcbcrConversion conversion,
                                                                   const VkAllocationCallbacks* pAllocator) {
  if (!conversion) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()),
             fromHandle<SamplerYcbcrConversion>(conversion));
}

}  // extern "C"
