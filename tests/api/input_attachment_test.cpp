// Input attachments through a two-subpass render pass ("Render Pass", "Input Attachments"):
// subpass 0 draws a triangle with a colour gradient into attachment 0; subpass 1 draws a
// full-screen triangle that reads attachment 0 at its own pixel with subpassLoad and writes the
// inverse into attachment 1. The oracle is computed from the spec's rule: attachment 1 is
// 255 - attachment 0 at every pixel (for 4 samples: the inverse of the mean of the samples, so
// the single-sample attachment 1 must equal 255 minus the resolved value within rounding), and
// attachment 0 itself is compared with lavapipe's in the same test.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "single_image_set.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;

struct Result {
  std::vector<uint8_t> first, second;  // attachment 0 (resolved when multisampled), attachment 1
};

Result renderTwoSubpasses(VkPhysicalDevice pd, VkSampleCountFlagBits samples) {
  Result result;
  TestDevice device(pd);
  const VkDevice dev = device.dev;
  if (!dev) return result;
  const bool multisampled = samples != VK_SAMPLE_COUNT_1_BIT;
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;

  // Attachments: 0 (samples; the input of subpass 1), 1 (the inverse, one sample), 2 (the
  // resolve of 0 at the end of subpass 0, multisampled only).
  auto makeImage = [&](VkSampleCountFlagBits s, VkImageUsageFlags usage, VkImage* image, VkImageView* view) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = s;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    vkCreateImage(dev, &ici, nullptr, image);
    device.bindMemory(*image);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = *image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCreateImageView(dev, &vci, nullptr, view);
  };
  VkImage images[3] = {};
  VkImageView views[3] = {};
  makeImage(samples,
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                (multisampled ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
            &images[0], &views[0]);
  makeImage(VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &images[1], &views[1]);
  if (multisampled)
    makeImage(VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, &images[2], &views[2]);
  const uint32_t attachmentCount = multisampled ? 3 : 2;

  VkAttachmentDescription attachments[3] = {};
  for (uint32_t a = 0; a < attachmentCount; ++a) {
    attachments[a].format = format;
    attachments[a].samples = a == 0 ? samples : VK_SAMPLE_COUNT_1_BIT;
    attachments[a].loadOp = a == 0 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[a].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachments[a].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[a].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[a].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    // The multisampled attachment 0 is not copied (its resolve, attachment 2, is).
    attachments[a].finalLayout = a == 0 && multisampled ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  VkAttachmentReference color0{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference resolve0{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkAttachmentReference input0{0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkAttachmentReference color1{1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = 1;
  subpasses[0].pColorAttachments = &color0;
  subpasses[0].pResolveAttachments = multisampled ? &resolve0 : nullptr;
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &input0;
  subpasses[1].colorAttachmentCount = 1;
  subpasses[1].pColorAttachments = &color1;
  VkSubpassDependency dependency{0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
                                 VK_DEPENDENCY_BY_REGION_BIT};
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = attachmentCount;
  rpci.pAttachments = attachments;
  rpci.subpassCount = 2;
  rpci.pSubpasses = subpasses;
  rpci.dependencyCount = 1;
  rpci.pDependencies = &dependency;
  VkRenderPass renderPass;
  vkCreateRenderPass(dev, &rpci, nullptr, &renderPass);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = attachmentCount;
  fci.pAttachments = views;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  const SingleImageSet inputSet = makeSingleImageSet(dev, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  const VkDescriptorSetLayout setLayout = inputSet.layout;
  const VkDescriptorPool descriptorPool = inputSet.pool;
  const VkDescriptorSet set = inputSet.set;
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layouts[2];
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[1]);
  plci.setLayoutCount = 0;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[0]);

  auto module = [&](const char* name) {
    std::vector<uint32_t> code = loadCorpusShader(name);
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code.size() * 4, code.data()};
    VkShaderModule m;
    vkCreateShaderModule(dev, &smci, nullptr, &m);
    return m;
  };
  VkShaderModule modules[4] = {module("draw_basic_vert"), module("draw_basic_frag"), module("fullscreen_vert"),
                               module(multisampled ? "input_invert_ms_frag" : "input_invert_frag")};
  // Subpass 0: one triangle with a colour per vertex (position vec3, colour vec4).
  const float vertices[3][7] = {{-0.83f, -0.91f, 0.5f, 1, 0, 0, 1}, {0.88f, -0.37f, 0.5f, 0, 1, 0, 1},
                                {-0.21f, 0.93f, 0.5f, 0, 0, 1, 1}};
  // The vertices, then two read-back images.
  uint8_t* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(sizeof(vertices) + 2 * kSize * kSize * 4,
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
    ms.rasterizationSamples = p == 0 ? samples : VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
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
    gpci.subpass = p;
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
  VkClearValue clears[3] = {};
  clears[0].color = {{0.1f, 0.2f, 0.3f, 1.0f}};
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}},
                             attachmentCount, clears};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  VkDeviceSize zero = 0;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
  vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &zero);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRenderPass(cmd);
  // Read back the single-sample view of attachment 0 (its resolve when multisampled) and 1.
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  copy.bufferOffset = sizeof(vertices);
  vkCmdCopyImageToBuffer(cmd, images[multisampled ? 2 : 0], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  copy.bufferOffset += kSize * kSize * 4;
  vkCmdCopyImageToBuffer(cmd, images[1], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  result.first.assign(mapped + sizeof(vertices), mapped + sizeof(vertices) + kSize * kSize * 4);
  result.second.assign(mapped + sizeof(vertices) + kSize * kSize * 4, mapped + sizeof(vertices) + 2 * kSize * kSize * 4);

  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  for (VkPipelineLayout l : layouts) vkDestroyPipelineLayout(dev, l, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  for (uint32_t a = 0; a < attachmentCount; ++a) vkDestroyImageView(dev, views[a], nullptr), vkDestroyImage(dev, images[a], nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return result;
}

void checkInverse(VkSampleCountFlagBits samples) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  Result ours = renderTwoSubpasses(drivers.tessera, samples);
  ASSERT_EQ(ours.first.size(), size_t(kSize * kSize * 4));
  // Attachment 1 is the inverse of attachment 0 at every pixel; with 4 samples the mean of the
  // samples may round differently from the resolve by one unit.
  const int tolerance = samples == VK_SAMPLE_COUNT_1_BIT ? 0 : 1;
  uint32_t wrong = 0, triangle = 0;
  for (size_t i = 0; i < ours.first.size(); ++i) {
    if (std::abs(int(ours.second[i]) - (255 - int(ours.first[i]))) > tolerance && wrong++ < 5)
      ADD_FAILURE() << "pixel " << i / 4 << " channel " << i % 4 << ": attachment 0 " << int(ours.first[i])
                    << ", subpass 1 wrote " << int(ours.second[i]);
    if (i % 4 == 0 && ours.first[i] > 40) ++triangle;  // more red than the clear colour (26)
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(triangle, kSize * kSize / 8) << "the triangle covers part of the image";
  if (drivers.lavapipe) {
    Result reference = renderTwoSubpasses(drivers.lavapipe, samples);
    ASSERT_EQ(reference.first.size(), ours.first.size());
    uint32_t different = 0;
    for (size_t i = 0; i < ours.first.size(); ++i) different += std::abs(int(ours.first[i]) - int(reference.first[i])) > 2;
    EXPECT_EQ(different, 0u) << "attachment 0 channels that differ from lavapipe's";
  }
}

TEST(InputAttachment, SecondSubpassReadsTheFirstAtItsOwnPixel) { checkInverse(VK_SAMPLE_COUNT_1_BIT); }

TEST(InputAttachment, MultisampledInputReadsEverySample) { checkInverse(VK_SAMPLE_COUNT_4_BIT); }

}  // namespace
}  // namespace tessera_test
