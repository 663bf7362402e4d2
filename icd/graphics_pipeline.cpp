// vkCreateGraphicsPipelines: compiles the vertex, tessellation, geometry and fragment stages (spirv_jit) and turns the
// fixed-function create infos into the draw loop's state (raster::DrawState). State the
// pipeline declares dynamic is left for the command buffer to supply at draw time.
#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "depth_bias_control.h"
#include "device.h"
#include "entrypoints.h"
#include "graphics_pipeline_library.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "sample_locations.h"
#include "pipeline.h"
#include "pipeline_cache_store.h"
#include "pipeline_layout.h"
#include "render_pass.h"
#include "shader_stage.h"
#include "tessera/cpu_info.h"
#include "tessera/thread_pool.h"

namespace tessera {
namespace {

// How the pipeline's stages were found: stageHit[i] for pStages[i].
struct StageOutcome {
  bool stageHit[5] = {};
  bool compileRequired = false;
};

// The JIT's request for a stage (its spans point into `src`, which must outlive it).
jit::GraphicsCompileRequest stageRequest(Device* dev, const VkPipelineShaderStageCreateInfo& stage, const StageSource& src,
                                         const PipelineLayout* layout, const uint32_t* colorBlend, uint32_t colorSamples,
                                         const VkPipelineVertexInputStateCreateInfo* vertexInput,
                                         bool viewIndexFromDeviceIndex) {
  jit::GraphicsCompileRequest req;
  req.stage = stage.stage == VK_SHADER_STAGE_VERTEX_BIT                    ? jit::GraphicsStage::Vertex
              : stage.stage == VK_SHADER_STAGE_GEOMETRY_BIT                ? jit::GraphicsStage::Geometry
              : stage.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT    ? jit::GraphicsStage::TessControl
              : stage.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT ? jit::GraphicsStage::TessEval
                                                                           : jit::GraphicsStage::Fragment;
  req.spirv = src.code;
  req.entryPoint = src.entryPoint;
  req.specialization = src.specialization;
  req.specializationData = src.specializationData;
  req.specializationDataSize = src.specializationDataSize;
  req.interface = shaderInterface(*dev->physical, layout);
  req.interface.viewIndexFromDeviceIndex = viewIndexFromDeviceIndex;
  if (req.stage == jit::GraphicsStage::Fragment) {
    std::copy(colorBlend, colorBlend + abi::kMaxColorAttachments, req.interface.colorBlend);
    req.interface.colorSamples = colorSamples;
    req.interface.simdWidth = fragmentStageSimdWidth(*dev->physical, stage, src.code, wideFragmentSimdWidth());
  }
  if (req.stage == jit::GraphicsStage::Vertex && vertexInput) {
    // The kernel fetches the attributes it can decode itself (GraphicsFacts::fetchedLocations).
    jit::ShaderInterface& in = req.interface;
    for (uint32_t i = 0; i < vertexInput->vertexBindingDescriptionCount; ++i) {
      const VkVertexInputBindingDescription& b = vertexInput->pVertexBindingDescriptions[i];
      if (b.binding >= raster::kMaxVertexBindings) continue;
      if (in.vertexBindings.size() <= b.binding) in.vertexBindings.resize(b.binding + 1);
      in.vertexBindings[b.binding].perInstance = b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE;
    }
    if (const auto* d = findInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
            vertexInput->pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT))
      for (uint32_t i = 0; i < d->vertexBindingDivisorCount; ++i)
        if (d->pVertexBindingDivisors[i].binding < in.vertexBindings.size())
          in.vertexBindings[d->pVertexBindingDivisors[i].binding].divisor = d->pVertexBindingDivisors[i].divisor;
    for (uint32_t i = 0; i < vertexInput->vertexAttributeDescriptionCount && i < raster::kMaxVertexAttributes; ++i) {
      const VkVertexInputAttributeDescription& a = vertexInput->pVertexAttributeDescriptions[i];
      in.vertexAttributes.push_back({a.location, a.binding, a.offset, uint32_t(a.format)});
    }
  }
  return req;
}

std::shared_ptr<const jit::GraphicsProgram> compileStage(Device* dev, const VkPipelineShaderStageCreateInfo& stage,
                                                         const PipelineLayout* layout, PipelineCacheStore* cache,
                                                         const uint32_t* colorBlend, uint32_t colorSamples,
                                                         const VkPipelineVertexInputStateCreateInfo* vertexInput,
                                                         bool viewIndexFromDeviceIndex, bool cacheOnly, bool* hit,
                                                         bool* compileRequired, std::string* message) {
  const StageSource src = stageSource(stage);
  jit::GraphicsCompileRequest req =
      stageRequest(dev, stage, src, layout, colorBlend, colorSamples, vertexInput, viewIndexFromDeviceIndex);
  req.external = cache;
  req.cacheOnly = cacheOnly;
  jit::GraphicsCompileResult r = jit::compileGraphicsStage(req);
  if (r.status != jit::CompileStatus::Success) *message = r.message;
  *hit = r.cacheHit;
  *compileRequired = r.status == jit::CompileStatus::CompileRequired;
  return r.program;
}

raster::StencilFace stencilFace(const VkStencilOpState& s) {
  raster::StencilFace f;
  f.failOp = s.failOp;
  f.passOp = s.passOp;
  f.depthFailOp = s.depthFailOp;
  f.compareOp = s.compareOp;
  f.compareMask = s.compareMask;
  f.writeMask = s.writeMask;
  f.reference = s.reference;
  return f;
}

// Pointers the spec says are ignored must not be read ("VkGraphicsPipelineCreateInfo":
// rasterization disabled statically ignores the viewport, multisample, depth/stencil and
// colour blend states; no depth/stencil or colour attachment ignores those states).
struct ReadableStates {
  bool discardStatic = false, hasDepthStencil = true, hasColor = true;
  // VK_EXT_extended_dynamic_state3: pColorBlendState is ignored when every state it holds is
  // dynamic, and its pAttachments when the blend enable, equation and write mask are.
  bool colorBlendIgnored = false, blendAttachmentsIgnored = false;
  // And pMultisampleState when its rasterization samples, sample mask, alpha to coverage and
  // alpha to one are (the spec's condition for alpha to one is weaker: without the alphaToOne
  // feature the pointer may be NULL, which is checked wherever it is read).
  bool multisampleIgnored = false;
};
ReadableStates readableStates(const VkGraphicsPipelineCreateInfo& info, const GraphicsPipelineState& g) {
  ReadableStates r;
  r.blendAttachmentsIgnored = g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) &&
                              g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT) &&
                              g.isDynamic(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
  r.colorBlendIgnored = r.blendAttachmentsIgnored && g.isDynamic(VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT) &&
                        g.isDynamic(VK_DYNAMIC_STATE_LOGIC_OP_EXT) && g.isDynamic(VK_DYNAMIC_STATE_BLEND_CONSTANTS);
  r.multisampleIgnored = g.isDynamic(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT) && g.isDynamic(VK_DYNAMIC_STATE_SAMPLE_MASK_EXT) &&
                         g.isDynamic(VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT) &&
                         g.isDynamic(VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT);
  const bool discard = info.pRasterizationState && info.pRasterizationState->rasterizerDiscardEnable;
  r.discardStatic = discard && !g.isDynamic(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);
  if (auto* rendering = findInChain<VkPipelineRenderingCreateInfo>(info.pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
      rendering && !info.renderPass) {
    r.hasDepthStencil = rendering->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
                        rendering->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
    r.hasColor = rendering->colorAttachmentCount > 0;
  } else if (!info.renderPass) {
    r.hasDepthStencil = r.hasColor = false;  // dynamic rendering without formats: no attachments
  } else {
    const RenderPass* rp = fromHandle<RenderPass>(info.renderPass);
    if (info.subpass < rp->subpasses.size()) {
      const RenderPass::Subpass& sp = rp->subpasses[info.subpass];
      r.hasDepthStencil = sp.depthStencil && sp.depthStencil->attachment != VK_ATTACHMENT_UNUSED;
      r.hasColor = !sp.colors.empty();
    }
  }
  return r;
}

// The colour attachments' blend states (abi::packBlend) the fragment kernel compiles into its own
// attachment writes; the draw loop uses those writes only when a draw's state is the same.
// With the blend enable or equation dynamic the kernel is compiled without blending, so its
// writes serve the draws that do not blend and the loop blends the others; with the logic op
// enable dynamic, with the static blend state (a draw with the logic op enabled never uses them).
void colorBlendPlan(const VkGraphicsPipelineCreateInfo& info, const GraphicsPipelineState& g, uint32_t plan[]) {
  const ReadableStates r = readableStates(info, g);
  if (g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) || g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT)) return;
  const VkPipelineColorBlendStateCreateInfo* cb =
      r.discardStatic || !r.hasColor || r.colorBlendIgnored ? nullptr : info.pColorBlendState;
  if (!cb || (cb->logicOpEnable && !g.isDynamic(VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT)) || !cb->pAttachments) return;
  for (uint32_t i = 0; i < cb->attachmentCount && i < abi::kMaxColorAttachments; ++i) {
    const VkPipelineColorBlendAttachmentState& a = cb->pAttachments[i];
    if (a.blendEnable)
      plan[i] = abi::packBlend(a.srcColorBlendFactor, a.dstColorBlendFactor, a.colorBlendOp, a.srcAlphaBlendFactor,
                               a.dstAlphaBlendFactor, a.alphaBlendOp);
  }
}

