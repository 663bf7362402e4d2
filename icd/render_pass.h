// VkRenderPass and VkFramebuffer: the application's description, kept (render pass 1 create
// infos converted to their *2 form). cmd_render_pass.cpp begins instances of them.
#pragma once

#include <optional>
#include <vector>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct RenderPass {
  struct Subpass {
    VkSubpassDescriptionFlags flags = 0;
    VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    uint32_t viewMask = 0;
    std::vector<VkAttachmentReference2> inputs, colors, resolves;
    std::optional<VkAttachmentReference2> depthStencil;
    // VkSubpassDescriptionDepthStencilResolve.
    std::optional<VkAttachmentReference2> depthStencilResolve;
    VkResolveModeFlagBits depthResolveMode = VK_RESOLVE_MODE_NONE, stencilResolveMode = VK_RESOLVE_MODE_NONE;
    std::vector<uint32_t> preserve;
    // VkMultisampledRenderToSingleSampledInfoEXT with multisampledRenderToSingleSampledEnable:
    // its rasterizationSamples (single-sampled attachments are rendered through an implicit
    // multisampled image, cmd_render_pass.cpp); 0 when the subpass does not use it.
    uint32_t implicitSamples = 0;
  };
  std::vector<VkAttachmentDescription2> attachments;
  std::vector<Subpass> subpasses;
  std::vector<VkSubpassDependency2> dependencies;
  // Per attachment: the first subpass that uses it (as an input, colour, resolve or
  // depth/stencil attachment, or depth/stencil resolve), kUnused when none does. Load
  // operations happen there ("Render Pass Load Operations"), never for unused attachments.
  static constexpr uint32_t kUnused = ~0u;
  std::vector<uint32_t> firstUse;
  // Multiview ("Multiview": all subpasses have view masks or none): an attachment's load
  // operation happens for each view at the first subpass of that view that uses it.
  // loadViews[s][a]: the views whose first use of attachment a is subpass s; empty when the
  // render pass does not use multiview.
  std::vector<std::vector<uint32_t>> loadViews;
};

// Fills rp.firstUse from its subpasses (render_pass.cpp). May throw std::bad_alloc.
void computeFirstUses(RenderPass& rp);

struct ImageView;
struct Framebuffer {
  std::vector<ImageView*> attachments;  // empty for imageless framebuffers
  bool imageless = false;
  uint32_t width = 0, height = 0, layers = 0;
};

}  // namespace tessera
