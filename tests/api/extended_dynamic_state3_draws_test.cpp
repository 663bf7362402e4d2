// VK_EXT_extended_dynamic_state3's colour blend, coverage and tessellation states, and
// dynamicPrimitiveTopologyUnrestricted, through the loader with validation, on Tessera and on
// lavapipe in the same test (the sibling of extended_dynamic_state3_test.cpp, which has the
// rasterization states). "Dynamic State": a state the pipeline lists as dynamic takes the
// command buffer's value instead of the pipeline's.
//
// Each render is two draws in one render pass instance: triangle A with value v of the state,
// then triangle B, which overlaps it, with the other value. Statically that is two pipelines;
// dynamically one pipeline whose static value is the other one (so it must be overridden),
// the value set before each draw. The static and dynamic images must be equal on each driver,
// Tessera's must be lavapipe's (within 1 per component where blending rounds), and v = 0 and
// v = 1 must draw different images (so the state is seen at all).
//
// Why these states need more than the others: the fragment kernel writes 8-bit UNORM
// attachments itself with the blend state it was compiled with (docs/ARCHITECTURE.md, "Compiled
// colour writes"). A static pipeline's draws here take those writes; a dynamic one's draws must
// not where their state differs, so the draw loop blends, masks and applies the logic op from
// the draw's state. Both paths run here (api_tests.reference_raster runs the file again with
// TESSERA_RASTER=reference, the w4/w8/w16 variants at each SIMD width).
//
// The scene (32x32 R8G8B8A8_UNORM cleared to (0.2, 0.4, 0.6, 0.8), tests/shaders/draw_basic.vert
// and draw_basic_flat.frag): A in (1, 0.5, 0, 0.375), B in (0, 0.25, 1, 0.25), B wound the
// other way round.
//  - COLOR_WRITE_MASK_EXT: RGBA and R+B;
//  - COLOR_BLEND_ENABLE_EXT: off and on (SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD; alpha ONE,
//    ONE_MINUS_SRC_ALPHA);
//  - COLOR_BLEND_EQUATION_EXT (blending on): that equation and (ONE, ONE, REVERSE_SUBTRACT;
//    alpha ONE, ONE, MAX);
//  - LOGIC_OP_ENABLE_EXT: off and on (logicOp XOR);
//  - ALPHA_TO_COVERAGE_ENABLE_EXT: off and on (alpha < 0.5 with one sample covers nothing);
//  - TESSELLATION_DOMAIN_ORIGIN_EXT: UPPER_LEFT and LOWER_LEFT, each triangle a patch
//    (tests/shaders/eds3_domain_origin.tesc/.tese, level 2), back faces culled: the origin
//    decides the generated triangles' winding;
//  - PRIMITIVE_TOPOLOGY (dynamicPrimitiveTopologyUnrestricted): TRIANGLE_LIST and POINT_LIST,
//    the dynamic pipeline created with the other class;
//  - RASTERIZATION_SAMPLES_EXT: 1 and 4, both draws with the value (it must match the
//    attachment's samples), resolved for reading: the kernel of the dynamic pipeline is
//    compiled for 1 sample, so its draws of 4 are written by the loop, the static pipeline's by
//    the kernel (and a draw that kept the pipeline's count, which Tessera takes as 1 when it
//    is dynamic, would not cover the attachment's samples);
//  - every colour blend and multisample state at once, pMultisampleState NULL (the spec
//    ignores it then), the ignored colour blend state holding the other equation, blending
//    with each of the two equations.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;

struct Vertex {
  float pos[3];
  float color[4];
};

// NullStates: every state of VkPipelineColorBlendStateCreateInfo and
// VkPipelineMultisampleStateCreateInfo dynamic, pMultisampleState NULL, blending on with
// kEquations[value].
enum class State { WriteMask, BlendEnable, BlendEquation, LogicOpEnable, AlphaToCoverage, DomainOrigin, Topology, Samples, NullStates };
// The dynamic states of NullStates: with them the spec ignores pColorBlendState (its
// pAttachments already with the first three) and pMultisampleState, which may then be NULL.
constexpr VkDynamicState kNullStatesDynamic[] = {
    VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT,      VK_DYNAMIC_STATE_LOGIC_OP_EXT,
    VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,   VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
    VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,     VK_DYNAMIC_STATE_BLEND_CONSTANTS,
    VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
    VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT};