// The state a stage is compiled against besides its SPIR-V and layout (compileStage): the
// blend plan and sample count of the fragment kernel's own colour writes, and the vertex input
// the vertex kernel fetches itself. `known` limits them to what a stage's library knew when it
// was created (LinkedCreateInfo::StageKnowledge: a link without link-time optimization compiles
// its stages as their libraries did, so that it finds them compiled).
struct StageParameters {
  uint32_t colorBlend[abi::kMaxColorAttachments] = {};
  uint32_t colorSamples = 1;
  const VkPipelineVertexInputStateCreateInfo* vertexInput = nullptr;
};
StageParameters stageParameters(const VkGraphicsPipelineCreateInfo& info, const GraphicsPipelineState& g,
                                const LinkedCreateInfo::StageKnowledge& known) {
  StageParameters p;
  if (known.fragmentOutput) colorBlendPlan(info, g, p.colorBlend);
  // The kernel's own attachment writes address this many samples per pixel (with the count
  // dynamic, 1: a draw of 4 is written by the loop).
  const VkPipelineMultisampleStateCreateInfo* multisample = readableStates(info, g).multisampleIgnored ? nullptr : info.pMultisampleState;
  if (multisample && !g.isDynamic(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT) &&
      multisample->rasterizationSamples == VK_SAMPLE_COUNT_4_BIT)
    p.colorSamples = 4;
  // VK_EXT_vertex_input_dynamic_state: with the vertex input dynamic the kernel is compiled
  // without attributes and fetches none itself; the draw decodes them all
  // (raster/draw_vertices.cpp) from the state vkCmdSetVertexInputEXT recorded.
  if (known.vertexInput && !g.isDynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) p.vertexInput = info.pVertexInputState;
  return p;
}

