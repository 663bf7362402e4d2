// VK_EXT_shader_stencil_export through the loader with validation, on Tessera and on lavapipe
// in the same test: "Stencil Test" with the reference taken from FragStencilRefEXT.
//
// The scene (32x32, one sample, D32_SFLOAT_S8_UINT cleared to stencil 0, colour cleared to
// black; tests/shaders/stencil_export.frag): draw 1 covers everything with stencil ALWAYS and
// passOp REPLACE, exporting v(x, y) = (8 x + 3 y) mod 256 and writing no colour, so the stencil
// attachment becomes v; draw 2 covers everything with stencil EQUAL, exporting v, plus one
// where x + y is odd, and writes green. Expected: stencil v everywhere, green where x + y is
// even, black where it is odd. The ctest variant api_tests.reference_raster repeats it on the
// reference path.
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

struct Images {
  std::vector<uint32_t> color;  // RGBA8 texels
  std::vector<uint8_t> stencil;
};

uint32_t exported(uint32_t x, uint32_t y) { return (x * 8 + y * 3) & 255; }

Images render(VkPhysicalDevice pd) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13, {VK_EXT_SHADER_STENCIL_EXPORT_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM, dsFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
  const TestDevice::Attachment color = device.createAttachment(
      colorFormat, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment depthStencil =
      device.createAttachment(dsFormat, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  const VkImage images[2] = {color.image, depthStencil.image};
  const VkImageView views[2] = {color.view, depthStencil.view};
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 5, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  const Vertex quad[6] = {{{-1, -1, 0.5f}, {0, 0, 0, 1}}, {{1, -1, 0.5f}, {0, 0, 0, 1}}, {{-1, 1, 0.5f}, {0, 0, 0, 1}},
                          {{1, -1, 0.5f}, {0, 0, 0, 1}},  {{1, 1, 0.5f}, {0, 0, 0, 1}},  {{-1, 1, 0.5f}, {0, 0, 0, 1}}};
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(quad), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, quad, sizeof(quad));

  VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 0, nullptr, 1, &push};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("stencil_export_frag"));
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  const VkVertexInputBindingDescription vertexBinding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                           {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &vertexBinding;
  vi.vertexAttributeDescriptionCount = 2;
  vi.pVertexAttributeDescriptions = attributes;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat,
                                          dsFormat, dsFormat};
  // Draw 1: ALWAYS, REPLACE, no colour; draw 2: EQUAL, KEEP, green.
  VkPipeline pipelines[2] = {};
  for (int p = 0; p < 2; ++p) {
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.stencilTestEnable = VK_TRUE;
    VkStencilOpState face{};
    face.failOp = face.depthFailOp = VK_STENCIL_OP_KEEP;
    face.passOp = p == 0 ? VK_STENCIL_OP_REPLACE : VK_STENCIL_OP_KEEP;
    face.compareOp = p == 0 ? VK_COMPARE_OP_ALWAYS : VK_COMPARE_OP_EQUAL;
    face.compareMask = face.writeMask = 0xFF;
    face.reference = 77;  // replaced by the shader's value
    ds.front = ds.back = face;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = p == 0 ? 0 : 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
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
    gpci.layout = layout;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipelines[p]), VK_SUCCESS);
  }

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
    b[i].subresourceRange = {VkImageAspectFlags(i == 0 ? VK_IMAGE_ASPECT_COLOR_BIT
                                                       : VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT),
                             0, 1, 0, 1};
    b[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b[i].newLayout = i == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    b[i].dstAccessMask = i == 0 ? VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
                                : VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, 0, 0,
                       nullptr, 0, nullptr, 2, b);
  VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAttachment.imageView = views[0];
  colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colorAttachment.clearValue.color = {{0, 0, 0, 1}};
  VkRenderingAttachmentInfo dsAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  dsAttachment.imageView = views[1];
  dsAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  dsAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  dsAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  dsAttachment.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  ri.pDepthAttachment = &dsAttachment;
  ri.pStencilAttachment = &dsAttachment;
  vkCmdBeginRendering(cmd, &ri);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  for (uint32_t p = 0; p < 2; ++p) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[p]);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &p);
    vkCmdDraw(cmd, 6, 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
  b[0].oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b[1].oldLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  b[1].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  for (int i = 0; i < 2; ++i) {
    b[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b[i].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 2, b);
  VkBufferImageCopy colorRegion{};
  colorRegion.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  colorRegion.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, images[0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &colorRegion);
  VkBufferImageCopy stencilRegion{};
  stencilRegion.bufferOffset = kSize * kSize * 4;
  stencilRegion.imageSubresource = {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1};
  stencilRegion.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, images[1], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &stencilRegion);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  Images out;
  out.color.resize(kSize * kSize);
  out.stencil.resize(kSize * kSize);
  std::memcpy(out.color.data(), readMap, kSize * kSize * 4);
  std::memcpy(out.stencil.data(), static_cast<uint8_t*>(readMap) + kSize * kSize * 4, kSize * kSize);
  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return out;
}

void expectSpec(const Images& images, const char* driver) {
  constexpr uint32_t kGreen = 0xFF00FF00u, kBlack = 0xFF000000u;  // RGBA8 read as a little-endian word
  int failures = 0;
  for (uint32_t y = 0; y < kSize && failures < 5; ++y)
    for (uint32_t x = 0; x < kSize && failures < 5; ++x) {
      const uint32_t i = y * kSize + x;
      if (images.stencil[i] != exported(x, y)) {
        ADD_FAILURE() << driver << " pixel (" << x << ", " << y << "): stencil " << int(images.stencil[i]) << ", the spec "
                      << exported(x, y);
        ++failures;
      }
      const uint32_t want = (x + y) % 2 == 0 ? kGreen : kBlack;
      if (images.color[i] != want) {
        ADD_FAILURE() << driver << " pixel (" << x << ", " << y << "): colour " << std::hex << images.color[i]
                      << ", the spec " << want << std::dec;
        ++failures;
      }
    }
}

TEST(StencilExport, TheShadersReferenceIsWrittenAndCompared) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Images ours = render(drivers.tessera);
  ASSERT_EQ(ours.color.size(), size_t(kSize * kSize));
  expectSpec(ours, "Tessera");
  if (drivers.lavapipe) {
    const Images reference = render(drivers.lavapipe);
    ASSERT_EQ(reference.color.size(), ours.color.size());
    expectSpec(reference, "lavapipe");
    EXPECT_EQ(ours.color, reference.color);
    EXPECT_EQ(ours.stencil, reference.stencil);
  }
}

}  // namespace
}  // namespace tessera_test