constexpr VkColorBlendEquationEXT kEquations[2] = {
    {VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
     VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD},
    {VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_REVERSE_SUBTRACT, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE,
     VK_BLEND_OP_MAX}};
constexpr VkColorComponentFlags kWriteMasks[2] = {0xF, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT};
constexpr VkPrimitiveTopology kTopologies[2] = {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
constexpr VkSampleCountFlagBits kSamples[2] = {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT};

VkDynamicState dynamicStateOf(State state) {
  switch (state) {
    case State::WriteMask: return VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT;
    case State::BlendEnable: return VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT;
    case State::BlendEquation: return VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT;
    case State::LogicOpEnable: return VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT;
    case State::AlphaToCoverage: return VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT;
    case State::DomainOrigin: return VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT;
    case State::Topology: return VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY;
    case State::Samples: return VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT;
    case State::NullStates: break;  // kNullStatesDynamic
  }
  return VK_DYNAMIC_STATE_MAX_ENUM;
}

// A pipeline drawing the scene with `value` of `state` as its static state, and the state
// dynamic when `dynamic`.
VkPipeline makePipeline(VkDevice dev, VkPipelineLayout layout, const VkPipelineShaderStageCreateInfo* stages, uint32_t stageCount,
                        State state, int value, bool dynamic) {
  const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                           {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &binding;
  vi.vertexAttributeDescriptionCount = 2;
  vi.pVertexAttributeDescriptions = attributes;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = state == State::DomainOrigin ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                : state == State::Topology   ? kTopologies[value]
                                             : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineTessellationDomainOriginStateCreateInfo origin{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO};
  origin.domainOrigin = value ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, &origin};
  ts.patchControlPoints = 3;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = state == State::DomainOrigin ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE;
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = state == State::Samples ? kSamples[value] : VK_SAMPLE_COUNT_1_BIT;
  ms.alphaToCoverageEnable = state == State::AlphaToCoverage && value;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = state == State::WriteMask ? kWriteMasks[value] : 0xF;
  const bool everyEquation = state == State::BlendEquation || state == State::NullStates;
  blend.blendEnable = (state == State::BlendEnable && value) || everyEquation;
  const VkColorBlendEquationEXT& e = kEquations[everyEquation ? value : 0];
  blend.srcColorBlendFactor = e.srcColorBlendFactor;
  blend.dstColorBlendFactor = e.dstColorBlendFactor;
  blend.colorBlendOp = e.colorBlendOp;
  blend.srcAlphaBlendFactor = e.srcAlphaBlendFactor;
  blend.dstAlphaBlendFactor = e.dstAlphaBlendFactor;
  blend.alphaBlendOp = e.alphaBlendOp;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.logicOpEnable = state == State::LogicOpEnable && value;
  cb.logicOp = VK_LOGIC_OP_XOR;
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState dynamicState = dynamicStateOf(state);
  const bool nullStates = state == State::NullStates;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0,
                                       nullStates ? uint32_t(std::size(kNullStatesDynamic)) : 1u,
                                       nullStates ? kNullStatesDynamic : &dynamicState};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = stageCount;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pTessellationState = state == State::DomainOrigin ? &ts : nullptr;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  // The validation layer installed here still requires pColorBlendState whenever there are
  // colour attachments (the older VUID-VkGraphicsPipelineCreateInfo-renderPass-06054) and
  // crashes on NULL pAttachments, so NullStates gives them, holding the other value.
  gpci.pMultisampleState = dynamic && nullStates ? nullptr : &ms;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = dynamic ? &dyn : nullptr;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
  return pipeline;
}

