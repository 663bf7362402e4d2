// vkCreate/DestroyShaderModule.
#include "shader_module.h"

#include <cstring>
#include <new>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* pCreateInfo,
                                                           const VkAllocationCallbacks* pAllocator,
                                                           VkShaderModule* pShaderModule) {
  Device* dev = fromHandle<Device>(device);
  const size_t size = pCreateInfo->codeSize;
  if (size == 0 || size % 4 != 0 || !pCreateInfo->pCode) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkCreateShaderModule: codeSize %zu is not a non-zero multiple of 4 (SPIR-V is 32-bit words)", size);
    return VK_ERROR_UNKNOWN;
  }
  // One allocation: the module, then its words.
  constexpr size_t wordsAt = (sizeof(ShaderModule) + alignof(uint32_t) - 1) & ~(alignof(uint32_t) - 1);
  auto* base = static_cast<uint8_t*>(hostAlloc(pickAllocator(pAllocator, dev->allocator()), wordsAt + size,
                                               alignof(ShaderModule), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!base) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* m = new (base) ShaderModule;
  auto* words = reinterpret_cast<uint32_t*>(base + wordsAt);
  std::memcpy(words, pCreateInfo->pCode, size);
  m->wordCount = size / 4;
  m->words = words;
  *pShaderModule = toHandle<VkShaderModule>(m);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyShaderModule(VkDevice device, VkShaderModule shaderModule,
                                                        const VkAllocationCallbacks* pAllocator) {
  if (!shaderModule) return;
  auto* m = fromHandle<ShaderModule>(shaderModule);
  m->~ShaderModule();
  hostFree(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), m);
}

}  // extern "C"
