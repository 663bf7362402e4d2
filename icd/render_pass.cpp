// vkCreateRenderPass(2), vkCreateFramebuffer and their destroy/query functions (the objects;
// render pass instances are cmd_render_pass.cpp's).
#include "render_pass.h"

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"

using namespace tessera;

namespace {

VkAttachmentReference2 reference(const VkAttachmentReference& r, VkImageAspectFlags aspects = 0) {
  return {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, r.attachment, r.layout, aspects};
}

template <typename T>
std::vector<T> copyOf(const T* items, uint32_t count) {
  return items ? std::vector<T>(items, items + count) : std::vector<T>{};
}

VkResult create(Device* dev, const VkAllocationCallbacks* pAllocator, RenderPass* filled, VkRenderPass* out) {
  auto* rp = hostNew<RenderPass>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!rp) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *rp = std::move(*filled);
  *out = toHandle<VkRenderPass>(rp);
  return VK_SUCCESS;
}

}  // namespace

void tessera::computeFirstUses(RenderPass& rp) {
  rp.firstUse.assign(rp.attachments.size(), RenderPass::kUnused);
  bool multiview = false;
  for (const RenderPass::Subpass& sp : rp.subpasses) multiview |= sp.viewMask != 0;
  rp.loadViews.assign(multiview ? rp.subpasses.size() : 0, std::vector<uint32_t>(rp.attachments.size(), 0));
  std::vector<uint32_t> viewsUsed(multiview ? rp.attachments.size() : 0, 0);
  auto use = [&](uint32_t subpass, uint32_t attachment) {
    if (attachment >= rp.firstUse.size()) return;  // VK_ATTACHMENT_UNUSED
    if (rp.firstUse[attachment] == RenderPass::kUnused) rp.firstUse[attachment] = subpass;
    if (!multiview) return;
    // "Multiview": the load operation of each view happens at that view's first use.
    const uint32_t viewMask = rp.subpasses[subpass].viewMask;
    rp.loadViews[subpass][attachment] |= viewMask & ~viewsUsed[attachment];
    viewsUsed[attachment] |= viewMask;
  };
  // Preserve attachments are not uses: they only keep contents across a subpass.
  for (uint32_t s = 0; s < rp.subpasses.size(); ++s) {
    const RenderPass::Subpass& sp = rp.subpasses[s];
    for (const auto& r : sp.inputs) use(s, r.attachment);
    for (const auto& r : sp.colors) use(s, r.attachment);
    for (const auto& r : sp.resolves) use(s, r.attachment);
    if (sp.depthStencil) use(s, sp.depthStencil->attachment);
    if (sp.depthStencilResolve) use(s, sp.depthStencilResolve->attachment);
  }
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateRenderPass2(VkDevice device, const VkRenderPassCreateInfo2* ci,
                                                          const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  RenderPass rp;
  try {
    rp.attachments = copyOf(ci->pAttachments, ci->attachmentCount);
    for (auto& a : rp.attachments) a.pNext = nullptr;
    for (uint32_t i = 0; i < ci->subpassCount; ++i) {
      const VkSubpassDescription2& s = ci->pSubpasses[i];
      RenderPass::Subpass sp;
      sp.flags = s.flags;
      sp.bindPoint = s.pipelineBindPoint;
      sp.viewMask = s.viewMask;
      sp.inputs = copyOf(s.pInputAttachments, s.inputAttachmentCount);
      sp.colors = copyOf(s.pColorAttachments, s.colorAttachmentCount);
      sp.resolves = copyOf(s.pResolveAttachments, s.pResolveAttachments ? s.colorAttachmentCount : 0);
      if (s.pDepthStencilAttachment) sp.depthStencil = *s.pDepthStencilAttachment;
      for (auto* e = static_cast<const VkBaseInStructure*>(s.pNext); e; e = e->pNext) {
        if (e->sType == VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT) {
          const auto* m = reinterpret_cast<const VkMultisampledRenderToSingleSampledInfoEXT*>(e);
          if (m->multisampledRenderToSingleSampledEnable && m->rasterizationSamples > VK_SAMPLE_COUNT_1_BIT)
            sp.implicitSamples = uint32_t(m->rasterizationSamples);
          continue;
        }
        if (e->sType != VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE) continue;
        const auto* r = reinterpret_cast<const VkSubpassDescriptionDepthStencilResolve*>(e);
        if (r->pDepthStencilResolveAttachment) sp.depthStencilResolve = *r->pDepthStencilResolveAttachment;
        sp.depthResolveMode = r->depthResolveMode;
        sp.stencilResolveMode = r->stencilResolveMode;
      }
      sp.preserve = copyOf(s.pPreserveAttachments, s.preserveAttachmentCount);
      rp.subpasses.push_back(std::move(sp));
    }
    rp.dependencies = copyOf(ci->pDependencies, ci->dependencyCount);
    computeFirstUses(rp);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return create(fromHandle<Device>(device), pAllocator, &rp, pRenderPass);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateRenderPass(VkDevice device, const VkRenderPassCreateInfo* ci,
                                                         const VkAllocationCallbacks* pAllocator, VkRenderPass* pRenderPass) {
  RenderPass rp;
  // VkRenderPassMultiviewCreateInfo: subpass i's view mask (render pass 2 has it in
  // VkSubpassDescription2); view offsets only qualify dependencies, which need no work here,
  // and correlation masks are hints.
  const VkRenderPassMultiviewCreateInfo* multiview = nullptr;
  for (auto* e = static_cast<const VkBaseInStructure*>(ci->pNext); e; e = e->pNext)
    if (e->sType == VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO)
      multiview = reinterpret_cast<const VkRenderPassMultiviewCreateInfo*>(e);
  try {
    for (uint32_t i = 0; i < ci->attachmentCount; ++i) {
      const VkAttachmentDescription& a = ci->pAttachments[i];
      rp.attachments.push_back({VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2, nullptr, a.flags, a.format, a.samples, a.loadOp,
                                a.storeOp, a.stencilLoadOp, a.stencilStoreOp, a.initialLayout, a.finalLayout});
    }
    for (uint32_t i = 0; i < ci->subpassCount; ++i) {
      const VkSubpassDescription& s = ci->pSubpasses[i];
      RenderPass::Subpass sp;
      sp.flags = s.flags;
      sp.bindPoint = s.pipelineBindPoint;
      if (multiview && i < multiview->subpassCount) sp.viewMask = multiview->pViewMasks[i];
      for (uint32_t k = 0; k < s.inputAttachmentCount; ++k) sp.inputs.push_back(reference(s.pInputAttachments[k]));
      for (uint32_t k = 0; k < s.colorAttachmentCount; ++k) sp.colors.push_back(reference(s.pColorAttachments[k]));
      if (s.pResolveAttachments)
        for (uint32_t k = 0; k < s.colorAttachmentCount; ++k) sp.resolves.push_back(reference(s.pResolveAttachments[k]));
      if (s.pDepthStencilAttachment) sp.depthStencil = reference(*s.pDepthStencilAttachment);
      sp.preserve = copyOf(s.pPreserveAttachments, s.preserveAttachmentCount);
      rp.subpasses.push_back(std::move(sp));
    }
    for (uint32_t i = 0; i < ci->dependencyCount; ++i) {
      const VkSubpassDependency& d = ci->pDependencies[i];
      rp.dependencies.push_back({VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2, nullptr, d.srcSubpass, d.dstSubpass, d.srcStageMask,
                                 d.dstStageMask, d.srcAccessMask, d.dstAccessMask, d.dependencyFlags, 0});
    }
    computeFirstUses(rp);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return create(fromHandle<Device>(device), pAllocator, &rp, pRenderPass);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyRenderPass(VkDevice device, VkRenderPass renderPass,
                                                      const VkAllocationCallbacks* pAllocator) {
  if (!renderPass) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<RenderPass>(renderPass));
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetRenderAreaGranularity(VkDevice, VkRenderPass, VkExtent2D* pGranularity) {
  *pGranularity = {1, 1};  // any render area is as good as any other on a CPU
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateFramebuffer(VkDevice device, const VkFramebufferCreateInfo* ci,
                                                          const VkAllocationCallbacks* pAllocator, VkFramebuffer* pFramebuffer) {
  Device* dev = fromHandle<Device>(device);
  auto* fb = hostNew<Framebuffer>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!fb) return VK_ERROR_OUT_OF_HOST_MEMORY;
  fb->imageless = (ci->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0;
  fb->width = ci->width;
  fb->height = ci->height;
  fb->layers = ci->layers;
  try {
    if (!fb->imageless)
      for (uint32_t i = 0; i < ci->attachmentCount; ++i) fb->attachments.push_back(fromHandle<ImageView>(ci->pAttachments[i]));
  } catch (const std::bad_alloc&) {
    hostDelete(pickAllocator(pAllocator, dev->allocator()), fb);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pFramebuffer = toHandle<VkFramebuffer>(fb);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyFramebuffer(VkDevice device, VkFramebuffer framebuffer,
                                                       const VkAllocationCallbacks* pAllocator) {
  if (!framebuffer) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<Framebuffer>(framebuffer));
}

}  // extern "C"