// Sets `value` of `state` in `cmd` (the extension's commands come from the device: the
// loader's library does not export them).
bool setDynamic(VkDevice dev, VkCommandBuffer cmd, State state, int value) {
  switch (state) {
    case State::WriteMask: {
      auto set = reinterpret_cast<PFN_vkCmdSetColorWriteMaskEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetColorWriteMaskEXT"));
      if (set) set(cmd, 0, 1, &kWriteMasks[value]);
      return set;
    }
    case State::BlendEnable: {
      auto set = reinterpret_cast<PFN_vkCmdSetColorBlendEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetColorBlendEnableEXT"));
      const VkBool32 enable = VkBool32(value);
      if (set) set(cmd, 0, 1, &enable);
      return set;
    }
    case State::BlendEquation: {
      auto set = reinterpret_cast<PFN_vkCmdSetColorBlendEquationEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetColorBlendEquationEXT"));
      if (set) set(cmd, 0, 1, &kEquations[value]);
      return set;
    }
    case State::LogicOpEnable: {
      auto set = reinterpret_cast<PFN_vkCmdSetLogicOpEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetLogicOpEnableEXT"));
      if (set) set(cmd, VkBool32(value));
      return set;
    }
    case State::AlphaToCoverage: {
      auto set =
          reinterpret_cast<PFN_vkCmdSetAlphaToCoverageEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetAlphaToCoverageEnableEXT"));
      if (set) set(cmd, VkBool32(value));
      return set;
    }
    case State::DomainOrigin: {
      auto set = reinterpret_cast<PFN_vkCmdSetTessellationDomainOriginEXT>(
          vkGetDeviceProcAddr(dev, "vkCmdSetTessellationDomainOriginEXT"));
      if (set) set(cmd, value ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT);
      return set;
    }
    case State::Topology: vkCmdSetPrimitiveTopology(cmd, kTopologies[value]); return true;
    case State::Samples: {
      auto set =
          reinterpret_cast<PFN_vkCmdSetRasterizationSamplesEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetRasterizationSamplesEXT"));
      if (set) set(cmd, kSamples[value]);
      return set;
    }
    case State::NullStates: {
      // Every state the pipeline left to the command buffer, as the static pipeline has them.
      auto logicOp = reinterpret_cast<PFN_vkCmdSetLogicOpEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetLogicOpEXT"));
      auto sampleMask = reinterpret_cast<PFN_vkCmdSetSampleMaskEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetSampleMaskEXT"));
      auto alphaToOne =
          reinterpret_cast<PFN_vkCmdSetAlphaToOneEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetAlphaToOneEnableEXT"));
      if (!logicOp || !sampleMask || !alphaToOne) return false;
      logicOp(cmd, VK_LOGIC_OP_XOR);
      const VkSampleMask all = ~0u;
      sampleMask(cmd, VK_SAMPLE_COUNT_1_BIT, &all);
      alphaToOne(cmd, VK_FALSE);
      const float constants[4] = {0, 0, 0, 0};
      vkCmdSetBlendConstants(cmd, constants);
      return setDynamic(dev, cmd, State::WriteMask, 0) && setDynamic(dev, cmd, State::BlendEnable, 1) &&
             setDynamic(dev, cmd, State::BlendEquation, value) && setDynamic(dev, cmd, State::LogicOpEnable, 0) &&
             setDynamic(dev, cmd, State::AlphaToCoverage, 0) && setDynamic(dev, cmd, State::Samples, 0);
    }
  }
  return false;
}

