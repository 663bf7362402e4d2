// Descriptor update templates: the entries are kept as given and replayed through the same
// writes as vkUpdateDescriptorSets (icd/descriptor_update.cpp).
#include <algorithm>
#include <new>

#include "descriptors.h"
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"

namespace tessera {

void applyUpdateTemplate(DescriptorSet& set, const DescriptorUpdateTemplate& t, const void* pData) {
  const auto* data = static_cast<const uint8_t*>(pData);
  for (uint32_t i = 0; i < t.entryCount; ++i) {
    const VkDescriptorUpdateTemplateEntry& e = t.entries[i];
    if (e.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK)
      writeInlineUniformBlock(set, e.dstBinding, e.dstArrayElement, e.descriptorCount, data + e.offset);
    else
      writeDescriptors(set, e.dstBinding, e.dstArrayElement, e.descriptorCount, e.descriptorType, data + e.offset,
                       e.stride);
  }
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDescriptorUpdateTemplate(VkDevice device,
                                                                       const VkDescriptorUpdateTemplateCreateInfo* pCreateInfo,
                                                                       const VkAllocationCallbacks* pAllocator,
                                                                       VkDescriptorUpdateTemplate* pTemplate) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Device>(device)->allocator());
  // One allocation: the template, then its entries.
  const size_t entriesAt =
      (sizeof(DescriptorUpdateTemplate) + alignof(VkDescriptorUpdateTemplateEntry) - 1) &
      ~(alignof(VkDescriptorUpdateTemplateEntry) - 1);
  const uint32_t n = pCreateInfo->descriptorUpdateEntryCount;
  auto* base = static_cast<uint8_t*>(hostAlloc(a, entriesAt + sizeof(VkDescriptorUpdateTemplateEntry) * n,
                                               alignof(DescriptorUpdateTemplate), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!base) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* t = new (base) DescriptorUpdateTemplate;
  auto* entries = reinterpret_cast<VkDescriptorUpdateTemplateEntry*>(base + entriesAt);
  std::copy_n(pCreateInfo->pDescriptorUpdateEntries, n, entries);
  t->entryCount = n;
  t->entries = entries;
  if (pCreateInfo->templateType == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR)
    t->bindPoint = pCreateInfo->pipelineBindPoint;
  *pTemplate = toHandle<VkDescriptorUpdateTemplate>(t);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDescriptorUpdateTemplate(VkDevice device, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                    const VkAllocationCallbacks* pAllocator) {
  if (!descriptorUpdateTemplate) return;
  auto* t = fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
  t->~DescriptorUpdateTemplate();
  hostFree(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), t);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkUpdateDescriptorSetWithTemplate(VkDevice, VkDescriptorSet descriptorSet,
                                                                    VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                    const void* pData) {
  applyUpdateTemplate(*fromHandle<DescriptorSet>(descriptorSet), *fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate),
                      pData);
}

}  // extern "C"
