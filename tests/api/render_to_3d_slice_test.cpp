// Rendering into the z slices of a 3D image through 2D and 2D-array views
// (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT; spec "Image Views": for such a view,
// baseArrayLayer and layerCount select z slices of the base mip level, and
// VK_REMAINING_ARRAY_LAYERS means the slices left in that level, VUID-VkImageViewCreateInfo-
// subresourceRange-02725). Tessera used to place the view's first layer at array layer
// baseArrayLayer of the image, past the end of a 3D image's memory (heap corruption in CTS
// pipeline.*.render_to_image.*.3d.*), and counted VK_REMAINING_ARRAY_LAYERS from arrayLayers.
// The oracle is the spec's: each slice holds exactly the integer clear colour of the render
// pass instance that cleared it; lavapipe runs the same test when installed.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 8, kDepth = 4, kMips = 2;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UINT;

// The colour a render pass clears slice z of mip level `mip` to; kUntouched where none does.
constexpr uint8_t kUntouched = 7;
uint8_t sliceValue(uint32_t mip, uint32_t z) { return uint8_t(40 + 50 * mip + 10 * z); }

// Clears every slice of both mip levels through render passes and reads the image back:
// level 0 one slice per render pass instance (2D views, baseArrayLayer = z), level 1 (two
// slices) through one 2D-array view of slice 1 on with VK_REMAINING_ARRAY_LAYERS and a
// framebuffer of one layer, so slice 0 of level 1 keeps the transfer clear. Returns the
// texels of level 0 then level 1, or nothing when the device could not be made.
std::vector<uint8_t> renderSlices(VkPhysicalDevice pd) {
  std::vector<uint8_t> out;
  TestDevice device(pd);
  const VkDevice dev = device.dev;
  if (!dev) return out;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.flags = VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
  ici.imageType = VK_IMAGE_TYPE_3D;
  ici.format = kFormat;
  ici.extent = {kSize, kSize, kDepth};
  ici.mipLevels = kMips;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage image;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  device.bindMemory(image);

  VkAttachmentDescription attachment{};
  attachment.format = kFormat;
  attachment.samples = VK_SAMPLE_COUNT_1_BIT;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  attachment.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &ref;
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = 1;
  rpci.pAttachments = &attachment;
  rpci.subpassCount = 1;
  rpci.pSubpasses = &subpass;
  VkRenderPass renderPass;
  vkCreateRenderPass(dev, &rpci, nullptr, &renderPass);

  // Framebuffers: level 0 slices 0..3 (2D views), then level 1 from slice 1 on (2D array).
  std::vector<VkImageView> views;
  std::vector<VkFramebuffer> framebuffers;
  auto addTarget = [&](VkImageViewType type, uint32_t mip, uint32_t slice, uint32_t count) {
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = type;
    vci.format = kFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, slice, count};
    VkImageView view;
    EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
    views.push_back(view);
    VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = renderPass;
    fci.attachmentCount = 1;
    fci.pAttachments = &view;
    fci.width = fci.height = kSize >> mip;
    fci.layers = 1;
    VkFramebuffer fb;
    vkCreateFramebuffer(dev, &fci, nullptr, &fb);
    framebuffers.push_back(fb);
  };
  for (uint32_t z = 0; z < kDepth; ++z) addTarget(VK_IMAGE_VIEW_TYPE_2D, 0, z, 1);
  addTarget(VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, 1, VK_REMAINING_ARRAY_LAYERS);

  const VkDeviceSize level0 = kSize * kSize * kDepth * 4, level1 = (kSize / 2) * (kSize / 2) * (kDepth / 2) * 4;
  uint8_t* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(level0 + level1, VK_BUFFER_USAGE_TRANSFER_DST_BIT, reinterpret_cast<void**>(&mapped));

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, kMips, 0, 1};
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  VkClearColorValue untouched{};
  for (uint32_t c = 0; c < 4; ++c) untouched.uint32[c] = kUntouched;
  vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &untouched, 1, &all);
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, all);
  for (uint32_t t = 0; t < framebuffers.size(); ++t) {
    const uint32_t mip = t < kDepth ? 0 : 1, slice = t < kDepth ? t : 1;
    VkClearValue clear{};
    for (uint32_t c = 0; c < 4; ++c) clear.color.uint32[c] = sliceValue(mip, slice) + c;
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffers[t],
                               {{0, 0}, {kSize >> mip, kSize >> mip}}, 1, &clear};
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(cmd);
  }
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  VkBufferImageCopy copies[2] = {};
  copies[0].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copies[0].imageExtent = {kSize, kSize, kDepth};
  copies[1].bufferOffset = level0;
  copies[1].imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
  copies[1].imageExtent = {kSize / 2, kSize / 2, kDepth / 2};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 2, copies);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  out.assign(mapped, mapped + level0 + level1);

  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkFramebuffer fb : framebuffers) vkDestroyFramebuffer(dev, fb, nullptr);
  for (VkImageView v : views) vkDestroyImageView(dev, v, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return out;
}

// Compares the read-back texels with the spec's expectation; reports the first few wrong ones.
void checkSlices(const std::vector<uint8_t>& texels, const char* driver) {
  ASSERT_EQ(texels.size(), size_t(kSize * kSize * kDepth * 4 + (kSize / 2) * (kSize / 2) * (kDepth / 2) * 4)) << driver;
  uint32_t wrong = 0;
  size_t at = 0;
  for (uint32_t mip = 0; mip < kMips; ++mip) {
    const uint32_t size = kSize >> mip, depth = kDepth >> mip;
    for (uint32_t z = 0; z < depth; ++z)
      for (uint32_t i = 0; i < size * size; ++i)
        for (uint32_t c = 0; c < 4; ++c, ++at) {
          const bool cleared = mip == 0 || z >= 1;
          const uint8_t want = cleared ? uint8_t(sliceValue(mip, z) + c) : kUntouched;
          if (texels[at] != want && wrong++ < 5)
            ADD_FAILURE() << driver << ": level " << mip << " slice " << z << " texel " << i << " channel " << c << " is "
                          << int(texels[at]) << ", want " << int(want);
        }
  }
  EXPECT_EQ(wrong, 0u) << driver;
}

TEST(RenderTo3DSlice, EachSliceViewClearsItsOwnSlice) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  checkSlices(renderSlices(drivers.tessera), "Tessera");
  if (drivers.lavapipe) checkSlices(renderSlices(drivers.lavapipe), "lavapipe");
}

}  // namespace
}  // namespace tessera_test
