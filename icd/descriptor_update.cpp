// vkUpdateDescriptorSets: writes, then copies (update templates reuse the writes). Every write
// turns the application's info into the 32-byte descriptor that include/tessera/shader_abi.h
// defines, at the binding's offset in the set's memory; a null handle (nullDescriptor) writes
// the null descriptor (all zeros).
#include <algorithm>
#include <cstring>

#include "descriptors.h"
#include "entrypoints.h"
#include "handles.h"
#include "resources.h"

namespace tessera {
namespace {

// Walks descriptors from (binding, arrayElement) on; past the end of a binding it continues at
// element 0 of the next binding of the layout, skipping bindings of zero elements, as the spec
// describes for updates of consecutive bindings. Inline uniform blocks never roll over.
class DescriptorCursor {
 public:
  DescriptorCursor(const DescriptorSet& set, uint32_t binding, uint32_t arrayElement)
      : set_(set), index_(set.layout->indexOf(binding)), element_(arrayElement) {
    settle();
  }
  bool valid() const { return index_ < set_.layout->bindingCount; }
  const DescriptorBinding& binding() const { return set_.layout->bindings[index_]; }
  uint32_t element() const { return element_; }
  uint8_t* address() const { return set_.memory + binding().offset + size_t(element_) * abi::kDescriptorSize; }
  void next() {
    ++element_;
    settle();
  }

 private:
  void settle() {
    while (valid() && element_ >= set_.countIn(index_)) {
      element_ -= set_.countIn(index_);
      ++index_;
    }
  }
  const DescriptorSet& set_;
  uint32_t index_;
  uint32_t element_;
};

abi::BufferDescriptor bufferDescriptor(const VkDescriptorBufferInfo& info) {
  const Buffer* b = fromHandle<Buffer>(info.buffer);
  if (!b || !b->data()) return {};
  const VkDeviceSize range = info.range == VK_WHOLE_SIZE ? b->size - info.offset : info.range;
  return {b->data() + info.offset, range, {}};
}

abi::ImageDescriptor imageDescriptor(const VkDescriptorImageInfo& info, VkDescriptorType type,
                                     const DescriptorBinding& binding, uint32_t element) {
  abi::ImageDescriptor d{};
  if (type != VK_DESCRIPTOR_TYPE_SAMPLER) {
    const ImageView* view = fromHandle<ImageView>(info.imageView);
    d.view = view ? &view->state : nullptr;
  }
  if (type == VK_DESCRIPTOR_TYPE_SAMPLER || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
    // Immutable samplers stay: the sampler of the update is ignored (spec: pImmutableSamplers).
    const Sampler* s = binding.immutableSamplers ? &binding.immutableSamplers[element] : fromHandle<Sampler>(info.sampler);
    d.sampler = s ? s->state() : nullptr;
  }
  return d;
}

void writeOne(uint8_t* dst, VkDescriptorType type, const DescriptorBinding& binding, uint32_t element,
              const uint8_t* info) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      // A sampler binding with immutable samplers is not updated (its writes are invalid usage).
      if (binding.immutableSamplers) return;
      [[fallthrough]];
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
      VkDescriptorImageInfo ii;
      std::memcpy(&ii, info, sizeof ii);
      const abi::ImageDescriptor d = imageDescriptor(ii, type, binding, element);
      std::memcpy(dst, &d, sizeof d);
      return;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
      VkDescriptorBufferInfo bi;
      std::memcpy(&bi, info, sizeof bi);
      const abi::BufferDescriptor d = bufferDescriptor(bi);
      std::memcpy(dst, &d, sizeof d);
      return;
    }
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
      VkBufferView handle;
      std::memcpy(&handle, info, sizeof handle);
      const BufferView* view = fromHandle<BufferView>(handle);
      const abi::TexelBufferDescriptor d = view ? view->descriptor : abi::TexelBufferDescriptor{};
      std::memcpy(dst, &d, sizeof d);
      return;
    }
    default:
      return;  // types of extensions Tessera does not support
  }
}

const VkWriteDescriptorSetInlineUniformBlock* inlineBlockOf(const VkWriteDescriptorSet& w) {
  for (auto* s = static_cast<const VkBaseInStructure*>(w.pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK)
      return reinterpret_cast<const VkWriteDescriptorSetInlineUniformBlock*>(s);
  return nullptr;
}

}  // namespace

