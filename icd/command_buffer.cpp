#include "command_buffer.h"

#include "tessera/thread_pool.h"

#include <algorithm>
#include <cstddef>
#include <iterator>

#include "descriptors.h"
#include "device.h"
#include "queue.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "multiview.h"
#include "pipeline.h"

namespace tessera {

void* CommandArena::allocate(size_t size, size_t align) {
  if (head_) {
    size_t offset = (sizeof(Chunk) + head_->used + align - 1) & ~(align - 1);
    if (offset + size <= head_->size) {
      head_->used = offset + size - sizeof(Chunk);
      return reinterpret_cast<uint8_t*>(head_) + offset;
    }
  }
  size_t chunkSize = std::max<size_t>(16 * 1024, sizeof(Chunk) + size + align);
  auto* chunk = static_cast<Chunk*>(hostAlloc(allocator_, chunkSize, 64, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!chunk) return nullptr;
  chunk->next = head_;
  chunk->size = chunkSize;
  chunk->used = 0;
  head_ = chunk;
  return allocate(size, align);
}

void* CommandArena::allocateSeparate(size_t size) {
  constexpr size_t kAlign = 64;
  const size_t header = (sizeof(Chunk) + kAlign - 1) & ~(kAlign - 1);
  if (size > SIZE_MAX - header) return nullptr;
  auto* chunk = static_cast<Chunk*>(hostAlloc(allocator_, header + size, kAlign, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!chunk) return nullptr;
  chunk->size = header + size;
  chunk->used = chunk->size - sizeof(Chunk);  // full: allocate() never places records in it
  if (head_) {
    chunk->next = head_->next;
    head_->next = chunk;
  } else {
    chunk->next = nullptr;
    head_ = chunk;
  }
  return reinterpret_cast<uint8_t*>(chunk) + header;
}

void CommandArena::release() {
  while (head_) {
    Chunk* next = head_->next;
    hostFree(allocator_, head_);
    head_ = next;
  }
}

void CommandBuffer::reset() {
  arena.release();
  first = last = nullptr;
  compute = {};  // bound state does not survive a reset, nor is it inherited by secondaries
  graphics = {};
  graphicsState = {};
  passRecording = {};
  firstError = VK_SUCCESS;
  state = CommandBufferState::Initial;
}

const abi::BoundResources* CommandBuffer::snapshotResources(VkPipelineBindPoint bp) {
  BindPointState* s = bindPoint(bp);
  if (!s) return nullptr;
  if (!s->snapshot) {
    void* mem = arena.allocate(sizeof(ResourceSnapshot), alignof(ResourceSnapshot));
    if (!mem) {
      fail(VK_ERROR_OUT_OF_HOST_MEMORY);
      return nullptr;
    }
    auto* whole = new (mem) ResourceSnapshot{s->resources, {}, {}};
    std::copy(std::begin(s->setLayouts), std::end(s->setLayouts), whole->setLayouts);
    std::copy(std::begin(s->setBytes), std::end(s->setBytes), whole->setBytes);
    abi::BoundResources* snapshot = &whole->resources;
    // Dynamic offsets where the bound pipeline's layout numbers them (DynamicOffsetMap).
    if (s->pipeline) {
      const DynamicOffsetMap& m = s->pipeline->dynamicOffsets;
      for (uint32_t set = 0; set < abi::kMaxBoundSets; ++set)
        std::memcpy(&snapshot->dynamicOffsets[m.base[set]], s->setDynamicOffsets[set], sizeof(uint32_t) * m.count[set]);
    }
    // Kernels and the draw and dispatch loops stop when the device's work is cancelled.
    if (pool && pool->device) snapshot->cancel = pool->device->cancelWord();
    s->snapshot = snapshot;
  }
  return s->snapshot;
}

void CommandBuffer::execute(ExecContext& ctx) const {
  for (const RecordHeader* r = first; r; r = r->next) {
    if (!r->joinsScene) ctx.flushDraws();
    r->execute(r, ctx);
  }
  ctx.flushDraws();
}

void ExecContext::draw(const raster::DrawState& recorded, const raster::DrawCall& call) {
  // "Transform Feedback": a pipeline that captures writes into the execution's buffers while
  // capture (or a stream query) is active.
  raster::DrawState capturing;
  const bool feedback = recorded.feedbackLayout && feedbackFor();
  if (feedback) {
    capturing = recorded;
    capturing.feedback = feedbackFor();
  }
  const raster::DrawState* chosen = feedback ? &capturing : &recorded;
  // Multisampled render to single-sampled: a draw that reads input attachments reads the
  // subpass's implicit multisampled images (secondary command buffers' draws too).
  raster::DrawState redirected;
  if (targets.inputRedirectCount && chosen->fragment.readsInputAttachments && chosen->resources) {
    redirected = *chosen;
    redirected.resources = redirectInputs(*chosen->resources);
    chosen = &redirected;
  }
  const raster::DrawState& state = *chosen;
  if (!targets.viewMask) {
    drawOne(state, call);
    return;
  }
  // "Multiview": the draw is broadcast to each view of the mask, one after another; view v
  // renders into layer v of every attachment and its shaders read ViewIndex v from their
  // resources. Each view's draw has other attachment addresses, so a scene holds one view.
  multiview::forEachView(targets.viewMask, [&](uint32_t view) {
    raster::DrawState s = state;
    for (uint32_t i = 0; i < s.colorCount; ++i) s.color[i] = multiview::layerOf(state.color[i], view);
    s.depth = multiview::layerOf(state.depth, view);
    s.stencil = multiview::layerOf(state.stencil, view);
    abi::BoundResources& r = viewResources.emplace_back(state.resources ? *state.resources : abi::BoundResources{});
    r.viewIndex = view;
    s.resources = &r;
    drawOne(s, call);
  });
}

void ExecContext::drawOne(const raster::DrawState& state, const raster::DrawCall& call) {
  if (raster::defaultRasterPath() == raster::RasterPath::Reference) {
    raster::drawReference(state, call);
    return;
  }
  queueScene().add(state, call);
}

raster::Scene& ExecContext::queueScene() {
  if (!scene) {
    if (!queue->scene) queue->scene = std::make_unique<raster::Scene>(ThreadPool::shared());
    scene = queue->scene.get();
  }
  return *scene;
}

bool ExecContext::regionsJoinScene() const { return raster::defaultRasterPath() == raster::RasterPath::Binned; }

void ExecContext::clear(const raster::ClearRegion& region) { queueScene().addClear(region, targets.renderArea); }

void ExecContext::resolve(const raster::ResolveRegion& region) { queueScene().addResolve(region, targets.renderArea); }

void ExecContext::flushDraws() {
  if (scene) {
    // Clears no draw followed: the whole rectangles at once, in parallel bands with streaming
    // stores (per tile, a clear costs more and no drawing profits from the cache).
    if (scene->onlyClears()) {
      for (const raster::ClearRegion& c : scene->takeClears()) fillAttachmentRect(c.target, c.texel, c.rect, 0);
    } else {
      scene->flush();
    }
  }
  viewResources.clear();  // no draw in flight points at them any more
  redirectedSets.clear();
  redirectedViews.clear();
}

const abi::BoundResources* ExecContext::redirectInputs(const abi::BoundResources& resources) {
  // Every resources pointer a draw records starts a ResourceSnapshot (snapshotResources).
  static_assert(offsetof(ResourceSnapshot, resources) == 0);
  const auto& snapshot = reinterpret_cast<const ResourceSnapshot&>(resources);
  // The view state a descriptor's view is read through instead: the implicit image in the
  // shape of the attachment's view (its format, aspect and swizzle), multisampled.
  auto redirected = [&](const abi::ImageViewState* v) -> const abi::ImageViewState* {
    if (!v || v->levelCount == 0) return nullptr;
    for (uint32_t i = 0; i < targets.inputRedirectCount; ++i) {
      const InputRedirect& d = targets.inputRedirects[i];
      if (d.base != v->levels[0].base || d.aspect != v->aspect) continue;
      abi::ImageViewState& s = redirectedViews.emplace_back(*v);
      s.samples = d.ms.samples;
      s.levelCount = 1;
      s.layerCount = std::min(v->layerCount, d.ms.layerCount);
      s.fastSampling = 0;
      s.decoded = nullptr;
      abi::ImageLevel& l = s.levels[0];
      l.base = d.ms.base;
      // The implicit image covers the pixels up to the render area's far corner.
      l.width = uint32_t(std::min<uint64_t>(l.width, d.ms.rowPitch / (uint64_t(d.ms.samples) * d.ms.texelSize)));
      l.height = uint32_t(std::min<uint64_t>(l.height, d.ms.layerPitch / d.ms.rowPitch));
      l.rowPitch = d.ms.rowPitch;
      l.layerPitch = d.ms.layerPitch;
      l.slicePitch = d.ms.layerPitch;
      return &s;
    }
    return nullptr;
  };
  abi::BoundResources* out = nullptr;
  for (uint32_t set = 0; set < abi::kMaxBoundSets; ++set) {
    const DescriptorSetLayout* layout = snapshot.setLayouts[set];
    const uint32_t bytes = snapshot.setBytes[set];
    if (!layout || !resources.sets[set]) continue;
    uint8_t* copy = nullptr;
    for (uint32_t b = 0; b < layout->bindingCount; ++b) {
      const DescriptorBinding& binding = layout->bindings[b];
      if (binding.type != VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) continue;
      for (uint32_t e = 0; e < binding.count; ++e) {
        const uint64_t at = binding.offset + uint64_t(e) * abi::kDescriptorSize;
        if (at + abi::kDescriptorSize > bytes) break;  // past a variable count's end
        abi::ImageDescriptor desc;
        std::memcpy(&desc, (copy ? copy : resources.sets[set]) + at, sizeof desc);
        const abi::ImageViewState* s = redirected(desc.view);
        if (!s) continue;
        // The set is copied on its first redirected descriptor: the application's set stays
        // as it is. An allocation failure throws std::bad_alloc, which loses the device.
        if (!copy) {
          copy = redirectedSets.emplace_back(std::make_unique<uint8_t[]>(bytes)).get();
          std::memcpy(copy, resources.sets[set], bytes);
          if (!out) out = &viewResources.emplace_back(resources);
          out->sets[set] = copy;
        }
        desc.view = s;
        std::memcpy(copy + at, &desc, sizeof desc);
      }
    }
  }
  return out ? out : &resources;
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo* pCreateInfo,
                                                          const VkAllocationCallbacks* pAllocator,
                                                          VkCommandPool* pPool) {
  Device* dev = fromHandle<Device>(device);
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, dev->allocator());
  CommandPool* pool = hostNew<CommandPool>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (a) {
    pool->allocatorStorage = *a;
    pool->allocator = &pool->allocatorStorage;
  }
  pool->flags = pCreateInfo->flags;
  pool->device = dev;
  *pPool = toHandle<VkCommandPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyCommandPool(VkDevice device, VkCommandPool commandPool,
                                                       const VkAllocationCallbacks* pAllocator) {
  if (!commandPool) return;
  Device* dev = fromHandle<Device>(device);
  CommandPool* pool = fromHandle<CommandPool>(commandPool);
  for (CommandBuffer* cb : pool->buffers) hostDelete(pool->allocator, cb);
  hostDelete(pickAllocator(pAllocator, dev->allocator()), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkResetCommandPool(VkDevice, VkCommandPool commandPool, VkCommandPoolResetFlags) {
  for (CommandBuffer* cb : fromHandle<CommandPool>(commandPool)->buffers) cb->reset();
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkTrimCommandPool(VkDevice, VkCommandPool, VkCommandPoolTrimFlags) {
  // Command buffers give their arenas back on reset; a pool keeps nothing else to trim.
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkAllocateCommandBuffers(VkDevice device, const VkCommandBufferAllocateInfo* pInfo,
                                                               VkCommandBuffer* pCommandBuffers) {
  CommandPool* pool = fromHandle<CommandPool>(pInfo->commandPool);
  uint32_t made = 0;
  for (; made < pInfo->commandBufferCount; ++made) {
    auto* cb = hostNew<CommandBuffer>(pool->allocator, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT, pool, pInfo->level,
                                      pool->allocator);
    if (!cb) break;
    try {
      pool->buffers.push_back(cb);
    } catch (const std::bad_alloc&) {
      hostDelete(pool->allocator, cb);
      break;
    }
    pCommandBuffers[made] = toHandle<VkCommandBuffer>(cb);
  }
  if (made == pInfo->commandBufferCount) return VK_SUCCESS;
  // Spec: on failure every command buffer made here is freed and all handles are NULL.
  for (uint32_t i = 0; i < made; ++i) {
    CommandBuffer* cb = fromHandle<CommandBuffer>(pCommandBuffers[i]);
    std::erase(pool->buffers, cb);
    hostDelete(pool->allocator, cb);
  }
  for (uint32_t i = 0; i < pInfo->commandBufferCount; ++i) pCommandBuffers[i] = VK_NULL_HANDLE;
  return VK_ERROR_OUT_OF_HOST_MEMORY;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkFreeCommandBuffers(VkDevice, VkCommandPool commandPool, uint32_t count,
                                                       const VkCommandBuffer* pCommandBuffers) {
  CommandPool* pool = fromHandle<CommandPool>(commandPool);
  for (uint32_t i = 0; i < count; ++i) {
    if (!pCommandBuffers[i]) continue;
    CommandBuffer* cb = fromHandle<CommandBuffer>(pCommandBuffers[i]);
    std::erase(pool->buffers, cb);
    hostDelete(pool->allocator, cb);
  }
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkBeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                           const VkCommandBufferBeginInfo* pBeginInfo) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  cb->reset();  // implicit reset (the pool allows it, or the buffer is in the initial state)
  cb->usage = pBeginInfo->flags;
  cb->state = CommandBufferState::Recording;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEndCommandBuffer(VkCommandBuffer commandBuffer) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  cb->state = cb->firstError == VK_SUCCESS ? CommandBufferState::Executable : CommandBufferState::Invalid;
  return cb->firstError;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags) {
  fromHandle<CommandBuffer>(commandBuffer)->reset();
  return VK_SUCCESS;
}

}  // extern "C"
