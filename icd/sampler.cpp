// vkCreateSampler / vkDestroySampler.
#include "sampler.h"

#include "device.h"
#include "physical_device.h"
#include "entrypoints.h"
#include "host_allocator.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateSampler(VkDevice device, const VkSamplerCreateInfo* pCreateInfo,
                                                      const VkAllocationCallbacks* pAllocator, VkSampler* pSampler) {
  Device* dev = fromHandle<Device>(device);
  Sampler* s = hostNew<Sampler>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkSamplerReductionMode reduction = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;
  for (auto* p = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO)
      reduction = reinterpret_cast<const VkSamplerReductionModeCreateInfo*>(p)->reductionMode;
  // "Scale Factor Operation": max_Aniso is 1 when the samplerAnisotropy feature is VK_FALSE
  // (enabling anisotropy without it is invalid usage; this is the spec's answer to it).
  const float maxAnisotropy = dev->enabledFeatures.samplerAnisotropy ? kMaxSamplerAnisotropy : 1.0f;
  s->baked = makeSamplerState(*pCreateInfo, reduction, kMaxSamplerLodBias, maxAnisotropy);
  *pSampler = toHandle<VkSampler>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroySampler(VkDevice device, VkSampler sampler,
                                                   const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<Sampler>(sampler));
}

}  // extern "C"
