// Load operations in a multiview render pass ("Multiview", "Render Pass Load Operations")
// through the loader with validation, on Tessera and on lavapipe in one instance
// (dual_driver.h): an attachment's load operation happens, for each view, at the beginning of
// the first subpass of that view that uses the attachment. Two attachments alias one 2-layer
// image (VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT), attachment 1 with LOAD_OP_CLEAR to blue:
//   subpass 0, view 0: attachment 1 (its first use for view 0: layer 0 becomes blue);
//   subpass 1, view 1: attachment 0, vkCmdClearAttachments to red (layer 1 becomes red);
//   subpass 2, view 1: attachment 1 (its first use for view 1: layer 1 becomes blue).
// So both layers end blue. Clearing every view of attachment 1 at its first subpass (or when
// the instance begins) would leave layer 1 red.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 16;
constexpr uint32_t kLayers = 2;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;

std::vector<uint8_t> render(VkPhysicalDevice pd) {
  std::vector<uint8_t> texels;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  v11.multiview = VK_TRUE;
  TestDevice device(pd, nullptr, &v11);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return texels;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = kFormat;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = kLayers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageView views[2];
  for (VkImageView& v : views) {
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    vci.format = kFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
    vkCreateImageView(dev, &vci, nullptr, &v);
  }

  VkAttachmentDescription2 attachments[2] = {};
  for (VkAttachmentDescription2& a : attachments) {
    a.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
    a.flags = VK_ATTACHMENT_DESCRIPTION_MAY_ALIAS_BIT;
    a.format = kFormat;
    a.samples = VK_SAMPLE_COUNT_1_BIT;
    a.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  attachments[1].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  const VkAttachmentReference2 refs[2] = {
      {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_COLOR_BIT},
      {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_COLOR_BIT}};
  const uint32_t subpassAttachment[3] = {1, 0, 1}, subpassViews[3] = {0b01, 0b10, 0b10};
  VkSubpassDescription2 subpasses[3] = {};
  for (uint32_t s = 0; s < 3; ++s) {
    subpasses[s].sType = VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2;
    subpasses[s].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[s].viewMask = subpassViews[s];
    subpasses[s].colorAttachmentCount = 1;
    subpasses[s].pColorAttachments = &refs[subpassAttachment[s]];
  }
  VkSubpassDependency2 dependencies[2] = {};
  for (uint32_t d = 0; d < 2; ++d) {
    dependencies[d].sType = VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2;
    dependencies[d].srcSubpass = d;
    dependencies[d].dstSubpass = d + 1;
    dependencies[d].srcStageMask = dependencies[d].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    dependencies[d].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    dependencies[d].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
  }
  VkRenderPassCreateInfo2 rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  rpci.attachmentCount = 2;
  rpci.pAttachments = attachments;
  rpci.subpassCount = 3;
  rpci.pSubpasses = subpasses;
  rpci.dependencyCount = 2;
  rpci.pDependencies = dependencies;
  VkRenderPass renderPass = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateRenderPass2(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = 2;
  fci.pAttachments = views;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  uint8_t* mapped = nullptr;
  const VkDeviceSize bytes = kSize * kSize * 4 * kLayers;
  const VkBuffer readback = device.createMappedBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, reinterpret_cast<void**>(&mapped));
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  auto barrier = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = src;
    b.dstAccessMask = dst;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &b);
  };
  barrier(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
  const VkClearColorValue before{{10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f}};
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
  vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &before, 1, &range);
  barrier(VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT);
  VkClearValue clears[2] = {};
  clears[1].color = {{0, 0, 1, 1}};
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}}, 2,
                             clears};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
  VkClearAttachment red{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
  red.clearValue.color = {{1, 0, 0, 1}};
  const VkClearRect all{{{0, 0}, {kSize, kSize}}, 0, 1};
  vkCmdClearAttachments(cmd, 1, &red, 1, &all);
  vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cmd);
  barrier(VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  texels.assign(mapped, mapped + bytes);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  for (VkImageView v : views) vkDestroyImageView(dev, v, nullptr);
  vkDestroyImage(dev, image, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return texels;
}

TEST(Multiview, LoadOperationOfEachViewAtItsFirstUse) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    SCOPED_TRACE(pd == drivers.tessera ? "Tessera" : "lavapipe");
    const std::vector<uint8_t> texels = render(pd);
    ASSERT_EQ(texels.size(), size_t(kSize * kSize * 4 * kLayers));
    for (uint32_t layer = 0; layer < kLayers; ++layer) {
      uint32_t different = 0;
      for (uint32_t p = 0; p < kSize * kSize; ++p) {
        const uint8_t* t = &texels[(layer * kSize * kSize + p) * 4];
        const std::array<uint8_t, 4> blue{0, 0, 255, 255};
        if (std::memcmp(t, blue.data(), 4) != 0 && ++different == 1)
          ADD_FAILURE() << "layer " << layer << " pixel " << p << " is " << int(t[0]) << "," << int(t[1]) << "," << int(t[2])
                        << "," << int(t[3]) << ", expected the load-op clear's blue";
      }
      EXPECT_EQ(different, 0u) << "layer " << layer;
    }
  }
}

}  // namespace
}  // namespace tessera_test
