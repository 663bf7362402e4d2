// Graphics pipeline libraries: the deep copy of a library's parts and the assembly of a linked
// pipeline's complete create info (see graphics_pipeline_library.h). The parts and what belongs
// to each follow the spec's "Graphics Pipeline Libraries" section.
#include "graphics_pipeline_library.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <string>

#include "handles.h"
#include "pipeline.h"
#include "pipeline_layout.h"
#include "render_pass.h"
#include "shader_stage.h"

namespace tessera {
namespace {

constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInput = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRaster = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragment = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentOutput = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

bool hasDynamic(const VkGraphicsPipelineCreateInfo& info, VkDynamicState state) {
  if (!info.pDynamicState) return false;
  const auto* d = info.pDynamicState;
  return std::find(d->pDynamicStates, d->pDynamicStates + d->dynamicStateCount, state) != d->pDynamicStates + d->dynamicStateCount;
}

// The structs a part's state may chain that pipeline creation reads (graphics_pipeline.cpp),
// with their sizes; others are dropped from the copy.
size_t knownChainStructSize(VkStructureType type) {
  switch (type) {
    case VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT:
      return sizeof(VkPipelineVertexInputDivisorStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO:
      return sizeof(VkPipelineTessellationDomainOriginStateCreateInfo);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT:
      return sizeof(VkPipelineRasterizationDepthClipStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT:
      return sizeof(VkPipelineRasterizationLineStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT:
      return sizeof(VkPipelineRasterizationProvokingVertexStateCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT:
      return sizeof(VkPipelineRasterizationStateStreamCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT:
      return sizeof(VkPipelineViewportDepthClipControlCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT:
      return sizeof(VkPipelineColorWriteCreateInfoEXT);
    case VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT:
      return sizeof(VkPipelineSampleLocationsStateCreateInfoEXT);
    default:
      return 0;
  }
}

// The rendering formats and view mask a render pass's subpass amounts to. Only whether colour
// and depth/stencil attachments exist is read by pipeline creation; the formats are the
// attachments' own.
VkPipelineRenderingCreateInfo subpassRendering(const RenderPass& rp, uint32_t subpass, std::vector<VkFormat>& colors) {
  VkPipelineRenderingCreateInfo r{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  if (subpass >= rp.subpasses.size()) return r;
  const RenderPass::Subpass& sp = rp.subpasses[subpass];
  r.viewMask = sp.viewMask;
  auto format = [&](uint32_t a) { return a < rp.attachments.size() ? rp.attachments[a].format : VK_FORMAT_UNDEFINED; };
  for (const VkAttachmentReference2& c : sp.colors) colors.push_back(format(c.attachment));
  if (sp.depthStencil && sp.depthStencil->attachment != VK_ATTACHMENT_UNUSED) {
    const VkFormat f = format(sp.depthStencil->attachment);
    // A depth/stencil format counts for both; pipeline creation only asks whether one exists.
    r.depthAttachmentFormat = r.stencilAttachmentFormat = f;
  }
  return r;
}

}  // namespace

VkGraphicsPipelineLibraryFlagsEXT ownGraphicsParts(const VkGraphicsPipelineCreateInfo& info) {
  if (const auto* gpl = findInChain<VkGraphicsPipelineLibraryCreateInfoEXT>(
          info.pNext, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT))
    return gpl->flags & kAllGraphicsParts;
  const VkPipelineLibraryCreateInfoKHR* libs = linkedLibraries(info);
  const bool partial = (info.flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) || (libs && libs->libraryCount > 0);
  return partial ? 0 : kAllGraphicsParts;
}

const VkPipelineLibraryCreateInfoKHR* linkedLibraries(const VkGraphicsPipelineCreateInfo& info) {
  const auto* libs = findInChain<VkPipelineLibraryCreateInfoKHR>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
  return libs && libs->libraryCount > 0 ? libs : nullptr;
}

template <typename T>
T* GraphicsLibraryState::copy(const T* src, size_t count) {
  if (!src || count == 0) return nullptr;
  auto block = std::make_unique<uint8_t[]>(sizeof(T) * count);
  std::memcpy(block.get(), src, sizeof(T) * count);
  T* out = reinterpret_cast<T*>(block.get());
  blocks_.push_back(std::move(block));
  return out;
}

const void* GraphicsLibraryState::copyChain(const void* pNext) {
  const void* head = nullptr;
  VkBaseOutStructure* tail = nullptr;
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext) {
    const size_t size = knownChainStructSize(s->sType);
    if (!size) continue;
    auto* c = reinterpret_cast<VkBaseOutStructure*>(copy(reinterpret_cast<const uint8_t*>(s), size));
    c->pNext = nullptr;
    // The arrays they point to.
    if (c->sType == VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT) {
      auto* d = reinterpret_cast<VkPipelineVertexInputDivisorStateCreateInfoEXT*>(c);
      d->pVertexBindingDivisors = copy(d->pVertexBindingDivisors, d->vertexBindingDivisorCount);
    } else if (c->sType == VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT) {
      auto* w = reinterpret_cast<VkPipelineColorWriteCreateInfoEXT*>(c);
      w->pColorWriteEnables = copy(w->pColorWriteEnables, w->attachmentCount);
    } else if (c->sType == VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT) {
      VkSampleLocationsInfoEXT& l = reinterpret_cast<VkPipelineSampleLocationsStateCreateInfoEXT*>(c)->sampleLocationsInfo;
      l.pNext = nullptr;
      l.pSampleLocations = copy(l.pSampleLocations, l.sampleLocationsCount);
    }
    if (tail) tail->pNext = c; else head = c;
    tail = c;
  }
  return head;
}

void GraphicsLibraryState::copyStage(const VkPipelineShaderStageCreateInfo& src, VkPipelineShaderStageCreateInfo& dst) {
  // The SPIR-V travels inline: the module may be destroyed as soon as creation returns.
  const StageSource source = stageSource(src);
  VkShaderModuleCreateInfo module{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module.codeSize = source.code.size() * 4;
  module.pCode = copy(source.code.data(), source.code.size());
  // A required subgroup size (the fragment stage's SIMD width) travels with the stage.
  if (const auto* size = findInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          src.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)) {
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo* c = copy(size);
    c->pNext = nullptr;
    module.pNext = c;
  }
  dst = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, copy(&module), src.flags, src.stage, VK_NULL_HANDLE};
  const std::string name(source.entryPoint);
  dst.pName = copy(name.c_str(), name.size() + 1);
  if (const VkSpecializationInfo* si = src.pSpecializationInfo) {
    VkSpecializationInfo* s = copy(si);
    s->pMapEntries = copy(si->pMapEntries, si->mapEntryCount);
    s->pData = copy(static_cast<const uint8_t*>(si->pData), si->dataSize);
    dst.pSpecializationInfo = s;
  }
}

GraphicsLibraryState::GraphicsLibraryState(const VkGraphicsPipelineCreateInfo& src, VkGraphicsPipelineLibraryFlagsEXT parts_,
                                           VkShaderStageFlags inheritedViewIndexStages)
    : parts(parts_ & kAllGraphicsParts), viewIndexFromDeviceIndexStages(inheritedViewIndexStages) {
  info.flags = src.flags;
  if (const VkPipelineDynamicStateCreateInfo* d = src.pDynamicState)
    for (uint32_t i = 0; i < d->dynamicStateCount; ++i)
      if (dynamicStateParts(d->pDynamicStates[i]) & parts) dynamicStates.push_back(d->pDynamicStates[i]);

  // Rendering formats: "Graphics Pipeline Libraries" gives the render pass (or, without one,
  // VkPipelineRenderingCreateInfo) to the pre-rasterization, fragment shader and fragment
  // output parts.
  std::vector<VkFormat> colorFormats;
  if (parts & (kPreRaster | kFragment | kFragmentOutput)) {
    if (src.renderPass) {
      rendering = subpassRendering(*fromHandle<RenderPass>(src.renderPass), src.subpass, colorFormats);
      hasRendering = true;
    } else if (const auto* r = findInChain<VkPipelineRenderingCreateInfo>(src.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO)) {
      rendering = *r;
      rendering.pNext = nullptr;
      if (r->pColorAttachmentFormats) colorFormats.assign(r->pColorAttachmentFormats, r->pColorAttachmentFormats + r->colorAttachmentCount);
      else colorFormats.assign(r->colorAttachmentCount, VK_FORMAT_UNDEFINED);
      hasRendering = true;
    }
    rendering.colorAttachmentCount = uint32_t(colorFormats.size());
    rendering.pColorAttachmentFormats = copy(colorFormats.data(), colorFormats.size());
  }

  if (parts & kVertexInput) {
    // Ignored when the vertex input is dynamic (VK_EXT_vertex_input_dynamic_state).
    if (const auto* vi = hasDynamic(src, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) ? nullptr : src.pVertexInputState) {
      auto* c = copy(vi);
      c->pNext = copyChain(vi->pNext);
      c->pVertexBindingDescriptions = copy(vi->pVertexBindingDescriptions, vi->vertexBindingDescriptionCount);
      c->pVertexAttributeDescriptions = copy(vi->pVertexAttributeDescriptions, vi->vertexAttributeDescriptionCount);
      info.pVertexInputState = c;
    }
    if (const auto* ia = src.pInputAssemblyState) {
      auto* c = copy(ia);
      c->pNext = nullptr;
      info.pInputAssemblyState = c;
    }
  }

  bool discardStatic = false;
  if (parts & kPreRaster) {
    if (const auto* rs = src.pRasterizationState) {
      auto* c = copy(rs);
      c->pNext = copyChain(rs->pNext);
      info.pRasterizationState = c;
      discardStatic = rs->rasterizerDiscardEnable && !hasDynamic(src, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
    }
    // Rasterization disabled statically: the viewport state is ignored ("VkGraphicsPipelineCreateInfo").
    if (const auto* vp = discardStatic ? nullptr : src.pViewportState) {
      auto* c = copy(vp);
      c->pNext = copyChain(vp->pNext);
      c->pViewports = copy(vp->pViewports, vp->viewportCount);
      c->pScissors = copy(vp->pScissors, vp->scissorCount);
      info.pViewportState = c;
    }
  }
  bool tessellation = false;
  for (uint32_t i = 0; i < src.stageCount; ++i) {
    const VkShaderStageFlagBits stage = src.pStages[i].stage;
    const VkGraphicsPipelineLibraryFlagsEXT part = stage == VK_SHADER_STAGE_FRAGMENT_BIT ? kFragment : kPreRaster;
    if (!(parts & part)) continue;
    tessellation |= stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT || stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    if (src.flags & VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT) viewIndexFromDeviceIndexStages |= stage;
    copyStage(src.pStages[i], stages_.emplace_back());
  }
  info.stageCount = uint32_t(stages_.size());
  info.pStages = stages_.data();
  if ((parts & kPreRaster) && tessellation && src.pTessellationState) {
    auto* c = copy(src.pTessellationState);
    c->pNext = copyChain(src.pTessellationState->pNext);
    info.pTessellationState = c;
  }

  if (parts & kFragment) {
    if (const auto* ds = src.pDepthStencilState) {
      auto* c = copy(ds);
      c->pNext = nullptr;
      info.pDepthStencilState = c;
    }
  }
  // The multisample state belongs to the fragment shader part (sample shading) and to the
  // fragment output part; a linked pipeline takes the fragment output's (LinkedCreateInfo).
  if ((parts & (kFragment | kFragmentOutput)) && src.pMultisampleState) {
    const auto* ms = src.pMultisampleState;
    auto* c = copy(ms);
    c->pNext = copyChain(ms->pNext);  // VkPipelineSampleLocationsStateCreateInfoEXT
    c->pSampleMask = copy(ms->pSampleMask, (uint32_t(ms->rasterizationSamples) + 31) / 32);
    info.pMultisampleState = c;
  }
  if (parts & kFragmentOutput) {
    // No colour attachment: the colour blend state is ignored. So are its attachments when their
    // blend enable, equation and write mask are dynamic (VK_EXT_extended_dynamic_state3), and
    // the whole state when the logic op, its enable and the blend constants are too.
    const bool hasColor = rendering.colorAttachmentCount > 0;
    const bool attachmentsIgnored = hasDynamic(src, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) &&
                                    hasDynamic(src, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT) &&
                                    hasDynamic(src, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
    const bool blendIgnored = attachmentsIgnored && hasDynamic(src, VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT) &&
                              hasDynamic(src, VK_DYNAMIC_STATE_LOGIC_OP_EXT) && hasDynamic(src, VK_DYNAMIC_STATE_BLEND_CONSTANTS);
    if (const auto* cb = hasColor && !blendIgnored ? src.pColorBlendState : nullptr) {
      auto* c = copy(cb);
      c->pNext = copyChain(cb->pNext);
      c->pAttachments = attachmentsIgnored ? nullptr : copy(cb->pAttachments, cb->attachmentCount);
      info.pColorBlendState = c;
    }
  }
  if ((parts & (kPreRaster | kFragment)) && src.layout) {
    const PipelineLayout* l = fromHandle<PipelineLayout>(src.layout);
    layout = unitePipelineLayouts(nullptr, {&l, 1});
    if (!layout) throw std::bad_alloc();
  }
}

GraphicsLibraryState::~GraphicsLibraryState() { destroyPipelineLayout(nullptr, layout); }

LinkedCreateInfo::LinkedCreateInfo(const VkGraphicsPipelineCreateInfo& link) {
  own_ = std::make_unique<GraphicsLibraryState>(link, ownGraphicsParts(link));
  std::vector<const GraphicsLibraryState*> sources{own_.get()};
  if (const VkPipelineLibraryCreateInfoKHR* libs = linkedLibraries(link))
    for (uint32_t i = 0; i < libs->libraryCount; ++i)
      if (const Pipeline* p = fromHandle<Pipeline>(libs->pLibraries[i]); p && p->library) sources.push_back(p->library.get());

  info.flags = link.flags & ~VkPipelineCreateFlags(VK_PIPELINE_CREATE_LIBRARY_BIT_KHR | VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT);
  const GraphicsLibraryState* multisampleFrom = nullptr;
  const GraphicsLibraryState* renderingFrom = nullptr;
  std::vector<const PipelineLayout*> layouts;
  // Without link-time optimization each stage is compiled as its library compiled it
  // (StageKnowledge): the vertex stage fetches its attributes itself only if its library held
  // the vertex input, the fragment stage writes its attachments itself as the fragment output
  // interface says only if its library held that.
  const bool optimize = (link.flags & VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT) != 0;
  for (const GraphicsLibraryState* s : sources) {
    parts |= s->parts;
    if (!optimize && s != own_.get()) {
      const StageKnowledge k = knowledgeOf(s->parts);
      for (uint32_t i = 0; i < s->info.stageCount; ++i) {
        if (s->info.pStages[i].stage == VK_SHADER_STAGE_VERTEX_BIT) knowledge.vertexInput = k.vertexInput;
        if (s->info.pStages[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT) knowledge.fragmentOutput = k.fragmentOutput;
      }
    }
    const VkGraphicsPipelineCreateInfo& i = s->info;
    if (s->parts & kVertexInput) {
      info.pVertexInputState = i.pVertexInputState;
      info.pInputAssemblyState = i.pInputAssemblyState;
    }
    if (s->parts & kPreRaster) {
      info.pViewportState = i.pViewportState;
      info.pRasterizationState = i.pRasterizationState;
      info.pTessellationState = i.pTessellationState;
    }
    if (s->parts & kFragment) info.pDepthStencilState = i.pDepthStencilState;
    if (s->parts & kFragmentOutput) info.pColorBlendState = i.pColorBlendState;
    // Fragment output's multisample state first, else the fragment shader's.
    if (i.pMultisampleState && (!multisampleFrom || ((s->parts & kFragmentOutput) && !(multisampleFrom->parts & kFragmentOutput))))
      multisampleFrom = s;
    // Rendering formats: the fragment output part's describe the attachments.
    if (s->hasRendering && (!renderingFrom || ((s->parts & kFragmentOutput) && !(renderingFrom->parts & kFragmentOutput))))
      renderingFrom = s;
    stages_.insert(stages_.end(), i.pStages, i.pStages + i.stageCount);
    viewIndexFromDeviceIndexStages |= s->viewIndexFromDeviceIndexStages;
    for (VkDynamicState d : s->dynamicStates)
      if (std::find(dynamicStates_.begin(), dynamicStates_.end(), d) == dynamicStates_.end()) dynamicStates_.push_back(d);
    layouts.push_back(s->layout);
  }
  if (multisampleFrom) info.pMultisampleState = multisampleFrom->info.pMultisampleState;
  if (renderingFrom) {
    rendering_ = renderingFrom->rendering;
    info.pNext = &rendering_;
  }
  info.stageCount = uint32_t(stages_.size());
  info.pStages = stages_.data();
  if (!dynamicStates_.empty()) {
    dynamic_.dynamicStateCount = uint32_t(dynamicStates_.size());
    dynamic_.pDynamicStates = dynamicStates_.data();
    info.pDynamicState = &dynamic_;
  }
  // "Pipeline Layouts": a linked pipeline's layout is the union of its libraries' (with
  // independent sets each may hold only its own sets), which a complete layout in the create
  // info equals.
  if (link.layout) layouts.insert(layouts.begin(), fromHandle<PipelineLayout>(link.layout));
  layout_ = unitePipelineLayouts(nullptr, layouts);
  if (!layout_) throw std::bad_alloc();
  info.layout = toHandle<VkPipelineLayout>(layout_);
}

LinkedCreateInfo::~LinkedCreateInfo() { destroyPipelineLayout(nullptr, layout_); }

}  // namespace tessera