void applyDescriptorWrite(DescriptorSet& set, const VkWriteDescriptorSet& w) {
  switch (w.descriptorType) {
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
      if (const auto* block = inlineBlockOf(w))
        writeInlineUniformBlock(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, block->pData);
      return;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      writeDescriptors(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, w.descriptorType, w.pImageInfo,
                       sizeof(VkDescriptorImageInfo));
      return;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      writeDescriptors(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, w.descriptorType, w.pBufferInfo,
                       sizeof(VkDescriptorBufferInfo));
      return;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      writeDescriptors(set, w.dstBinding, w.dstArrayElement, w.descriptorCount, w.descriptorType, w.pTexelBufferView,
                       sizeof(VkBufferView));
      return;
    default:
      return;
  }
}

void writeDescriptors(DescriptorSet& set, uint32_t binding, uint32_t arrayElement, uint32_t count,
                      VkDescriptorType type, const void* infos, size_t stride) {
  if (!count || !infos) return;
  const auto* info = static_cast<const uint8_t*>(infos);
  DescriptorCursor c(set, binding, arrayElement);
  for (uint32_t i = 0; i < count && c.valid(); ++i, c.next(), info += stride) {
    if (c.binding().isInline()) return;  // never the target of a rolled-over write
    writeOne(c.address(), type, c.binding(), c.element(), info);
  }
}

void writeInlineUniformBlock(DescriptorSet& set, uint32_t binding, uint32_t offset, uint32_t bytes, const void* data) {
  const uint32_t index = set.layout->indexOf(binding);
  if (index == set.layout->bindingCount || !set.layout->bindings[index].isInline()) return;
  const uint32_t size = set.countIn(index);
  if (offset >= size || !data) return;
  std::memcpy(set.memory + set.layout->bindings[index].offset + offset, data, std::min(bytes, size - offset));
}

void copyDescriptors(const VkCopyDescriptorSet& copy) {
  const DescriptorSet& src = *fromHandle<DescriptorSet>(copy.srcSet);
  DescriptorSet& dst = *fromHandle<DescriptorSet>(copy.dstSet);
  const DescriptorBinding* srcBinding = src.layout->find(copy.srcBinding);
  if (srcBinding && srcBinding->isInline()) {
    // Inline uniform blocks: array elements and count are bytes, within one binding each.
    const uint32_t srcIndex = src.layout->indexOf(copy.srcBinding);
    const uint32_t dstIndex = dst.layout->indexOf(copy.dstBinding);
    if (dstIndex == dst.layout->bindingCount || !dst.layout->bindings[dstIndex].isInline()) return;
    const uint32_t srcSize = src.countIn(srcIndex), dstSize = dst.countIn(dstIndex);
    if (copy.srcArrayElement >= srcSize || copy.dstArrayElement >= dstSize) return;
    const uint32_t n = std::min({copy.descriptorCount, srcSize - copy.srcArrayElement, dstSize - copy.dstArrayElement});
    std::memmove(dst.memory + dst.layout->bindings[dstIndex].offset + copy.dstArrayElement,
                 src.memory + srcBinding->offset + copy.srcArrayElement, n);
    return;
  }
  DescriptorCursor s(src, copy.srcBinding, copy.srcArrayElement);
  DescriptorCursor d(dst, copy.dstBinding, copy.dstArrayElement);
  for (uint32_t i = 0; i < copy.descriptorCount && s.valid() && d.valid(); ++i, s.next(), d.next()) {
    const DescriptorBinding& db = d.binding();
    if (db.isInline() || s.binding().isInline()) return;
    if (db.type == VK_DESCRIPTOR_TYPE_SAMPLER && db.immutableSamplers) continue;
    std::memmove(d.address(), s.address(), abi::kDescriptorSize);
    if (db.immutableSamplers) {  // the destination's immutable sampler stays
      auto* desc = reinterpret_cast<abi::ImageDescriptor*>(d.address());
      desc->sampler = db.immutableSamplers[d.element()].state();
    }
  }
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkUpdateDescriptorSets(VkDevice, uint32_t descriptorWriteCount,
                                                         const VkWriteDescriptorSet* pDescriptorWrites,
                                                         uint32_t descriptorCopyCount,
                                                         const VkCopyDescriptorSet* pDescriptorCopies) {
  for (uint32_t i = 0; i < descriptorWriteCount; ++i)
    applyDescriptorWrite(*fromHandle<DescriptorSet>(pDescriptorWrites[i].dstSet), pDescriptorWrites[i]);
  for (uint32_t i = 0; i < descriptorCopyCount; ++i) copyDescriptors(pDescriptorCopies[i]);
}

}  // extern "C"
