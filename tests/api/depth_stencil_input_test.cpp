// A draw that writes depth (or stencil) while its fragment shader reads the same attachment as
// an input attachment, through the loader with validation, on Tessera and on lavapipe in the
// same test.
//
// "Early Fragment Test Mode" lets an implementation run the depth and stencil tests before
// the fragment shader only when the shader asks for it or when nothing can tell the
// difference. A shader that reads the depth/stencil attachment can: with the tests (and their
// writes) first, it would read its own fragment's depth instead of what the earlier draw left
// ("Subpass Self-dependency": the barrier between the draws makes exactly that visible).
//
// One subpass, a 32x32 float colour attachment and a D32_SFLOAT (or S8_UINT) attachment that
// is also the subpass's input attachment, in the GENERAL layout. Depth test ALWAYS with writes
// (stencil: ALWAYS, REPLACE with the draw's reference). Draw 1 covers everything at z = 0.25
// (reference 5) and writes the value it reads; a self-dependency barrier; draw 2 covers the
// part of the target left of the diagonal from (32, 0) to (0, 64) at z = 0.75 (reference 9).
// The spec's result: draw 2's pixels hold what draw 1 wrote (0.25 / 5), the others the clear
// value draw 1 read (0.5 / 3). Pixel centres never lie on that diagonal (2x + y + 1.5 = 64 has
// no integer solution), so which pixels draw 2 covers follows from "Polygon Rasterization"
// alone; lavapipe's image is compared too.
//
// And without any barrier, in rasterization order (VK_EXT_rasterization_order_attachment_access,
// rasterizationOrderDepthAttachmentAccess / rasterizationOrderStencilAttachmentAccess): a
// subpass and pipeline flagged for it draw 8 full-screen triangles (instances of one draw), each
// fragment reading the attachment and writing what it read as colour; depth writes FragDepth
// 1/16 deeper than it read, stencil increments. Every fragment must see the one before it
// ("Rasterization Order"), so every pixel ends with the value after 7 steps as colour: 0.25 +
// 7/16 for depth (cleared to 0.25), 3 + 7 for stencil (cleared to 3).
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

enum class Aspect { Depth, Stencil };
enum class Order { AfterBarrier, Rasterization };
constexpr uint32_t kOrderedSteps = 8;  // triangles drawn in rasterization order

struct Values {
  float clear, first, second;  // the clear value and what draws 1 and 2 write
};
Values valuesFor(Aspect aspect, Order order = Order::AfterBarrier) {
  if (order == Order::Rasterization) return aspect == Aspect::Depth ? Values{0.25f, 0, 0} : Values{3, 0, 0};
  return aspect == Aspect::Depth ? Values{0.5f, 0.25f, 0.75f} : Values{3, 5, 9};
}

bool insideDrawTwo(uint32_t x, uint32_t y) { return 2.0 * (x + 0.5) + (y + 0.5) < 64.0; }

