// A draw that reads what earlier draws of the same subpass wrote, through the loader with
// validation, on Tessera and on lavapipe in the same test. One subpass renders into attachment
// 0; a self-dependency barrier ("Subpass Self-dependency") makes the first draw's colour
// visible to the second, which reads attachment 0 at its own pixel and writes the inverse into
// attachment 0 itself:
//  - as an input attachment (subpassLoad) in the GENERAL layout;
//  - sampled (texelFetch of a combined image sampler) in VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT
//    with VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT (VK_EXT_attachment_feedback_loop_layout).
// Draw 1 is a triangle of one colour (64, 128, 191, 255) over a clear of (26, 51, 77, 255);
// draw 2 covers everything. The spec's rule: every pixel ends as 255 minus what draw 1 left
// there, so it is (191, 127, 64, 0) inside the triangle and (229, 204, 178, 0) outside, and the
// triangle's pixels are lavapipe's. A draw 2 that read the attachment before draw 1 was
// rasterized would leave the inverted clear everywhere.
//
// And without any barrier, in rasterization order (VK_EXT_rasterization_order_attachment_access,
// rasterizationOrderColorAttachmentAccess): a subpass and pipeline flagged for it draw 12
// full-screen triangles (8 instances of one draw, then 4 draws) that each read the attachment
// with subpassLoad and write it one step brighter; every fragment must see the one before it
// ("Rasterization Order"), so every pixel ends at the clear plus 12 in R, G and B.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "single_image_set.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr uint32_t kInsideTriangle = 0x00407FBFu, kOutside = 0x00B2CCE5u;  // RGBA8 read as little-endian words

// Attachment 0 after the two draws; empty on failure.
enum class Read { InputAfterBarrier, SampledFeedbackLoop, InRasterizationOrder };

std::vector<uint32_t> render(VkPhysicalDevice pd, Read read) {
  const bool sampled = read == Read::SampledFeedbackLoop, ordered = read == Read::InRasterizationOrder;
  VkPhysicalDeviceAttachmentFeedbackLoopLayoutFeaturesEXT loop{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_FEATURES_EXT};
  loop.attachmentFeedbackLoopLayout = VK_TRUE;
  VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT order{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT};
  order.rasterizationOrderColorAttachmentAccess = VK_TRUE;
  std::vector<const char*> extensions;
  if (sampled) extensions.push_back(VK_EXT_ATTACHMENT_FEEDBACK_LOOP_LAYOUT_EXTENSION_NAME);
  if (ordered) extensions.push_back(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME);
  TestDevice device(pd, nullptr, sampled ? static_cast<const void*>(&loop) : ordered ? static_cast<const void*>(&order) : nullptr,
                    extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  const VkImageLayout layout = sampled ? VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT : VK_IMAGE_LAYOUT_GENERAL;

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
              (sampled ? VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT
                       : VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
  VkImage image;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);

  VkAttachmentDescription attachment{};
  attachment.format = format;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  VkAttachmentReference color{0, layout}, input{0, layout};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  if (ordered) subpass.flags = VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_COLOR_ACCESS_BIT_EXT;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color;
  if (!sampled) subpass.inputAttachmentCount = 1, subpass.pInputAttachments = &input;
  const VkAccessFlags readAccess = sampled ? VK_ACCESS_SHADER_READ_BIT : VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
  const VkDependencyFlags dependencyFlags =
      VK_DEPENDENCY_BY_REGION_BIT | (sampled ? VkDependencyFlags(VK_DEPENDENCY_FEEDBACK_LOOP_BIT_EXT) : VkDependencyFlags(0));
  VkSubpassDependency self{0, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, readAccess, dependencyFlags};
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = 1;
  rpci.pAttachments = &attachment;
  rpci.subpassCount = 1;
  rpci.pSubpasses = &subpass;
  rpci.dependencyCount = ordered ? 0 : 1;
  rpci.pDependencies = &self;
  VkRenderPass renderPass;
  EXPECT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = 1;
  fci.pAttachments = &view;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  const VkDescriptorType descriptorType =
      sampled ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);
  const SingleImageSet inputSet = makeSingleImageSet(dev, descriptorType, view, layout, sampled ? sampler : VK_NULL_HANDLE);
  const VkDescriptorSetLayout setLayout = inputSet.layout;
  const VkDescriptorPool descriptorPool = inputSet.pool;
  const VkDescriptorSet set = inputSet.set;
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layouts[2];
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[1]);
  plci.setLayoutCount = 0;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[0]);

  const VkShaderModule modules[4] = {device.createShaderModule(loadCorpusShader("draw_basic_vert")),
                                     device.createShaderModule(loadCorpusShader("draw_basic_frag")),
                                     device.createShaderModule(loadCorpusShader("fullscreen_vert")),
                                     device.createShaderModule(loadCorpusShader(
                                         sampled ? "sample_invert_frag" : ordered ? "input_increment_frag" : "input_invert_frag"))};
  // Draw 1: one triangle of one colour (position vec3, colour vec4).
  const float c[4] = {64 / 255.0f, 128 / 255.0f, 191 / 255.0f, 1};
  const float vertices[3][7] = {{-0.83f, -0.91f, 0.5f, c[0], c[1], c[2], c[3]},
                                {0.88f, -0.37f, 0.5f, c[0], c[1], c[2], c[3]},
                                {-0.21f, 0.93f, 0.5f, c[0], c[1], c[2], c[3]}};
  uint8_t* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(sizeof(vertices) + kSize * kSize * 4,
                                              VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              reinterpret_cast<void**>(&mapped));
  std::memcpy(mapped, vertices, sizeof(vertices));

  VkPipeline pipelines[2];
  for (uint32_t p = 0; p < 2; ++p) {
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[2 * p], "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[2 * p + 1], "main",
         nullptr}};
    VkVertexInputBindingDescription vb{0, sizeof(vertices[0]), VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    if (p == 0) vi.vertexBindingDescriptionCount = 1, vi.pVertexBindingDescriptions = &vb, vi.vertexAttributeDescriptionCount = 2,
                vi.pVertexAttributeDescriptions = attrs;
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
    VkRect2D scissor{{0, 0}, {kSize, kSize}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    if (ordered) cb.flags = VK_PIPELINE_COLOR_BLEND_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_BIT_EXT;
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    // The pipeline that samples its own attachment says so (VK_EXT_attachment_feedback_loop_layout).
    if (sampled && p == 1) gpci.flags = VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.layout = layouts[p];
    gpci.renderPass = renderPass;
    gpci.subpass = 0;
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
  VkClearValue clear{};
  clear.color = {{26 / 255.0f, 51 / 255.0f, 77 / 255.0f, 1.0f}};  // exact in 8 bits: no driver rounds them differently
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}},
                             1, &clear};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  VkDeviceSize zero = 0;
  if (ordered) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
    vkCmdDraw(cmd, 3, 8, 0, 0);
    for (int d = 0; d < 4; ++d) vkCmdDraw(cmd, 3, 1, 0, 0);
  } else {
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
  vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &zero);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  // The self-dependency, as the render pass declares it.
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  barrier.dstAccessMask = readAccess;
  barrier.oldLayout = barrier.newLayout = layout;
  barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, dependencyFlags, 0,
                       nullptr, 0, nullptr, 1, &barrier);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndRenderPass(cmd);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  copy.bufferOffset = sizeof(vertices);
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint32_t> out(kSize * kSize);
  std::memcpy(out.data(), mapped + sizeof(vertices), out.size() * 4);

  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  for (VkPipelineLayout l : layouts) vkDestroyPipelineLayout(dev, l, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return out;
}

