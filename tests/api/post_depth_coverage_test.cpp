// VK_EXT_post_depth_coverage through the loader with validation, on Tessera and on lavapipe in
// the same test. "Built-In Variables", SampleMask: with the PostDepthCoverage execution mode
// (and early fragment tests) SampleMaskIn reflects the coverage after the early depth test;
// without it, the rasterized coverage.
//
// The scene: 4 samples, a D32_SFLOAT attachment cleared to 0.5, depth test LESS without
// writes, one triangle over the lower left half of the 32x32 viewport ((-1, -1), (1, -1),
// (-1, 1): its vertices on the viewport's corners, so no driver clips or splits it) whose
// z_d = 0.5 + 0.1 x_d + 0.07 y_d, so the plane crosses 0.5 along a slanted line and the pixels
// along it have only some samples in front. The fragment shader stores its SampleMaskIn at its pixel in a
// storage buffer (post_depth_coverage.frag, sample_mask_in_store.frag). Expected masks come
// from the standard 4-sample locations ("Multisampling": (0.375, 0.125), (0.875, 0.375),
// (0.125, 0.625), (0.625, 0.875)), the triangle's edge x_d + y_d = 0 (no sample lies on it)
// and the plane; pixels with a sample within 1e-4 of the plane's 0.5 are not judged. The ctest variant api_tests.reference_raster repeats it on the reference path.
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

constexpr uint32_t kSize = 32;
constexpr uint32_t kUnshaded = 0xFFFFFFFFu;  // the buffer's value where no fragment ran
constexpr double kSampleLocations[4][2] = {{0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};

struct Vertex {
  float pos[3];
  float color[4];
};

double planeDepth(double xd, double yd) { return 0.5 + 0.1 * xd + 0.07 * yd; }

// Each pixel's stored SampleMaskIn (kUnshaded where no fragment ran); empty on failure.
std::vector<uint32_t> render(VkPhysicalDevice pd, bool postDepthCoverage) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.fragmentStoresAndAtomics = VK_TRUE;
  std::vector<const char*> extensions;
  if (postDepthCoverage) extensions.push_back(VK_EXT_POST_DEPTH_COVERAGE_EXTENSION_NAME);
  TestDevice device(pd, &features, &v13, extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat depthFormat = VK_FORMAT_D32_SFLOAT;
  const TestDevice::Attachment depthTarget = device.createAttachment(
      depthFormat, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_SAMPLE_COUNT_4_BIT);
  const VkImage depth = depthTarget.image;
  const VkImageView depthView = depthTarget.view;

  void* maskMap;
  VkBuffer masks = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &maskMap);
  std::memset(maskMap, 0xFF, kSize * kSize * 4);
  // The triangle (-1, -1), (1, -1), (-1, 1) on the plane.
  Vertex triangle[3] = {{{-1, -1, 0}, {0, 0, 0, 1}}, {{1, -1, 0}, {0, 0, 0, 1}}, {{-1, 1, 0}, {0, 0, 0, 1}}};
  for (Vertex& v : triangle) v.pos[2] = float(planeDepth(v.pos[0], v.pos[1]));
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(triangle), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, triangle, sizeof(triangle));

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dl, nullptr, &setLayout);
  VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &push};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  VkDescriptorBufferInfo bufferInfo{masks, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                             nullptr, &bufferInfo, nullptr};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs =
      device.createShaderModule(loadCorpusShader(postDepthCoverage ? "post_depth_coverage_frag" : "sample_mask_in_store_frag"));
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
  ms.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = VK_TRUE;
  ds.depthWriteEnable = VK_FALSE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 0, nullptr, depthFormat};
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
  VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toAttachment.image = depth;
  toAttachment.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toAttachment.newLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  toAttachment.dstAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toAttachment);
  VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depthAttachment.imageView = depthView;
  depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depthAttachment.clearValue.depthStencil = {0.5f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.pDepthAttachment = &depthAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  const uint32_t width = kSize;
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &width);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  std::vector<uint32_t> out(kSize * kSize);
  std::memcpy(out.data(), maskMap, out.size() * 4);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, masks, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return out;
}

// The samples of pixel (x, y) inside the triangle (`covered`) and those of them in front of the
// cleared 0.5 (returned); `judged`: the samples far enough from the plane's 0.5 for any
// rounding to agree.
uint32_t passingSamples(uint32_t x, uint32_t y, uint32_t* covered, uint32_t* judged) {
  uint32_t pass = 0;
  *judged = *covered = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    const double xd = (x + kSampleLocations[k][0]) / (kSize / 2.0) - 1, yd = (y + kSampleLocations[k][1]) / (kSize / 2.0) - 1;
    const double z = planeDepth(xd, yd);
    if (std::fabs(z - 0.5) > 1e-4) *judged |= 1u << k;
    if (xd + yd < 0) *covered |= 1u << k;  // "Basic Polygon Rasterization": inside the edge x + y = 0
    if (xd + yd < 0 && z < 0.5) pass |= 1u << k;
  }
  return pass;
}

// Compares one driver's masks with the spec's: a fragment runs where some covered sample passes
// the early test, and stores the passing samples (post-depth coverage) or the covered ones.
void expectMasks(const std::vector<uint32_t>& masks, bool postDepthCoverage, const char* driver, uint32_t* partialPixels) {
  int failures = 0;
  for (uint32_t y = 0; y < kSize && failures < 5; ++y)
    for (uint32_t x = 0; x < kSize && failures < 5; ++x) {
      uint32_t covered, judged;
      const uint32_t pass = passingSamples(x, y, &covered, &judged);
      const uint32_t got = masks[y * kSize + x];
      if (judged != 0xF) continue;  // a sample on the plane's 0.5: rounding decides
      if (pass != 0 && pass != covered) ++*partialPixels;
      const uint32_t want = pass == 0 ? kUnshaded : postDepthCoverage ? pass : covered;
      if (got != want) {
        ADD_FAILURE() << driver << " pixel (" << x << ", " << y << "): SampleMaskIn " << std::hex << got << ", the spec "
                      << want << std::dec;
        ++failures;
      }
    }
}

TEST(PostDepthCoverage, SampleMaskInHoldsTheSamplesThatPassedTheEarlyDepthTest) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (bool post : {true, false}) {
    SCOPED_TRACE(post ? "PostDepthCoverage" : "without PostDepthCoverage");
    const std::vector<uint32_t> ours = render(drivers.tessera, post);
    ASSERT_EQ(ours.size(), size_t(kSize * kSize));
    uint32_t partial = 0;
    expectMasks(ours, post, "Tessera", &partial);
    EXPECT_GT(partial, 10u) << partial << ": the scene should have many pixels with only some samples in front";
    if (drivers.lavapipe) {
      const std::vector<uint32_t> reference = render(drivers.lavapipe, post);
      ASSERT_EQ(reference.size(), ours.size());
      uint32_t ignored = 0;
      expectMasks(reference, post, "lavapipe", &ignored);
      for (uint32_t i = 0; i < kSize * kSize; ++i) {
        uint32_t covered, judged;
        passingSamples(i % kSize, i / kSize, &covered, &judged);
        if (judged == 0xF) {
          EXPECT_EQ(ours[i], reference[i]) << "pixel (" << i % kSize << ", " << i / kSize << "): Tessera vs lavapipe";
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
