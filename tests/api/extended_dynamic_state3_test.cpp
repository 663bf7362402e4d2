// VK_EXT_extended_dynamic_state3 through the loader with validation, on Tessera and on
// lavapipe in the same test ("Dynamic State": a state the pipeline lists as dynamic takes the
// command buffer's value, set by vkCmdSet*EXT, instead of the pipeline's). For each offered
// state, each of two values is drawn twice per driver: by a pipeline that has it as static
// state and by one that has the state dynamic (with the other value as its static one) and
// sets it. The two images must be equal on each driver, Tessera's dynamic image must be
// lavapipe's static one (where the two drivers agree on the static state: polygon mode LINE draws slanted
// edges differently, draw_test.cpp, and lines are compared on each driver only), and the values
// must give different images (so the state is seen at all).
//
// The scene (32x32, RGBA8 and D32_SFLOAT cleared to 1, depth test LESS, tests/shaders/draw_basic.vert
// and draw_basic_flat.frag): two triangles with a colour per vertex, one of them with z_d from
// -0.5 to 1.5 (so depth clamping decides which part is drawn) over the other at z_d = 0.5.
//  - POLYGON_MODE_EXT: FILL and LINE (fillModeNonSolid);
//  - DEPTH_CLAMP_ENABLE_EXT: off (the parts beyond the depth range are clipped) and on;
//  - PROVOKING_VERTEX_MODE_EXT: FIRST and LAST (VK_EXT_provoking_vertex; the flat colour);
//  - DEPTH_CLIP_ENABLE_EXT: on and off (VK_EXT_depth_clip_enable);
//  - DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT: [0, 1] and [-1, 1] (VK_EXT_depth_clip_control);
//  - ALPHA_TO_ONE_ENABLE_EXT: off and on (the colours' alpha is 0.5);
//  - SAMPLE_MASK_EXT: 1 and 0;
//  - LINE_RASTERIZATION_MODE_EXT: RECTANGULAR and BRESENHAM, the triangles' vertices drawn as a
//    line list (VK_EXT_line_rasterization);
//  - LINE_STIPPLE_ENABLE_EXT: off and on (Bresenham lines, factor 1, pattern 0x00FF).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
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

enum class State { PolygonMode, DepthClamp, ProvokingVertex, DepthClip, NegativeOneToOne, AlphaToOne, SampleMask, LineMode, LineStipple };