// Builds the pipeline's state; returns VK_SUCCESS or an error with *message set.
// viewIndexFromDeviceIndexStages: the stages compiled with VK_PIPELINE_CREATE_VIEW_INDEX_FROM_
// DEVICE_INDEX_BIT (the pipeline's flag, or each library's for its own stages).
VkResult buildState(Device* dev, const VkGraphicsPipelineCreateInfo& info, VkShaderStageFlags viewIndexFromDeviceIndexStages,
                    const LinkedCreateInfo::StageKnowledge& known, PipelineCacheStore* cache, GraphicsPipelineState& g,
                    StageOutcome& outcome, std::string* message) {
  const PipelineLayout* layout = fromHandle<PipelineLayout>(info.layout);
  raster::DrawState& s = g.base;
  s.simdWidth = dev->physical->simdWidth;
  if (const auto* dyn = info.pDynamicState)
    for (uint32_t i = 0; i < dyn->dynamicStateCount; ++i)
      if (const int bit = GraphicsPipelineState::dynamicStateBit(dyn->pDynamicStates[i]); bit >= 0)
        g.dynamicMask |= uint64_t(1) << bit;

  const StageParameters params = stageParameters(info, g, known);
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkShaderStageFlagBits stage = info.pStages[i].stage;
    if (stage != VK_SHADER_STAGE_VERTEX_BIT && stage != VK_SHADER_STAGE_FRAGMENT_BIT &&
        stage != VK_SHADER_STAGE_GEOMETRY_BIT && stage != VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT &&
        stage != VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT) {
      *message = "only vertex, tessellation, geometry and fragment shader stages are supported";
      return VK_ERROR_UNKNOWN;
    }
  }
  // Stages found in the caches are taken on this thread (waking the pool would cost more than
  // the lookups); the others compile side by side on the thread pool (each is its own LLVM
  // module: a vertex and a fragment stage of similar size take about half the time of one
  // after the other). Results are then taken in pStages order, so the first failing stage's
  // message is the one reported.
  struct StageResult {
    std::shared_ptr<const jit::GraphicsProgram> program;
    bool hit = false, required = false;
    std::string message;
  };
  std::vector<StageResult> results(info.stageCount);
  auto compileInto = [&](uint32_t i, bool cacheOnly) {
    const VkPipelineShaderStageCreateInfo& st = info.pStages[i];
    StageResult& r = results[i];
    r = StageResult{};
    r.program = compileStage(dev, st, layout, cache, params.colorBlend, params.colorSamples, params.vertexInput,
                             (viewIndexFromDeviceIndexStages & st.stage) != 0, cacheOnly, &r.hit, &r.required, &r.message);
  };
  const bool failOnCompile = (info.flags & VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) != 0;
  std::vector<uint32_t> toCompile;
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    compileInto(i, /*cacheOnly=*/true);
    if (results[i].required && !failOnCompile) toCompile.push_back(i);
  }
  ThreadPool::shared().parallelFor(toCompile.size(), [&](size_t k) { compileInto(toCompile[k], false); });
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkPipelineShaderStageCreateInfo& st = info.pStages[i];
    StageResult& r = results[i];
    if (i < 5) outcome.stageHit[i] = r.hit;
    if (r.required) {
      outcome.compileRequired = true;
      *message = r.message;
      return VK_PIPELINE_COMPILE_REQUIRED;
    }
    if (!r.program) {
      *message = r.message;
      return VK_ERROR_UNKNOWN;
    }
    std::shared_ptr<const jit::GraphicsProgram> program = std::move(r.program);
    (st.stage == VK_SHADER_STAGE_VERTEX_BIT                      ? g.vertex
     : st.stage == VK_SHADER_STAGE_GEOMETRY_BIT                  ? g.geometry
     : st.stage == VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT      ? g.tessControl
     : st.stage == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT   ? g.tessEval
                                                                 : g.fragment) = std::move(program);
    // A fragment stage with a required subgroup size runs batches of the width it was compiled for.
    if (st.stage == VK_SHADER_STAGE_FRAGMENT_BIT && g.fragment->simdWidth != s.simdWidth)
      s.fragmentSimdWidth = g.fragment->simdWidth;
    // The blend state dynamic: the stage was compiled without blending; draws that blend get it
    // compiled for their state (fragment_variants.h). Only where the stage knows the fragment
    // output interface (not a link of a library that did not).
    if (st.stage == VK_SHADER_STAGE_FRAGMENT_BIT && known.fragmentOutput && g.fragment->facts.directColorLocations &&
        (g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT) || g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT))) {
      const StageSource src = stageSource(st);
      g.fragmentVariants = std::make_shared<FragmentVariants>(
          stageRequest(dev, st, src, layout, params.colorBlend, params.colorSamples, nullptr,
                       (viewIndexFromDeviceIndexStages & st.stage) != 0));
    }
  }
  // "Transform Feedback": the last pre-rasterization stage's captures (geometry, else
  // tessellation evaluation, else vertex), read from its SPIR-V.
  {
    const VkPipelineShaderStageCreateInfo* last = nullptr;
    jit::GraphicsStage lastStage = jit::GraphicsStage::Vertex;
    int lastRank = 0;  // 1 vertex, 2 tessellation evaluation, 3 geometry
    for (uint32_t i = 0; i < info.stageCount; ++i) {
      const VkShaderStageFlagBits st = info.pStages[i].stage;
      const int rank = st == VK_SHADER_STAGE_GEOMETRY_BIT                  ? 3
                       : st == VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT ? 2
                       : st == VK_SHADER_STAGE_VERTEX_BIT                  ? 1
                                                                           : 0;
      if (rank <= lastRank) continue;
      last = &info.pStages[i];
      lastRank = rank;
      lastStage = rank == 3 ? jit::GraphicsStage::Geometry : rank == 2 ? jit::GraphicsStage::TessEval : jit::GraphicsStage::Vertex;
    }
    if (last) {
      const StageSource src = stageSource(*last);
      g.feedback = jit::readFeedbackLayout(src.code, src.entryPoint, lastStage);
      if (g.feedback.enabled) s.feedbackLayout = &g.feedback;
    }
  }
  if (bool(g.tessControl) != bool(g.tessEval)) {
    *message = "a pipeline with one tessellation stage needs the other";
    return VK_ERROR_UNKNOWN;
  }
  if (g.tessControl) {  // "Tessellation": after vertex shading, before the geometry stage
    const jit::GraphicsFacts::Tessellation& c = g.tessControl->facts.tessellation;
    const jit::GraphicsFacts::Tessellation& e = g.tessEval->facts.tessellation;
    raster::TessellationInterface& t = s.tessellation;
    s.tessControlShader = g.tessControl->tessControl;
    s.tessEvalShader = g.tessEval->vertex;
    // Modes may come from either stage (if from both, they are the same).
    t.outputVertices = c.outputVertices ? c.outputVertices : e.outputVertices;
    t.domain = c.domain ? c.domain : e.domain;
    t.spacing = c.spacing ? c.spacing : e.spacing;
    const uint8_t order = c.order ? c.order : e.order;
    t.clockwise = order == 1;
    t.pointMode = c.pointMode || e.pointMode;
    t.patchBytes = c.patchBytes;
    t.usesBarrier = c.usesBarrier;
    t.controlStackBytes = g.tessControl->stackBytes;
    t.runControl = &jit::runTessControlPatch;
    if (t.outputVertices == 0 || t.outputVertices > abi::kMaxPatchVertices || t.domain == 0 || t.spacing == 0) {
      *message = "tessellation shaders without OutputVertices, a domain or a spacing mode";
      return VK_ERROR_UNKNOWN;
    }
    std::memcpy(t.controlInputComponents, g.tessControl->facts.inputComponents, sizeof(t.controlInputComponents));
    std::memcpy(t.evalOutputComponents, g.tessEval->facts.outputComponents, sizeof(t.evalOutputComponents));
    t.evalClipDistances = uint8_t(g.tessEval->facts.clipDistances);
    t.evalCullDistances = uint8_t(g.tessEval->facts.cullDistances);
    t.evalWritesLayer = g.tessEval->facts.writesLayer;
    t.evalWritesViewportIndex = g.tessEval->facts.writesViewportIndex;
    if (const auto* ts = info.pTessellationState) {
      t.patchControlPoints = ts->patchControlPoints;
      if (const auto* origin = findInChain<VkPipelineTessellationDomainOriginStateCreateInfo>(
              ts->pNext, VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO))
        t.lowerLeftOrigin = origin->domainOrigin == VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
    }
    // With VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT the static value is ignored: each draw
    // takes vkCmdSetPatchControlPointsEXT's (icd/cmd_draw.cpp drawStateFor).
    if (!g.isDynamic(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT) &&
        (t.patchControlPoints == 0 || t.patchControlPoints > abi::kMaxPatchVertices)) {
      *message = "patchControlPoints outside 1..32 (maxTessellationPatchSize)";
      return VK_ERROR_UNKNOWN;
    }
  }
  if (!g.vertex) {
    *message = "a graphics pipeline needs a vertex shader";
    return VK_ERROR_UNKNOWN;
  }
  s.vertexShader = g.vertex->vertex;
  std::memcpy(s.vertexOutputComponents, g.vertex->facts.outputComponents, sizeof(s.vertexOutputComponents));
  s.vertexFetchedLocations = g.vertex->facts.fetchedLocations;
  s.vertexClipDistances = uint8_t(g.vertex->facts.clipDistances);
  s.vertexCullDistances = uint8_t(g.vertex->facts.cullDistances);
  s.vertexWritesLayer = g.vertex->facts.writesLayer;
  s.vertexWritesViewportIndex = g.vertex->facts.writesViewportIndex;
  if (g.geometry) {  // "Geometry Shading": between vertex shading and rasterization
    const jit::GraphicsFacts& f = g.geometry->facts;
    s.geometryShader = g.geometry->geometry;
    raster::GeometryInterface& gi = s.geometry;
    gi.inputVertices = f.geometry.inputVertices;
    gi.outputTopology = f.geometry.outputTopology;
    gi.maxVertices = f.geometry.maxVertices;
    gi.invocations = f.geometry.invocations;
    gi.vertexWords = f.geometry.vertexWords;
    gi.writesLayer = f.geometry.writesLayer;
    gi.clipDistances = uint8_t(f.clipDistances);
    gi.cullDistances = uint8_t(f.cullDistances);
    std::memcpy(gi.inputComponents, f.inputComponents, sizeof(gi.inputComponents));
    std::memcpy(gi.outputComponents, f.outputComponents, sizeof(gi.outputComponents));
  }
  if (g.fragment) {
    s.fragmentShader = g.fragment->fragment;
    const jit::GraphicsFacts& f = g.fragment->facts;
    std::memcpy(s.fragment.inputComponents, f.inputComponents, sizeof(f.inputComponents));
    for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l) s.fragment.inputInterpolation[l] = uint8_t(f.inputInterpolation[l]);
    for (uint32_t l = 0; l < abi::kMaxColorAttachments; ++l)
      if (f.outputComponents[l]) s.fragment.colorOutputs |= uint8_t(1u << l);
    s.fragment.writesSecondColor = f.outputComponents[abi::kSecondColorLocation] != 0;
    s.fragment.centroidInputs = f.centroidInputs;
    s.fragment.writesFragDepth = f.writesFragDepth;
    s.fragment.writesSampleMask = f.writesSampleMask;
    s.fragment.perSampleShading = f.perSampleShading;
    s.fragment.canDiscard = f.canDiscard;
    s.fragment.hasSideEffects = f.hasSideEffects;
    s.fragment.earlyFragmentTests = f.earlyFragmentTests;
    s.fragment.postDepthCoverage = f.postDepthCoverage;
    s.fragment.writesStencilRef = f.writesStencilRef;
    s.fragment.readsInputAttachments = f.readsInputAttachments;
    s.fragment.readsSampleMaskIn = f.readsSampleMaskIn;
    s.fragment.fragCoordReads = f.fragCoordReads;
    s.fragment.directColorLocations = f.directColorLocations;
    std::copy(f.directBlend, f.directBlend + abi::kMaxColorAttachments, s.fragment.directBlend);
    s.fragment.directSamples = f.directSamples;
    s.fragment.clipDistances = uint8_t(f.clipDistances);
    s.fragment.cullDistances = uint8_t(f.cullDistances);
  }

  if (const auto* vi = g.isDynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) ? nullptr : info.pVertexInputState) {
    for (uint32_t i = 0; i < vi->vertexBindingDescriptionCount; ++i) {
      const auto& b = vi->pVertexBindingDescriptions[i];
      if (b.binding >= raster::kMaxVertexBindings) continue;
      g.bindingStride[b.binding] = b.stride;
      s.bindings[b.binding].stride = b.stride;
      s.bindings[b.binding].inputRate = b.inputRate;
    }
    // VK_EXT_vertex_attribute_divisor: divisors of instance-rate bindings (1 when not given).
    if (const auto* d = findInChain<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
            vi->pNext, VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT))
      for (uint32_t i = 0; i < d->vertexBindingDivisorCount; ++i)
        if (d->pVertexBindingDivisors[i].binding < raster::kMaxVertexBindings)
          s.bindings[d->pVertexBindingDivisors[i].binding].divisor = d->pVertexBindingDivisors[i].divisor;
    for (uint32_t i = 0; i < vi->vertexAttributeDescriptionCount && i < raster::kMaxVertexAttributes; ++i) {
      const auto& a = vi->pVertexAttributeDescriptions[i];
      s.attributes[s.attributeCount++] = {a.location, a.binding, a.offset, a.format};
    }
  }
  if (const auto* ia = info.pInputAssemblyState) {
    s.topology = ia->topology;
    s.primitiveRestart = ia->primitiveRestartEnable;
    // Patch lists go with tessellation, and tessellation with patch lists. Adjacency
    // topologies (with the geometryShader feature) draw their primitives with or without a
    // geometry stage. A dynamic topology may be of any class here
    // (dynamicPrimitiveTopologyUnrestricted): the draw's topology is the one that counts, and
    // the draw paths read it per draw.
    if (!g.isDynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY) &&
        (ia->topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) != bool(g.tessControl)) {
      *message = "patch lists need tessellation shaders, and tessellation shaders a patch list";
      return VK_ERROR_UNKNOWN;
    }
  }
  // VK_EXT_depth_range_unrestricted, when the device enabled it, lets float depth attachments
  // keep depths outside [0, 1] (raster/rules.h: fragmentDepthRange).
  s.raster.depthRangeUnrestricted = dev->extensionEnabled(int(ExtensionId::EXT_depth_range_unrestricted));
  if (const auto* rs = info.pRasterizationState) {
    s.rasterizerDiscard = rs->rasterizerDiscardEnable;
    s.polygonMode = rs->polygonMode;
    s.raster.cullMode = rs->cullMode;
    s.raster.frontFace = rs->frontFace;
    s.raster.depthClampEnable = rs->depthClampEnable;
    // VK_EXT_depth_clip_enable: depth clipping set on its own; without the structure it
    // follows depthClampEnable (raster/rules.h: clipsDepth).
    if (const auto* clip = findInChain<VkPipelineRasterizationDepthClipStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT))
      s.raster.depthClip = clip->depthClipEnable ? raster::RasterState::DepthClip::Enabled
                                                 : raster::RasterState::DepthClip::Disabled;
    s.raster.depthBiasEnable = rs->depthBiasEnable;
    s.raster.depthBiasConstantFactor = rs->depthBiasConstantFactor;
    s.raster.depthBiasClamp = rs->depthBiasClamp;
    s.raster.depthBiasSlopeFactor = rs->depthBiasSlopeFactor;
    s.raster.depthBiasRepresentation = depthBiasRepresentationOf(rs->pNext);
    s.raster.lineWidth = rs->lineWidth;
    // VK_EXT_line_rasterization ("Line Segments", "Line Stipple"): the mode and the stipple;
    // without the structure DEFAULT lines, unstippled.
    if (const auto* line = findInChain<VkPipelineRasterizationLineStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT)) {
      s.raster.lineMode = line->lineRasterizationMode;
      s.raster.lineStippleEnable = line->stippledLineEnable;
      s.raster.lineStippleFactor = line->lineStippleFactor;
      s.raster.lineStipplePattern = line->lineStipplePattern;
    }
    // VK_EXT_provoking_vertex: the provoking vertex mode ("Flat Shading"); FIRST without the
    // structure, and for any value other than LAST.
    if (const auto* pv = findInChain<VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT))
      s.provokingVertexLast = pv->provokingVertexMode == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    // VK_EXT_transform_feedback's rasterization stream: vertex stream 0 is the one rasterized
    // (a geometry stage's other streams are captured only, raster/draw_geometry.cpp). Another
    // stream needs transformFeedbackRasterizationStreamSelect, which is not offered.
    if (const auto* stream = findInChain<VkPipelineRasterizationStateStreamCreateInfoEXT>(
            rs->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT);
        stream && stream->rasterizationStream != 0) {
      *message = "rasterizationStream " + std::to_string(stream->rasterizationStream) +
                 ": only stream 0 is rasterized (transformFeedbackRasterizationStreamSelect is not supported)";
      return VK_ERROR_UNKNOWN;
    }
  }
  const ReadableStates readable = readableStates(info, g);
  const bool discardStatic = readable.discardStatic, hasDepthStencil = readable.hasDepthStencil, hasColor = readable.hasColor;
  const VkPipelineViewportStateCreateInfo* viewportState = discardStatic ? nullptr : info.pViewportState;
  if (const VkPipelineMultisampleStateCreateInfo* ms = discardStatic || readable.multisampleIgnored ? nullptr : info.pMultisampleState) {
    // A dynamic count is the draw's (cmd_draw.cpp drawStateFor), the static one ignored.
    if (!g.isDynamic(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT)) s.raster.samples = uint32_t(ms->rasterizationSamples);
    if (!(kSupportedSampleCounts & s.raster.samples) || (s.raster.samples & (s.raster.samples - 1))) {
      *message = "rasterizationSamples must be 1, 2, 4, 8 or 16";
      return VK_ERROR_UNKNOWN;
    }
    g.sampleShadingEnable = ms->sampleShadingEnable;
    g.minSampleShading = ms->minSampleShading;
    if (ms->pSampleMask) s.sampleMask = ms->pSampleMask[0];
    s.alphaToCoverage = ms->alphaToCoverageEnable;
    s.alphaToOne = ms->alphaToOneEnable;
    // VK_EXT_sample_locations: the pipeline's own locations unless they, or their enable, are
    // dynamic (drawStateFor takes the command buffer's then).
    if (const auto* locations = findInChain<VkPipelineSampleLocationsStateCreateInfoEXT>(
            ms->pNext, VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT)) {
      s.raster.customSampleLocations = locations->sampleLocationsEnable;
      if (!g.isDynamic(VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT))
        s.raster.customLocations = sampleLocationsOf(locations->sampleLocationsInfo);
    }
    // "Sample Shading": at least max(ceil(minSampleShading x samples), 1) invocations per
    // fragment; Tessera then shades every sample.
    s.sampleShading = ms->sampleShadingEnable && ms->minSampleShading * float(s.raster.samples) > 1.0f;
  }
  // Per-sample shading reads the rasterizer's weights at every sample; only then compute them.
  s.raster.sampleWeights = s.raster.samples > 1 && (s.sampleShading || s.fragment.perSampleShading);
  const VkPipelineDepthStencilStateCreateInfo* depthStencilState =
      discardStatic || !hasDepthStencil ? nullptr : info.pDepthStencilState;
  const VkPipelineColorBlendStateCreateInfo* colorBlendState =
      discardStatic || !hasColor || readable.colorBlendIgnored ? nullptr : info.pColorBlendState;
  if (const auto* vp = viewportState) {
    // "Controlling the Viewport": viewport and scissor i serve the primitives sent to viewport i.
    g.viewportCount = std::clamp(vp->viewportCount, 1u, raster::kMaxViewports);
    if (vp->pViewports) std::copy_n(vp->pViewports, std::min(vp->viewportCount, raster::kMaxViewports), g.viewports);
    if (vp->pScissors) std::copy_n(vp->pScissors, std::min(vp->scissorCount, raster::kMaxViewports), g.scissors);
    // VK_EXT_depth_clip_control: the [-1, 1] clip volume and its viewport depth mapping.
    if (const auto* control = findInChain<VkPipelineViewportDepthClipControlCreateInfoEXT>(
            vp->pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT))
      s.raster.negativeOneToOne = control->negativeOneToOne;
  }
  if (const auto* ds = depthStencilState) {
    s.depthTest = ds->depthTestEnable;
    s.depthWrite = ds->depthWriteEnable;
    s.depthCompare = ds->depthCompareOp;
    s.depthBoundsTest = ds->depthBoundsTestEnable;
    s.minDepthBounds = ds->minDepthBounds;
    s.maxDepthBounds = ds->maxDepthBounds;
    s.stencilTest = ds->stencilTestEnable;
    s.stencilFront = stencilFace(ds->front);
    s.stencilBack = stencilFace(ds->back);
  }
  if (const auto* cb = colorBlendState) {
    s.logicOpEnable = cb->logicOpEnable;
    s.logicOp = cb->logicOp;
    const uint32_t attachments = readable.blendAttachmentsIgnored || !cb->pAttachments ? 0 : cb->attachmentCount;
    for (uint32_t i = 0; i < attachments && i < abi::kMaxColorAttachments; ++i) {
      const auto& a = cb->pAttachments[i];
      raster::BlendAttachment& b = s.blend[i];
      b.enable = a.blendEnable;
      b.srcColor = a.srcColorBlendFactor;
      b.dstColor = a.dstColorBlendFactor;
      b.colorOp = a.colorBlendOp;
      b.srcAlpha = a.srcAlphaBlendFactor;
      b.dstAlpha = a.dstAlphaBlendFactor;
      b.alphaOp = a.alphaBlendOp;
      b.writeMask = a.colorWriteMask;
    }
    // "Color Write Enable" (VK_EXT_color_write_enable): a disabled attachment is written as with
    // a colorWriteMask of 0, which every draw path already honours. A dynamic enable is applied
    // per draw instead (cmd_draw.cpp).
    if (const auto* cw = findInChain<VkPipelineColorWriteCreateInfoEXT>(cb->pNext,
                                                                        VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT);
        cw && cw->pColorWriteEnables && !g.isDynamic(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT))
      for (uint32_t i = 0; i < cw->attachmentCount && i < abi::kMaxColorAttachments; ++i)
        if (!cw->pColorWriteEnables[i]) {
          s.blend[i].writeMask = 0;
          g.staticColorWriteEnables &= ~(1u << i);  // kept for a dynamic write mask (cmd_draw.cpp)
        }
    std::memcpy(s.blendConstants, cb->blendConstants, sizeof(s.blendConstants));
  }
  return VK_SUCCESS;
}

