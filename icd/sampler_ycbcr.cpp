// vkCreateSamplerYcbcrConversion / vkDestroySamplerYcbcrConversion (samplerYcbcrConversion).
// The object keeps its create info; image views read it when they are created (icd/image.cpp).
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "sampler.h"

namespace tessera {

const SamplerYcbcrConversion* chainedYcbcrConversion(const void* pNext) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO)
      return fromHandle<SamplerYcbcrConversion>(reinterpret_cast<const VkSamplerYcbcrConversionInfo*>(s)->conversion);
  return nullptr;
}

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