// The image (RGBA8 bytes) of triangle A drawn with `value` of `state` and B with the other,
// static or set dynamically; empty on failure.
std::vector<uint8_t> render(VkPhysicalDevice pd, State state, int value, bool dynamic) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, &v13};
  eds3.extendedDynamicState3ColorWriteMask = VK_TRUE;
  eds3.extendedDynamicState3ColorBlendEnable = VK_TRUE;
  eds3.extendedDynamicState3ColorBlendEquation = VK_TRUE;
  eds3.extendedDynamicState3LogicOpEnable = VK_TRUE;
  eds3.extendedDynamicState3AlphaToCoverageEnable = VK_TRUE;
  eds3.extendedDynamicState3TessellationDomainOrigin = VK_TRUE;
  eds3.extendedDynamicState3RasterizationSamples = VK_TRUE;
  eds3.extendedDynamicState3SampleMask = VK_TRUE;
  eds3.extendedDynamicState3AlphaToOneEnable = VK_TRUE;
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT, &eds3};
  eds2.extendedDynamicState2LogicOp = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.logicOp = VK_TRUE;
  features.tessellationShader = VK_TRUE;
  TestDevice device(pd, &features, &eds2,
                    {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  // The rasterization samples must be the attachment's: 4 are resolved into a second one to be read.
  const bool resolve = state == State::Samples && value == 1;
  const TestDevice::Attachment color = device.createAttachment(
      VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
      VK_IMAGE_ASPECT_COLOR_BIT, resolve ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT);
  const TestDevice::Attachment resolved =
      resolve ? device.createAttachment(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
                                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT)
              : TestDevice::Attachment{};
  const VkImage readImage = resolve ? resolved.image : color.image;
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  // A counter-clockwise in framebuffer coordinates (y down), B clockwise; every vertex inside a
  // pixel, away from its edges (the point list draws the pixel it lies in).
  const Vertex triangles[6] = {{{-0.9f, -0.9f, 0.5f}, {1, 0.5f, 0, 0.375f}}, {{0.9f, -0.7f, 0.5f}, {1, 0.5f, 0, 0.375f}},
                               {{-0.6f, 0.9f, 0.5f}, {1, 0.5f, 0, 0.375f}},  {{0.9f, 0.9f, 0.5f}, {0, 0.25f, 1, 0.25f}},
                               {{0.95f, -0.8f, 0.5f}, {0, 0.25f, 1, 0.25f}}, {{-0.7f, 0.2f, 0.5f}, {0, 0.25f, 1, 0.25f}}};
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(triangles), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, triangles, sizeof(triangles));

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const bool tessellation = state == State::DomainOrigin;
  std::vector<VkShaderModule> modules = {device.createShaderModule(loadCorpusShader("draw_basic_vert")),
                                         device.createShaderModule(loadCorpusShader("draw_basic_flat_frag"))};
  std::vector<VkPipelineShaderStageCreateInfo> stages = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[0], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[1], "main", nullptr}};
  if (tessellation) {
    modules.push_back(device.createShaderModule(loadCorpusShader("eds3_domain_origin_tesc")));
    modules.push_back(device.createShaderModule(loadCorpusShader("eds3_domain_origin_tese")));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                      modules[2], "main", nullptr});
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0,
                      VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, modules[3], "main", nullptr});
  }
  // Static: a pipeline per draw. Dynamic: one pipeline whose static value is the other one.
  // The second draw takes the other value, but for the samples, which the attachment fixes.
  const int secondValue = state == State::Samples ? value : 1 - value;
  std::vector<VkPipeline> pipelines;
  if (dynamic) {
    // (But for the samples: the validation layer here compares the pipeline's static count with
    // the attachment's even when the count is dynamic, VUID-vkCmdDraw-colorAttachmentCount-06188.
    // Tessera ignores a dynamic count's static value, so the draw still takes the set one.)
    const int staticValue = state == State::Samples ? value : 1 - value;
    pipelines.push_back(makePipeline(dev, layout, stages.data(), uint32_t(stages.size()), state, staticValue, true));
  } else {
    pipelines.push_back(makePipeline(dev, layout, stages.data(), uint32_t(stages.size()), state, value, false));
    pipelines.push_back(makePipeline(dev, layout, stages.data(), uint32_t(stages.size()), state, secondValue, false));
  }

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
  for (VkImage image : {color.image, resolved.image}) {
    if (!image) continue;
    b.image = image;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
  }
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = color.view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0.2f, 0.4f, 0.6f, 0.8f}};
  if (resolve) {
    attachment.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    attachment.resolveImageView = resolved.view;
    attachment.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  bool set = true;
  for (int draw = 0; draw < 2; ++draw) {
    if (dynamic) {
      if (draw == 0) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
      set = set && setDynamic(dev, cmd, state, draw == 0 ? value : secondValue);
    } else {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[draw]);
    }
    vkCmdDraw(cmd, 3, 1, 3 * draw, 0);
  }
  EXPECT_TRUE(set) << "the dynamic state's command";
  vkCmdEndRendering(cmd);
  b.image = readImage;
  b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                       1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, readImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  std::vector<uint8_t> out(kSize * kSize * 4);
  std::memcpy(out.data(), readMap, out.size());
  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return set ? out : std::vector<uint8_t>{};
}