void check(Read read) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint32_t> ours = render(drivers.tessera, read);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize));
  if (read == Read::InRasterizationOrder) {
    for (uint32_t i = 0; i < ours.size(); ++i)
      ASSERT_EQ(ours[i], 0xFF593F26u) << std::hex << "pixel (" << std::dec << i % kSize << ", " << i / kSize
                                      << "): not the clear plus 12 steps";
  }
  uint32_t inside = 0;
  for (uint32_t i = 0; i < ours.size() && read != Read::InRasterizationOrder; ++i) {
    ASSERT_TRUE(ours[i] == kInsideTriangle || ours[i] == kOutside)
        << "pixel (" << i % kSize << ", " << i / kSize << "): " << std::hex << ours[i] << ", neither inverse";
    inside += ours[i] == kInsideTriangle;
  }
  if (read != Read::InRasterizationOrder) {
    EXPECT_GT(inside, 200u) << "the second draw must see the triangle the first drew";
  }
  if (drivers.lavapipe) {
    const std::vector<uint32_t> reference = render(drivers.lavapipe, read);
    ASSERT_EQ(reference.size(), ours.size());
    for (uint32_t i = 0; i < ours.size(); ++i)
      ASSERT_EQ(ours[i], reference[i]) << std::hex << "pixel (" << std::dec << i % kSize << ", " << i / kSize << "): Tessera vs lavapipe";
  }
}

TEST(SelfDependency, ASecondDrawReadsTheFirstAsAnInputAttachment) { check(Read::InputAfterBarrier); }

TEST(SelfDependency, ASecondDrawSamplesTheFirstInAFeedbackLoopLayout) { check(Read::SampledFeedbackLoop); }

TEST(SelfDependency, FragmentsReadTheirPredecessorsInRasterizationOrder) { check(Read::InRasterizationOrder); }

}  // namespace
}  // namespace tessera_test