// The colour attachment after the two draws; empty on failure.
std::vector<float> render(VkPhysicalDevice pd, Aspect aspect, Order order) {
  const bool depth = aspect == Aspect::Depth, ordered = order == Order::Rasterization;
  VkPhysicalDeviceRasterizationOrderAttachmentAccessFeaturesEXT orderFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_FEATURES_EXT};
  orderFeatures.rasterizationOrderDepthAttachmentAccess = depth;
  orderFeatures.rasterizationOrderStencilAttachmentAccess = !depth;
  std::vector<const char*> extensions;
  if (ordered) extensions.push_back(VK_EXT_RASTERIZATION_ORDER_ATTACHMENT_ACCESS_EXTENSION_NAME);
  TestDevice device(pd, nullptr, ordered ? &orderFeatures : nullptr, extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const Values values = valuesFor(aspect, order);
  const VkFormat colorFormat = VK_FORMAT_R32_SFLOAT, dsFormat = depth ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_S8_UINT;
  const VkImageAspectFlags dsAspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_STENCIL_BIT;
  const TestDevice::Attachment color = device.createAttachment(
      colorFormat, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment ds = device.createAttachment(
      dsFormat, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, dsAspect);
  if (!color.view || !ds.view) return {};

  VkAttachmentDescription attachments[2] = {};
  attachments[0].format = colorFormat;
  attachments[0].samples = VK_SAMPLE_COUNT_1_BIT;
  attachments[0].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[0].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachments[0].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachments[0].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[0].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  attachments[0].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  attachments[1] = attachments[0];
  attachments[1].format = dsFormat;
  attachments[1].loadOp = attachments[1].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachments[1].storeOp = attachments[1].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachments[1].finalLayout = VK_IMAGE_LAYOUT_GENERAL;
  VkAttachmentReference colorRef{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL}, dsRef{1, VK_IMAGE_LAYOUT_GENERAL},
      inputRef{1, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &colorRef;
  subpass.pDepthStencilAttachment = &dsRef;
  subpass.inputAttachmentCount = 1;
  subpass.pInputAttachments = &inputRef;
  if (ordered)
    subpass.flags = depth ? VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT
                          : VK_SUBPASS_DESCRIPTION_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT;
  const VkPipelineStageFlags tests = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  VkSubpassDependency self{0, 0, tests, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                           VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT};
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = 2;
  rpci.pAttachments = attachments;
  rpci.subpassCount = 1;
  rpci.pSubpasses = &subpass;
  rpci.dependencyCount = ordered ? 0 : 1;
  rpci.pDependencies = &self;
  VkRenderPass renderPass;
  EXPECT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  const VkImageView views[2] = {color.view, ds.view};
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = 2;
  fci.pAttachments = views;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  const SingleImageSet inputSet = makeSingleImageSet(dev, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, ds.view, VK_IMAGE_LAYOUT_GENERAL);
  const VkDescriptorSetLayout setLayout = inputSet.layout;
  const VkDescriptorPool descriptorPool = inputSet.pool;
  const VkDescriptorSet set = inputSet.set;
  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT, 0, 8};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &push};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);

  const VkShaderModule modules[2] = {
      device.createShaderModule(loadCorpusShader("fullscreen_depth_push_vert")),
      device.createShaderModule(
          loadCorpusShader(depth ? (ordered ? "input_depth_step_frag" : "input_depth_read_frag") : "input_stencil_read_frag"))};
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[0], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[1], "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo dss{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  dss.depthTestEnable = dss.depthWriteEnable = depth;
  dss.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  dss.stencilTestEnable = !depth;
  dss.front = {VK_STENCIL_OP_KEEP, ordered ? VK_STENCIL_OP_INCREMENT_AND_CLAMP : VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
               VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0};
  if (ordered)
    dss.flags = depth ? VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_DEPTH_ACCESS_BIT_EXT
                      : VK_PIPELINE_DEPTH_STENCIL_STATE_CREATE_RASTERIZATION_ORDER_ATTACHMENT_STENCIL_ACCESS_BIT_EXT;
  dss.back = dss.front;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState dynamic = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
  VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamic};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pDepthStencilState = &dss;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = &dy;
  gpci.layout = layout;
  gpci.renderPass = renderPass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  float* mapped = nullptr;
  VkBuffer buffer =
      device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, reinterpret_cast<void**>(&mapped));
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkClearValue clears[2] = {};
  clears[0].color = {{-1.0f, 0, 0, 0}};
  clears[1].depthStencil = {depth ? values.clear : 1.0f, uint32_t(values.clear)};
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}},
                             2, clears};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  if (ordered) {
    const float pushed[2] = {0.5f, 1.0f};  // full screen; FragDepth decides the depth written
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pushed), pushed);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    vkCmdDraw(cmd, 3, kOrderedSteps, 0, 0);
  }
  for (int draw = 0; draw < 2 && !ordered; ++draw) {
    const float written = draw == 0 ? values.first : values.second;
    if (draw == 1) {  // the self-dependency, as the render pass declares it
      VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      barrier.srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
      barrier.dstAccessMask = VK_ACCESS_INPUT_ATTACHMENT_READ_BIT;
      barrier.oldLayout = barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
      barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      barrier.image = ds.image;
      barrier.subresourceRange = {dsAspect, 0, 1, 0, 1};
      vkCmdPipelineBarrier(cmd, tests, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_DEPENDENCY_BY_REGION_BIT, 0, nullptr, 0, nullptr,
                           1, &barrier);
    }
    const float pushed[2] = {depth ? written : 0.5f, draw == 0 ? 1.0f : 0.5f};
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(pushed), pushed);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, uint32_t(written));
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndRenderPass(cmd);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<float> out(mapped, mapped + kSize * kSize);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  return out;
}

void check(Aspect aspect, Order order = Order::AfterBarrier) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Values values = valuesFor(aspect, order);
  const std::vector<float> ours = render(drivers.tessera, aspect, order);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize));
  if (order == Order::Rasterization) {
    const float step = aspect == Aspect::Depth ? 1.0f / 16.0f : 1.0f;
    const float last = values.clear + float(kOrderedSteps - 1) * step;  // what the last fragment read
    for (uint32_t i = 0; i < ours.size(); ++i)
      ASSERT_EQ(ours[i], last) << "pixel (" << i % kSize << ", " << i / kSize << "): the last of " << kOrderedSteps
                               << " fragments must read what the 7 before it left";
  }
  for (uint32_t y = 0; y < kSize && order == Order::AfterBarrier; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const bool second = insideDrawTwo(x, y);
      ASSERT_EQ(ours[y * kSize + x], second ? values.first : values.clear)
          << "pixel (" << x << ", " << y << "): draw " << (second ? 2 : 1)
          << (second ? " must read what draw 1 wrote, not its own write" : " must read the clear value, not its own write");
    }
  if (drivers.lavapipe) {
    const std::vector<float> reference = render(drivers.lavapipe, aspect, order);
    ASSERT_EQ(reference.size(), ours.size());
    for (uint32_t i = 0; i < ours.size(); ++i)
      ASSERT_EQ(ours[i], reference[i]) << "pixel (" << i % kSize << ", " << i / kSize << "): Tessera vs lavapipe";
  }
}

TEST(DepthStencilInput, ADrawReadsTheDepthThatEarlierDrawsLeftNotItsOwn) { check(Aspect::Depth); }

TEST(DepthStencilInput, ADrawReadsTheStencilThatEarlierDrawsLeftNotItsOwn) { check(Aspect::Stencil); }

TEST(DepthStencilInput, FragmentsReadTheDepthOfTheirPredecessorsInRasterizationOrder) {
  check(Aspect::Depth, Order::Rasterization);
}

TEST(DepthStencilInput, FragmentsReadTheStencilOfTheirPredecessorsInRasterizationOrder) {
  check(Aspect::Stencil, Order::Rasterization);
}

}  // namespace
}  // namespace tessera_test