// Components more than `tolerance` apart, reported for the first few.
int differences(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int tolerance, const char* what) {
  int n = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::abs(int(a[i]) - int(b[i])) > tolerance && ++n <= 4)
      ADD_FAILURE() << what << ": pixel (" << i / 4 % kSize << ", " << i / 4 / kSize << ") component " << i % 4 << ": "
                    << int(a[i]) << " vs " << int(b[i]);
  return n;
}

void check(State state, const char* name) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  // Blending and the logic op on the first draw's results may round differently in lavapipe.
  std::vector<uint8_t> ours[2];
  for (int value = 0; value < 2; ++value) {
    SCOPED_TRACE(std::string(name) + " value " + std::to_string(value));
    ours[value] = render(drivers.tessera, state, value, true);
    const std::vector<uint8_t> ourStatic = render(drivers.tessera, state, value, false);
    ASSERT_EQ(ours[value].size(), size_t(kSize * kSize * 4));
    ASSERT_EQ(ourStatic.size(), ours[value].size());
    EXPECT_EQ(differences(ours[value], ourStatic, 0, "Tessera dynamic vs static"), 0);
    if (!drivers.lavapipe) continue;
    const std::vector<uint8_t> theirs = render(drivers.lavapipe, state, value, false);
    ASSERT_EQ(theirs.size(), ours[value].size());
    // lavapipe 22.3 crashes creating a pipeline without pMultisampleState (as in the CTS's
    // extended_dynamic_state.*.null_multisample_state cases): only its static image then.
    if (state != State::NullStates) {
      EXPECT_EQ(differences(render(drivers.lavapipe, state, value, true), theirs, 0, "lavapipe dynamic vs static"), 0);
    }
    EXPECT_EQ(differences(ours[value], theirs, 1, "Tessera vs lavapipe"), 0);
  }
  EXPECT_NE(ours[0], ours[1]) << "the two values should draw different images";
}

TEST(ExtendedDynamicState3Draws, ColorWriteMask) { check(State::WriteMask, "color write mask"); }
TEST(ExtendedDynamicState3Draws, ColorBlendEnable) { check(State::BlendEnable, "color blend enable"); }
TEST(ExtendedDynamicState3Draws, ColorBlendEquation) { check(State::BlendEquation, "color blend equation"); }
TEST(ExtendedDynamicState3Draws, LogicOpEnable) { check(State::LogicOpEnable, "logic op enable"); }
TEST(ExtendedDynamicState3Draws, AlphaToCoverageEnable) { check(State::AlphaToCoverage, "alpha to coverage"); }
TEST(ExtendedDynamicState3Draws, TessellationDomainOrigin) { check(State::DomainOrigin, "tessellation domain origin"); }
TEST(ExtendedDynamicState3Draws, PrimitiveTopologyUnrestricted) { check(State::Topology, "primitive topology"); }
TEST(ExtendedDynamicState3Draws, RasterizationSamples) { check(State::Samples, "rasterization samples"); }
TEST(ExtendedDynamicState3Draws, NullColorBlendAndMultisampleStates) { check(State::NullStates, "null state pointers"); }

}  // namespace
}  // namespace tessera_test
