// VK_EXT_depth_bias_control through the loader with validation: a flat quad at z_f = 0.25 drawn
// with depth bias into a D32_SFLOAT or D16_UNORM attachment (depth test ALWAYS, writes on), the
// bias's representation set by vkCmdSetDepthBias2EXT over a pipeline that says FLOAT, each
// stored depth compared with "Depth Bias
// Computation": r = 1 for FLOAT, the constant 2^-n for FORCE_UNORM (n = 16 for D16, the 23
// mantissa bits plus one for D32), the format's r otherwise (2^(e - 23) with e = -2 for
// z = 0.25 in D32, 2^-16 in D16). Tessera only: lavapipe 22.3.6 lacks the extension.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 8;
constexpr float kQuadZ = 0.25f;

// The extension's structures and values, as the later headers define them (Debian 12's
// headers predate the extension).
constexpr VkStructureType kFeaturesType = VkStructureType(1000283000);
constexpr VkStructureType kDepthBiasInfoType = VkStructureType(1000283001);
constexpr VkStructureType kRepresentationInfoType = VkStructureType(1000283002);
enum Representation : int32_t { kFormat = 0, kForceUnorm = 1, kFloat = 2 };
struct Features {
  VkStructureType sType = kFeaturesType;
  void* pNext = nullptr;
  VkBool32 depthBiasControl = VK_FALSE, leastRepresentableValueForceUnormRepresentation = VK_FALSE, floatRepresentation = VK_FALSE,
           depthBiasExact = VK_FALSE;
};
struct DepthBiasInfo {
  VkStructureType sType = kDepthBiasInfoType;
  const void* pNext = nullptr;
  float depthBiasConstantFactor = 0, depthBiasClamp = 0, depthBiasSlopeFactor = 0;
};
struct RepresentationInfo {
  VkStructureType sType = kRepresentationInfoType;
  const void* pNext = nullptr;
  int32_t depthBiasRepresentation = kFormat;
  VkBool32 depthBiasExact = VK_TRUE;
};
using SetDepthBias2 = void(VKAPI_PTR*)(VkCommandBuffer, const DepthBiasInfo*);

enum class Source { SetDepthBias2, SetDepthBias2WithoutInfo, SetDepthBiasAfterARepresentation };

struct Case {
  const char* name;
  VkFormat format;
  Source source;
  Representation representation;
  float constantFactor;
  double expected;  // z_f + o by "Depth Bias Computation"
};