// The image of the scene with `value` (0 or 1) of `state`, static or set dynamically; empty on failure.
std::vector<uint32_t> render(VkPhysicalDevice pd, State state, int value, bool dynamic) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT, &v13};
  eds3.extendedDynamicState3PolygonMode = VK_TRUE;
  eds3.extendedDynamicState3DepthClampEnable = VK_TRUE;
  eds3.extendedDynamicState3ProvokingVertexMode = VK_TRUE;
  eds3.extendedDynamicState3DepthClipEnable = VK_TRUE;
  eds3.extendedDynamicState3DepthClipNegativeOneToOne = VK_TRUE;
  eds3.extendedDynamicState3AlphaToOneEnable = VK_TRUE;
  eds3.extendedDynamicState3SampleMask = VK_TRUE;
  eds3.extendedDynamicState3LineRasterizationMode = VK_TRUE;
  eds3.extendedDynamicState3LineStippleEnable = VK_TRUE;
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT, &eds3};
  provoking.provokingVertexLast = VK_TRUE;
  VkPhysicalDeviceDepthClipEnableFeaturesEXT clipEnable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT, &provoking};
  clipEnable.depthClipEnable = VK_TRUE;
  VkPhysicalDeviceDepthClipControlFeaturesEXT clipControl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT, &clipEnable};
  clipControl.depthClipControl = VK_TRUE;
  VkPhysicalDeviceLineRasterizationFeaturesEXT lines{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT, &clipControl};
  lines.rectangularLines = lines.bresenhamLines = lines.stippledBresenhamLines = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.fillModeNonSolid = VK_TRUE;
  features.depthClamp = VK_TRUE;
  features.alphaToOne = VK_TRUE;
  TestDevice device(pd, &features, &lines,
                    {VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_PROVOKING_VERTEX_EXTENSION_NAME,
                     VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME,
                     VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT};
  const TestDevice::Attachment color = device.createAttachment(
      formats[0], kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment depth =
      device.createAttachment(formats[1], kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
  const VkImage images[2] = {color.image, depth.image};
  const VkImageView views[2] = {color.view, depth.view};
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  const Vertex triangles[6] = {{{-0.9f, -0.9f, 0.5f}, {1, 0, 0, 0.5f}},   {{0.9f, -0.7f, 0.5f}, {0, 1, 0, 0.5f}},
                               {{-0.6f, 0.9f, 0.5f}, {0, 0, 1, 0.5f}},    {{-0.95f, 0.1f, -0.5f}, {1, 1, 0, 0.5f}},
                               {{0.95f, -0.2f, 1.5f}, {0, 1, 1, 0.5f}},   {{0.95f, 0.8f, 1.5f}, {1, 0, 1, 0.5f}}};
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(triangles), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, triangles, sizeof(triangles));

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_flat_frag"));
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                           {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &binding;
  vi.vertexAttributeDescriptionCount = 2;
  vi.pVertexAttributeDescriptions = attributes;
  const bool lineCase = state == State::LineMode || state == State::LineStipple;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = lineCase ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportDepthClipControlCreateInfoEXT clipControlState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, &clipControlState, 0, 1, &viewport, 1, &scissor};
  // The static state: the case's value, or (dynamic) the other one, which the command overrides.
  const int staticValue = dynamic ? 1 - value : value;
  VkPipelineRasterizationProvokingVertexStateCreateInfoEXT provokingState{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
  provokingState.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
  VkPipelineRasterizationDepthClipStateCreateInfoEXT clipState{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
                                                               &provokingState};
  clipState.depthClipEnable = VK_TRUE;
  // The depth clip structure only where its state is tested: present, it decides clipping
  // instead of depthClampEnable.
  VkPipelineRasterizationLineStateCreateInfoEXT lineState{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT,
                                                          state == State::DepthClip ? static_cast<void*>(&clipState)
                                                                                    : static_cast<void*>(&provokingState)};
  lineState.lineRasterizationMode = lineCase ? VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT : VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  lineState.lineStippleFactor = 1;
  lineState.lineStipplePattern = 0x00FF;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, &lineState};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkDynamicState dynamicState = VK_DYNAMIC_STATE_POLYGON_MODE_EXT;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkSampleMask sampleMask = 1;
  switch (state) {
    case State::PolygonMode:
      rs.polygonMode = staticValue ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL;
      dynamicState = VK_DYNAMIC_STATE_POLYGON_MODE_EXT;
      break;
    case State::DepthClamp:
      rs.depthClampEnable = VkBool32(staticValue);
      dynamicState = VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT;
      break;
    case State::ProvokingVertex:
      provokingState.provokingVertexMode = staticValue ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
      dynamicState = VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT;
      break;
    case State::DepthClip:
      clipState.depthClipEnable = VkBool32(!staticValue);
      dynamicState = VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT;
      break;
    case State::NegativeOneToOne:
      clipControlState.negativeOneToOne = VkBool32(staticValue);
      dynamicState = VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT;
      break;
    case State::AlphaToOne:
      ms.alphaToOneEnable = VkBool32(staticValue);
      dynamicState = VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT;
      break;
    case State::SampleMask:
      sampleMask = staticValue ? 0 : 1;
      ms.pSampleMask = &sampleMask;
      dynamicState = VK_DYNAMIC_STATE_SAMPLE_MASK_EXT;
      break;
    case State::LineMode:
      lineState.lineRasterizationMode = staticValue ? VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT : VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
      dynamicState = VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT;
      break;
    case State::LineStipple:
      lineState.stippledLineEnable = VkBool32(staticValue);
      dynamicState = VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT;
      break;
  }
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicState};
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = VK_TRUE;
  ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &formats[0], formats[1]};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pDepthStencilState = &ds;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = dynamic ? &dyn : nullptr;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b[2] = {{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}, {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}};
  for (int i = 0; i < 2; ++i) {
    b[i].srcQueueFamilyIndex = b[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b[i].image = images[i];
    b[i].subresourceRange = {VkImageAspectFlags(i == 0 ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_DEPTH_BIT), 0, 1, 0, 1};
    b[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b[i].newLayout = i == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    b[i].dstAccessMask = i == 0 ? VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
                                : VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, 0, 0,
                       nullptr, 0, nullptr, 2, b);
  VkRenderingAttachmentInfo attachments[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                              {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
  for (int i = 0; i < 2; ++i) {
    attachments[i].imageView = views[i];
    attachments[i].imageLayout = i == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    attachments[i].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachments[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  attachments[0].clearValue.color = {{0, 0, 0, 1}};
  attachments[1].clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachments[0];
  ri.pDepthAttachment = &attachments[1];
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (dynamic) {
    // Extension commands come from the device (the loader's library does not export them).
    auto setPolygonMode = reinterpret_cast<PFN_vkCmdSetPolygonModeEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetPolygonModeEXT"));
    auto setDepthClamp = reinterpret_cast<PFN_vkCmdSetDepthClampEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetDepthClampEnableEXT"));
    auto setProvoking =
        reinterpret_cast<PFN_vkCmdSetProvokingVertexModeEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetProvokingVertexModeEXT"));
    auto setDepthClip = reinterpret_cast<PFN_vkCmdSetDepthClipEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetDepthClipEnableEXT"));
    auto setNegativeOneToOne = reinterpret_cast<PFN_vkCmdSetDepthClipNegativeOneToOneEXT>(
        vkGetDeviceProcAddr(dev, "vkCmdSetDepthClipNegativeOneToOneEXT"));
    auto setAlphaToOne = reinterpret_cast<PFN_vkCmdSetAlphaToOneEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetAlphaToOneEnableEXT"));
    auto setSampleMask = reinterpret_cast<PFN_vkCmdSetSampleMaskEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetSampleMaskEXT"));
    auto setLineMode =
        reinterpret_cast<PFN_vkCmdSetLineRasterizationModeEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetLineRasterizationModeEXT"));
    auto setLineStipple = reinterpret_cast<PFN_vkCmdSetLineStippleEnableEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetLineStippleEnableEXT"));
    const bool all = setPolygonMode && setDepthClamp && setProvoking && setDepthClip && setNegativeOneToOne && setAlphaToOne &&
                     setSampleMask && setLineMode && setLineStipple;
    EXPECT_TRUE(all);
    if (!all) return {};
    const VkSampleMask mask = value ? 0 : 1;
    switch (state) {
      case State::PolygonMode: setPolygonMode(cmd, value ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL); break;
      case State::DepthClamp: setDepthClamp(cmd, VkBool32(value)); break;
      case State::ProvokingVertex:
        setProvoking(cmd, value ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT);
        break;
      case State::DepthClip: setDepthClip(cmd, VkBool32(!value)); break;
      case State::NegativeOneToOne: setNegativeOneToOne(cmd, VkBool32(value)); break;
      case State::AlphaToOne: setAlphaToOne(cmd, VkBool32(value)); break;
      case State::SampleMask: setSampleMask(cmd, VK_SAMPLE_COUNT_1_BIT, &mask); break;
      case State::LineMode:
        setLineMode(cmd, value ? VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT : VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT);
        break;
      case State::LineStipple: setLineStipple(cmd, VkBool32(value)); break;
    }
  }
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  vkCmdDraw(cmd, 6, 1, 0, 0);
  vkCmdEndRendering(cmd);
  b[0].oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b[0].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b[0].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, images[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  std::vector<uint32_t> out(kSize * kSize);
  std::memcpy(out.data(), readMap, out.size() * 4);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return out;
}

void check(State state, const char* name) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<uint32_t> ours[2];
  for (int value = 0; value < 2; ++value) {
    SCOPED_TRACE(std::string(name) + " value " + std::to_string(value));
    ours[value] = render(drivers.tessera, state, value, true);
    const std::vector<uint32_t> ourStatic = render(drivers.tessera, state, value, false);
    ASSERT_EQ(ours[value].size(), size_t(kSize * kSize));
    EXPECT_EQ(ours[value], ourStatic) << "Tessera: the dynamic value draws what the same static value draws";
    if (!drivers.lavapipe) continue;
    // lavapipe's static state is the oracle; its dynamic state must agree with it too, except
    // alpha to one: lavapipe 22.3 ignores vkCmdSetAlphaToOneEnableEXT (measured here: its
    // dynamic image differs from its static one and from Tessera's, which equals lavapipe's
    // static image).
    const std::vector<uint32_t> theirs = render(drivers.lavapipe, state, value, false);
    if (state != State::AlphaToOne) {
      EXPECT_EQ(render(drivers.lavapipe, state, value, true), theirs) << "lavapipe: dynamic and static agree";
    }
    // Polygon mode LINE: the drivers draw slanted edges differently (draw_test.cpp); lines too.
    const bool lines = (state == State::PolygonMode && value == 1) || state == State::LineMode || state == State::LineStipple;
    if (!lines) {
      EXPECT_EQ(ours[value], theirs) << "Tessera vs lavapipe";
    }
  }
  EXPECT_NE(ours[0], ours[1]) << "the two values should draw different images";
}

TEST(ExtendedDynamicState3, PolygonMode) { check(State::PolygonMode, "polygon mode"); }
TEST(ExtendedDynamicState3, DepthClampEnable) { check(State::DepthClamp, "depth clamp"); }
TEST(ExtendedDynamicState3, ProvokingVertexMode) { check(State::ProvokingVertex, "provoking vertex"); }
TEST(ExtendedDynamicState3, DepthClipEnable) { check(State::DepthClip, "depth clip"); }
TEST(ExtendedDynamicState3, DepthClipNegativeOneToOne) { check(State::NegativeOneToOne, "negative one to one"); }
TEST(ExtendedDynamicState3, AlphaToOneEnable) { check(State::AlphaToOne, "alpha to one"); }
TEST(ExtendedDynamicState3, SampleMask) { check(State::SampleMask, "sample mask"); }
TEST(ExtendedDynamicState3, LineRasterizationMode) { check(State::LineMode, "line rasterization mode"); }
TEST(ExtendedDynamicState3, LineStippleEnable) { check(State::LineStipple, "line stipple"); }

}  // namespace
}  // namespace tessera_test