// "Graphics Pipeline Libraries", fast linking (graphicsPipelineLibraryFastLinking): a library
// with shader stages compiles them when it is created, against the state it has (its own
// layout, its fragment output interface and vertex input only if it holds those parts) and
// keeps the programs. A link without VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT asks
// for its stages with the same limits (LinkedCreateInfo::knowledge), so each is found compiled
// when the link's layout gives the stage the same interface (the usual case: one layout for
// all parts); otherwise it is compiled then. A failure here is left to the link to report.
void precompileLibraryStages(Device* dev, PipelineCacheStore* cache, GraphicsLibraryState& library, StageOutcome& outcome) {
  const VkGraphicsPipelineCreateInfo& info = library.info;
  if (!info.stageCount) return;
  GraphicsPipelineState g;
  for (VkDynamicState d : library.dynamicStates)
    if (const int bit = GraphicsPipelineState::dynamicStateBit(d); bit >= 0) g.dynamicMask |= uint64_t(1) << bit;
  const LinkedCreateInfo::StageKnowledge known = LinkedCreateInfo::knowledgeOf(library.parts);
  const StageParameters params = stageParameters(info, g, known);
  for (uint32_t i = 0; i < info.stageCount; ++i) {
    const VkPipelineShaderStageCreateInfo& st = info.pStages[i];
    bool hit = false, required = false;
    std::string message;
    auto program = compileStage(dev, st, library.layout, cache, params.colorBlend, params.colorSamples, params.vertexInput,
                                (library.viewIndexFromDeviceIndexStages & st.stage) != 0, false, &hit, &required, &message);
    if (i < 5) outcome.stageHit[i] = program && hit;  // VK_EXT_pipeline_creation_feedback
    if (program) library.precompiled.push_back(std::move(program));
  }
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateGraphicsPipelines(VkDevice device, VkPipelineCache pipelineCache,
                                                                uint32_t createInfoCount,
                                                                const VkGraphicsPipelineCreateInfo* pCreateInfos,
                                                                const VkAllocationCallbacks* pAllocator, VkPipeline* pPipelines) {
  Device* dev = fromHandle<Device>(device);
  const VkAllocationCallbacks* alloc = pickAllocator(pAllocator, dev->allocator());
  PipelineCacheStore* cache = pipelineCache ? pipelineCacheStore(pipelineCache) : nullptr;
  VkResult result = VK_SUCCESS;
  bool stop = false;
  for (uint32_t i = 0; i < createInfoCount; ++i) {
    pPipelines[i] = VK_NULL_HANDLE;
    if (stop) continue;
    auto state = std::make_unique<GraphicsPipelineState>();
    std::unique_ptr<GraphicsLibraryState> library;
    DynamicOffsetMap dynamicOffsets;
    std::string message;
    StageOutcome outcome;
    const auto start = std::chrono::steady_clock::now();
    VkResult r = VK_SUCCESS;
    try {
      // "Graphics Pipeline Libraries": a create info that links libraries is assembled into a
      // complete one first; a library keeps a copy of its parts and compiles nothing.
      std::unique_ptr<LinkedCreateInfo> linked;
      const VkGraphicsPipelineCreateInfo* info = &pCreateInfos[i];
      VkGraphicsPipelineLibraryFlagsEXT parts = ownGraphicsParts(*info);
      if (linkedLibraries(*info)) {
        linked = std::make_unique<LinkedCreateInfo>(*info);
        info = &linked->info;
        parts = linked->parts;
      }
      // A link's stages carry their libraries' VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT.
      const VkShaderStageFlags viewIndexStages =
          linked ? linked->viewIndexFromDeviceIndexStages
                 : (info->flags & VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT) ? VkShaderStageFlags(VK_SHADER_STAGE_ALL_GRAPHICS) : 0;
      if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) {
        library = std::make_unique<GraphicsLibraryState>(*info, parts, linked ? viewIndexStages : 0);
        if (!linked) precompileLibraryStages(dev, cache, *library, outcome);
      } else {  // VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT: stages must come from a cache.
        r = buildState(dev, *info, viewIndexStages, linked ? linked->knowledge : LinkedCreateInfo::StageKnowledge{}, cache,
                       *state, outcome, &message);
        dynamicOffsets = DynamicOffsetMap::of(fromHandle<PipelineLayout>(info->layout));
      }
    } catch (const std::bad_alloc&) {
      r = VK_ERROR_OUT_OF_HOST_MEMORY;
      message = "out of host memory";
    }
    // VK_EXT_pipeline_creation_feedback: the time it took and, per stage, whether the
    // application's pipeline cache held it (the pipeline: whether it held every stage).
    if (auto* fb = findInChain<VkPipelineCreationFeedbackCreateInfo>(pCreateInfos[i].pNext,
                                                                     VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO)) {
      VkPipelineCreationFeedback f{};
      if (r == VK_SUCCESS) {
        f.flags = VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
        f.duration = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
      }
      bool allHit = pCreateInfos[i].stageCount > 0;
      for (uint32_t k = 0; k < pCreateInfos[i].stageCount; ++k) allHit &= k < 5 && outcome.stageHit[k];
      VkPipelineCreationFeedback pipelineFeedback = f;
      if (r == VK_SUCCESS && allHit)
        pipelineFeedback.flags |= VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
      if (fb->pPipelineCreationFeedback) *fb->pPipelineCreationFeedback = pipelineFeedback;
      for (uint32_t k = 0; k < fb->pipelineStageCreationFeedbackCount; ++k) {
        fb->pPipelineStageCreationFeedbacks[k] = f;
        if (r == VK_SUCCESS && k < 5 && outcome.stageHit[k])
          fb->pPipelineStageCreationFeedbacks[k].flags |= VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
      }
    }
    if (r == VK_PIPELINE_COMPILE_REQUIRED) {
      if (result == VK_SUCCESS) result = r;
      stop = (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
      continue;
    }
    if (r != VK_SUCCESS) {
      reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device), "vkCreateGraphicsPipelines: pipeline %u: %s", i,
                  message.c_str());
      if (result == VK_SUCCESS) result = r;
      stop = (pCreateInfos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT) != 0;
      continue;
    }
    auto* p = hostNew<Pipeline>(alloc, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!p) {
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
      continue;
    }
    p->bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    if (library) p->library = std::move(library);
    else p->graphics = std::move(state);
    p->dynamicOffsets = dynamicOffsets;
    pPipelines[i] = toHandle<VkPipeline>(p);
  }
  return result;
}

}  // extern "C"