// The stored depth of the quad's pixels (all equal: the quad is flat).
std::vector<float> render(const DualDriverInstance& drivers, const Case& c) {
  Features enable;
  enable.depthBiasControl = enable.leastRepresentableValueForceUnormRepresentation = enable.floatRepresentation =
      enable.depthBiasExact = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &enable};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(drivers.tessera, nullptr, &v13, {"VK_EXT_depth_bias_control"});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const auto setDepthBias2 = reinterpret_cast<SetDepthBias2>(vkGetDeviceProcAddr(dev, "vkCmdSetDepthBias2EXT"));
  EXPECT_NE(setDepthBias2, nullptr);
  if (!setDepthBias2) return {};

  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  const TestDevice::Attachment color =
      device.createAttachment(colorFormat, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment depth = device.createAttachment(
      c.format, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
  const uint32_t texel = c.format == VK_FORMAT_D16_UNORM ? 2 : 4;
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * texel, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  struct Vertex {
    float pos[3];
    float color[4];
  };
  const Vertex quad[6] = {{{-1, -1, kQuadZ}, {1, 1, 1, 1}}, {{1, -1, kQuadZ}, {1, 1, 1, 1}}, {{-1, 1, kQuadZ}, {1, 1, 1, 1}},
                          {{1, -1, kQuadZ}, {1, 1, 1, 1}},  {{1, 1, kQuadZ}, {1, 1, 1, 1}},  {{-1, 1, kQuadZ}, {1, 1, 1, 1}}};
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(quad), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, quad, sizeof(quad));

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
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
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  // The pipeline says FLOAT, which the dynamic depth bias state replaces (a command that did
  // not would show).
  RepresentationInfo pipelineRepresentation;
  pipelineRepresentation.depthBiasRepresentation = kFloat;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, &pipelineRepresentation};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  rs.depthBiasEnable = VK_TRUE;
  rs.depthBiasConstantFactor = c.constantFactor;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = VK_TRUE;
  ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState dynamicBias = VK_DYNAMIC_STATE_DEPTH_BIAS;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicBias};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat, c.format};
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
  gpci.pDynamicState = &dyn;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandBuffer cmd = device.beginCommands();
  const VkImageSubresourceRange depthRange{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  imageBarrier(cmd, color.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  imageBarrier(cmd, depth.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 0,
               VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, depthRange);
  VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAttachment.imageView = color.view;
  colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depthAttachment.imageView = depth.view;
  depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depthAttachment.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  ri.pDepthAttachment = &depthAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  RepresentationInfo commandRepresentation;
  commandRepresentation.depthBiasRepresentation = c.representation;
  DepthBiasInfo info;
  info.depthBiasConstantFactor = c.constantFactor;
  switch (c.source) {
    case Source::SetDepthBias2: info.pNext = &commandRepresentation; setDepthBias2(cmd, &info); break;
    case Source::SetDepthBias2WithoutInfo: setDepthBias2(cmd, &info); break;
    case Source::SetDepthBiasAfterARepresentation:
      // A representation set first, then vkCmdSetDepthBias: "equivalent to calling
      // vkCmdSetDepthBias2EXT without a VkDepthBiasRepresentationInfoEXT".
      commandRepresentation.depthBiasRepresentation = kFloat;
      info.pNext = &commandRepresentation;
      setDepthBias2(cmd, &info);
      vkCmdSetDepthBias(cmd, c.constantFactor, 0, 0);
      break;
  }
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  vkCmdDraw(cmd, 6, 1, 0, 0);
  vkCmdEndRendering(cmd);
  imageBarrier(cmd, depth.image, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT, depthRange);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, depth.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  transferToHostBarrier(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<float> out(kSize * kSize);
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    if (texel == 2) {
      uint16_t v;
      std::memcpy(&v, static_cast<uint8_t*>(readMap) + 2 * i, 2);
      out[i] = float(v) / 65535.0f;
    } else {
      std::memcpy(&out[i], static_cast<uint8_t*>(readMap) + 4 * i, 4);
    }
  }
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return out;
}

TEST(DepthBiasControl, EachRepresentationGivesTheSpecsMinimumResolvableDifference) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's extension";
  const double d16 = std::ldexp(1.0, -16);
  // The representation comes from vkCmdSetDepthBias2EXT here: the validation layers' copy of
  // the pipeline create info drops the structure they do not know, so a pipeline's
  // representation cannot reach the driver through them (tests/unit/icd/depth_bias_control_test.cpp
  // reads it from a chain; the CTS's static depth_bias_control cases draw with it).
  const Case cases[] = {
      // FLOAT: r = 1, the constant factor is the offset itself.
      {"FLOAT, D32", VK_FORMAT_D32_SFLOAT, Source::SetDepthBias2, kFloat, 0.125f, 0.375},
      {"FLOAT, D16", VK_FORMAT_D16_UNORM, Source::SetDepthBias2, kFloat, 0.25f, 0.5},
      // FORCE_UNORM on D32: the constant 2^-24 (mantissa bits plus one), where the format's r at
      // z = 0.25 is 2^-25; on D16 2^-16, the format's.
      {"FORCE_UNORM, D32", VK_FORMAT_D32_SFLOAT, Source::SetDepthBias2, kForceUnorm, 4096, 0.25 + std::ldexp(1.0, -12)},
      {"FORCE_UNORM, D16", VK_FORMAT_D16_UNORM, Source::SetDepthBias2, kForceUnorm, 1000, 0.25 + 1000 * d16},
      // The format's r: explicitly, without the structure, and after vkCmdSetDepthBias.
      {"FORMAT, D32", VK_FORMAT_D32_SFLOAT, Source::SetDepthBias2, kFormat, 4096, 0.25 + std::ldexp(1.0, -13)},
      {"vkCmdSetDepthBias2EXT without the structure, D32", VK_FORMAT_D32_SFLOAT, Source::SetDepthBias2WithoutInfo, kFormat, 4096,
       0.25 + std::ldexp(1.0, -13)},
      {"vkCmdSetDepthBias after a FLOAT representation, D16", VK_FORMAT_D16_UNORM, Source::SetDepthBiasAfterARepresentation, kFormat, 1000,
       0.25 + 1000 * d16}};
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  // The installed validation layers (1.3.239) predate the extension: they take its feature
  // structure and the pipeline's representation structure for unknown ones, and do not see
  // vkCmdSetDepthBias2EXT (the loader hands it to the driver directly), so they report the
  // dynamic depth bias as never set (under another state's name: VUID-vkCmdDraw-commandBuffer-02701).
  drivers.tolerate("VUID-VkDeviceCreateInfo-pNext-pNext");
  drivers.tolerate("VUID-VkPipelineRasterizationStateCreateInfo-pNext-pNext");
  drivers.tolerate("VUID-vkCmdDraw-commandBuffer-02701");
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<float> depth = render(drivers, c);
    ASSERT_EQ(depth.size(), size_t(kSize * kSize));
    // D16 stores the nearest of 65536 steps: within half a step; D32 exactly, but for the
    // float rounding of z + o.
    const double tolerance = c.format == VK_FORMAT_D16_UNORM ? 0.51 / 65535 : 1e-7;
    for (float z : depth) {
      EXPECT_NEAR(z, c.expected, tolerance);
      if (std::fabs(z - c.expected) > tolerance) break;
    }
  }
}

}  // namespace
}  // namespace tessera_test
