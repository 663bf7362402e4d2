// Colour write enable (VK_EXT_color_write_enable) through the loader with validation, on
// Tessera and on lavapipe in the same test. A full-screen triangle (tests/shaders/fullscreen.vert,
// tests/shaders/color_write_enable.frag) writes two R8G8B8A8_UNORM attachments cleared to a known
// colour; the enables come from VkPipelineColorWriteCreateInfoEXT or, with the dynamic state,
// from vkCmdSetColorWriteEnableEXT. "Color Write Enable": an attachment whose enable is VK_FALSE
// is not written at all (as with a colorWriteMask of 0), one whose enable is VK_TRUE is written
// as its colorWriteMask and blend state say. Expected images are computed from that rule (and
// "Blending" for the blended attachment) and compared with lavapipe too. Attachment 0 is written
// plainly (the fragment kernel's own stores on Tessera's binned path), attachment 1 with alpha
// blending (the loop's); the ctest variant api_tests.reference_raster repeats it on the
// reference path.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 64;
constexpr float kClear[4] = {0.2f, 0.6f, 0.4f, 0.8f};

struct Enables {
  const char* name;
  bool dynamic;        // VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, set with vkCmdSetColorWriteEnableEXT
  VkBool32 value[2];   // per attachment
};

// Renders on `pd`; the two attachments' pixels one after the other (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const Enables& enables) {
  VkPhysicalDeviceColorWriteEnableFeaturesEXT cwe{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &cwe};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(cwe.colorWriteEnable);
  if (!cwe.colorWriteEnable) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &cwe};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.independentBlend = VK_TRUE;  // attachment 0 plain, attachment 1 blended
  TestDevice device(pd, &features, &v13, {VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  auto setColorWriteEnable = reinterpret_cast<PFN_vkCmdSetColorWriteEnableEXT>(
      vkGetDeviceProcAddr(dev, "vkCmdSetColorWriteEnableEXT"));
  EXPECT_NE(setColorWriteEnable, nullptr);
  if (!setColorWriteEnable) return {};

  const VkFormat formats[2] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM};
  VkImage images[2];
  VkImageView views[2];
  for (int i = 0; i < 2; ++i) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = formats[i];
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    vkCreateImage(dev, &ici, nullptr, &images[i]);
    device.bindMemory(images[i]);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = images[i];
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = formats[i];
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCreateImageView(dev, &vci, nullptr, &views[i]);
  }
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(2 * kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("color_write_enable_frag"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1,
                                       &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blends[2] = {
      {VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO,
       VK_BLEND_OP_ADD, 0xF},
      {VK_TRUE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
       VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xF}};
  // The static enables are given even with the dynamic state (then ignored): set to the
  // opposite of the dynamic values, so that a driver reading them would fail.
  const VkBool32 staticEnables[2] = {enables.dynamic ? !enables.value[0] : enables.value[0],
                                     enables.dynamic ? !enables.value[1] : enables.value[1]};
  VkPipelineColorWriteCreateInfoEXT cw{VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT, nullptr, 2, staticEnables};
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, &cw};
  cb.attachmentCount = 2;
  cb.pAttachments = blends;
  const VkDynamicState dynamicState = VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicState};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 2, formats};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = enables.dynamic ? &dyn : nullptr;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b[2] = {{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}, {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}};
  for (int i = 0; i < 2; ++i) {
    b[i].srcQueueFamilyIndex = b[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b[i].image = images[i];
    b[i].subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b[i].newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b[i].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr,
                       0, nullptr, 2, b);
  VkRenderingAttachmentInfo attachments[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                              {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
  for (int i = 0; i < 2; ++i) {
    attachments[i].imageView = views[i];
    attachments[i].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachments[i].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachments[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    std::memcpy(attachments[i].clearValue.color.float32, kClear, sizeof(kClear));
  }
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 2;
  ri.pColorAttachments = attachments;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (enables.dynamic) setColorWriteEnable(cmd, 2, enables.value);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  for (int i = 0; i < 2; ++i) {
    b[i].oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b[i].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    b[i].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 2, b);
  for (int i = 0; i < 2; ++i) {
    VkBufferImageCopy region{};
    region.bufferOffset = VkDeviceSize(i) * kSize * kSize * 4;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(cmd, images[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  }
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(2 * kSize * kSize * 4);
  std::memcpy(pixels.data(), readMap, pixels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  for (int i = 0; i < 2; ++i) {
    vkDestroyImageView(dev, views[i], nullptr);
    vkDestroyImage(dev, images[i], nullptr);
  }
  return pixels;
}

uint8_t unorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

// The spec's pixel (x, y) of attachment `a`.
void expectedPixel(const Enables& e, int a, uint32_t x, uint32_t y, uint8_t out[4]) {
  for (int c = 0; c < 4; ++c) out[c] = unorm8(kClear[c]);
  if (!e.value[a]) return;  // "Color Write Enable" VK_FALSE: not written
  const float px = float(x) / 63.0f, py = float(y) / 63.0f;
  if (a == 0) {  // no blending
    const float s[4] = {px, py, 0.25f, 1.0f};
    for (int c = 0; c < 4; ++c) out[c] = unorm8(s[c]);
    return;
  }
  // SRC_ALPHA / ONE_MINUS_SRC_ALPHA for colour, ONE / ZERO for alpha ("Blending").
  const float s[4] = {0.5f, px, py, 0.75f};
  for (int c = 0; c < 3; ++c) out[c] = unorm8(s[c] * s[3] + float(unorm8(kClear[c])) / 255.0f * (1 - s[3]));
  out[3] = unorm8(s[3]);
}

TEST(DrawColorWriteEnable, StaticAndDynamicEnablesMatchTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  const Enables cases[] = {{"static, attachment 1 disabled", false, {VK_TRUE, VK_FALSE}},
                           {"static, attachment 0 disabled", false, {VK_FALSE, VK_TRUE}},
                           {"dynamic, attachment 0 disabled", true, {VK_FALSE, VK_TRUE}},
                           {"dynamic, attachment 1 disabled", true, {VK_TRUE, VK_FALSE}},
                           {"dynamic, both enabled", true, {VK_TRUE, VK_TRUE}}};
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const Enables& e : cases) {
    SCOPED_TRACE(e.name);
    const std::vector<uint8_t> ours = render(drivers.tessera, e);
    ASSERT_EQ(ours.size(), size_t(2 * kSize * kSize * 4));
    std::vector<uint8_t> reference;
    if (drivers.lavapipe) {
      reference = render(drivers.lavapipe, e);
      ASSERT_EQ(reference.size(), ours.size());
    }
    int failures = 0;
    for (int a = 0; a < 2; ++a)
      for (uint32_t y = 0; y < kSize && failures < 5; ++y)
        for (uint32_t x = 0; x < kSize && failures < 5; ++x) {
          uint8_t want[4];
          expectedPixel(e, a, x, y, want);
          const size_t at = (size_t(a) * kSize * kSize + y * kSize + x) * 4;
          for (int c = 0; c < 4; ++c) {
            if (std::abs(int(ours[at + c]) - int(want[c])) > 1) {
              ADD_FAILURE() << "attachment " << a << " pixel (" << x << ", " << y << ") component " << c << ": Tessera "
                            << int(ours[at + c]) << ", the spec " << int(want[c]);
              ++failures;
            }
            if (!reference.empty() && std::abs(int(ours[at + c]) - int(reference[at + c])) > 1) {
              ADD_FAILURE() << "attachment " << a << " pixel (" << x << ", " << y << ") component " << c << ": Tessera "
                            << int(ours[at + c]) << ", lavapipe " << int(reference[at + c]);
              ++failures;
            }
          }
        }
  }
}

}  // namespace
}  // namespace tessera_test
