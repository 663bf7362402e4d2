// Handle <-> object conversion. Dispatchable objects start with the loader's data word
// (ICD_LOADER_MAGIC until the loader writes its dispatch pointer there); non-dispatchable
// handles are pointers to the driver object.
#pragma once

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct DispatchableObject {
  VK_LOADER_DATA loaderData;
  DispatchableObject() { set_loader_magic_value(&loaderData); }
};

template <typename Object, typename Handle>
Object* fromHandle(Handle h) {
  return reinterpret_cast<Object*>(h);
}

template <typename Handle, typename Object>
Handle toHandle(Object* o) {
  return reinterpret_cast<Handle>(o);
}

}  // namespace tessera
