// LOAD_OP_CLEAR of render pass attachments ("Render Pass Load Operations" and
// VkAttachmentDescription): an attachment is cleared at the start of the first subpass that
// uses it, and "if the attachment is not used by any subpass, loadOp, storeOp,
// stencilStoreOp, and stencilLoadOp will be ignored for that attachment, and no load or
// store ops will be performed". Tessera used to clear every CLEAR attachment when the
// instance began, at most ten of them: unused attachments were overwritten and attachments
// past the tenth kept their old contents (CTS renderpass.*.attachment_allocation.* and
// unused_attachment.loadopclear.*). The oracle is the spec's rule: every used attachment
// holds its integer clear value, the unused ones (a colour and a depth/stencil one) their
// contents from before the render pass; lavapipe runs the same test when installed.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 4;
constexpr uint32_t kColorCount = 13;  // more than the eight colour attachments of one subpass, plus
constexpr uint32_t kUnusedColor = 1;  // one attachment no subpass names
constexpr uint32_t kAttachmentCount = kColorCount + 1;  // and an unused D32_SFLOAT_S8_UINT one, last
constexpr uint8_t kBefore = 3;        // every colour image's contents before the render pass
constexpr float kDepthBefore = 0.25f;
constexpr uint32_t kStencilBefore = 9;

uint8_t clearByte(uint32_t attachment, uint32_t channel) { return uint8_t(20 + 10 * attachment + channel); }

struct Readback {
  std::vector<uint8_t> colors;  // kColorCount images of kSize x kSize R8G8B8A8_UINT texels
  std::vector<float> depth;
  std::vector<uint8_t> stencil;
};

// Subpass 0 writes colour attachments 0 and 2..7, subpass 1 colour attachments 8..12 and reads
// 0 as an input attachment; attachment 1 and the depth/stencil attachment are in no subpass.
Readback render(VkPhysicalDevice pd) {
  Readback out;
  TestDevice device(pd);
  const VkDevice dev = device.dev;
  if (!dev) return out;
  const VkFormat dsFormat = VK_FORMAT_D32_SFLOAT_S8_UINT;
  std::vector<VkImage> images(kAttachmentCount);
  std::vector<VkImageView> views(kAttachmentCount);
  for (uint32_t a = 0; a < kAttachmentCount; ++a) {
    const bool ds = a == kColorCount;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = ds ? dsFormat : VK_FORMAT_R8G8B8A8_UINT;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = (ds ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                    : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT) |
                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &images[a]), VK_SUCCESS);
    device.bindMemory(images[a]);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = images[a];
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = ici.format;
    vci.subresourceRange = {VkImageAspectFlags(ds ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT : VK_IMAGE_ASPECT_COLOR_BIT),
                            0, 1, 0, 1};
    vkCreateImageView(dev, &vci, nullptr, &views[a]);
  }

  std::vector<VkAttachmentDescription> attachments(kAttachmentCount);
  for (uint32_t a = 0; a < kAttachmentCount; ++a) {
    VkAttachmentDescription& d = attachments[a];
    const bool ds = a == kColorCount;
    d.format = ds ? dsFormat : VK_FORMAT_R8G8B8A8_UINT;
    d.samples = VK_SAMPLE_COUNT_1_BIT;
    d.loadOp = d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    d.storeOp = d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
    d.initialLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    d.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  std::vector<VkAttachmentReference> colors0, colors1;
  for (uint32_t a = 0; a < 8; ++a)
    if (a != kUnusedColor) colors0.push_back({a, VK_IMAGE_LAYOUT_GENERAL});
  for (uint32_t a = 8; a < kColorCount; ++a) colors1.push_back({a, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
  const VkAttachmentReference input{0, VK_IMAGE_LAYOUT_GENERAL};
  VkSubpassDescription subpasses[2] = {};
  subpasses[0].pipelineBindPoint = subpasses[1].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpasses[0].colorAttachmentCount = uint32_t(colors0.size());
  subpasses[0].pColorAttachments = colors0.data();
  subpasses[1].inputAttachmentCount = 1;
  subpasses[1].pInputAttachments = &input;
  subpasses[1].colorAttachmentCount = uint32_t(colors1.size());
  subpasses[1].pColorAttachments = colors1.data();
  const VkSubpassDependency dependency{0, 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                                       VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, 0};
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.attachmentCount = kAttachmentCount;
  rpci.pAttachments = attachments.data();
  rpci.subpassCount = 2;
  rpci.pSubpasses = subpasses;
  rpci.dependencyCount = 1;
  rpci.pDependencies = &dependency;
  VkRenderPass renderPass;
  EXPECT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = kAttachmentCount;
  fci.pAttachments = views.data();
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  const VkDeviceSize colorBytes = kSize * kSize * 4, texels = kSize * kSize;
  uint8_t* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(kColorCount * colorBytes + texels * 4 + texels, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              reinterpret_cast<void**>(&mapped));
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  auto barrier = [&](VkImage image, VkImageAspectFlags aspects, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                     VkAccessFlags dst) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, src, dst, from, to, VK_QUEUE_FAMILY_IGNORED,
                           VK_QUEUE_FAMILY_IGNORED, image, {aspects, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
  };
  const VkImageAspectFlags dsAspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  // The contents before the render pass.
  for (uint32_t a = 0; a < kAttachmentCount; ++a) {
    const bool ds = a == kColorCount;
    barrier(images[a], ds ? dsAspects : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
            VK_ACCESS_TRANSFER_WRITE_BIT);
    if (ds) {
      const VkClearDepthStencilValue before{kDepthBefore, kStencilBefore};
      const VkImageSubresourceRange range{dsAspects, 0, 1, 0, 1};
      vkCmdClearDepthStencilImage(cmd, images[a], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &before, 1, &range);
    } else {
      const VkClearColorValue before{.uint32 = {kBefore, kBefore, kBefore, kBefore}};
      const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cmd, images[a], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &before, 1, &range);
    }
  }
  VkMemoryBarrier cleared{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, 0, 1, &cleared, 0, nullptr, 0, nullptr);
  std::vector<VkClearValue> clearValues(kAttachmentCount);
  for (uint32_t a = 0; a < kColorCount; ++a)
    for (uint32_t c = 0; c < 4; ++c) clearValues[a].color.uint32[c] = clearByte(a, c);
  clearValues[kColorCount].depthStencil = {0.75f, 200};
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}},
                             kAttachmentCount, clearValues.data()};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdEndRenderPass(cmd);
  VkMemoryBarrier rendered{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                           VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &rendered, 0, nullptr, 0, nullptr);
  for (uint32_t a = 0; a < kColorCount; ++a) {
    VkBufferImageCopy copy{a * colorBytes, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
    vkCmdCopyImageToBuffer(cmd, images[a], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  }
  VkBufferImageCopy depthCopy{kColorCount * colorBytes, 0, 0, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
  VkBufferImageCopy stencilCopy{kColorCount * colorBytes + texels * 4, 0, 0, {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1}, {0, 0, 0},
                                {kSize, kSize, 1}};
  vkCmdCopyImageToBuffer(cmd, images[kColorCount], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &depthCopy);
  vkCmdCopyImageToBuffer(cmd, images[kColorCount], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &stencilCopy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  out.colors.assign(mapped, mapped + kColorCount * colorBytes);
  out.depth.resize(texels);
  std::memcpy(out.depth.data(), mapped + kColorCount * colorBytes, texels * 4);
  out.stencil.assign(mapped + kColorCount * colorBytes + texels * 4, mapped + kColorCount * colorBytes + texels * 5);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  for (uint32_t a = 0; a < kAttachmentCount; ++a) vkDestroyImageView(dev, views[a], nullptr), vkDestroyImage(dev, images[a], nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return out;
}

void check(const Readback& r, const char* driver) {
  ASSERT_EQ(r.colors.size(), size_t(kColorCount * kSize * kSize * 4)) << driver;
  uint32_t wrong = 0;
  for (uint32_t a = 0; a < kColorCount; ++a)
    for (uint32_t i = 0; i < kSize * kSize * 4; ++i) {
      const uint8_t want = a == kUnusedColor ? kBefore : clearByte(a, i % 4);
      const uint8_t got = r.colors[a * kSize * kSize * 4 + i];
      if (got != want && wrong++ < 5)
        ADD_FAILURE() << driver << ": attachment " << a << " texel " << i / 4 << " channel " << i % 4 << " is " << int(got)
                      << ", want " << int(want) << (a == kUnusedColor ? " (no subpass uses it)" : "");
    }
  EXPECT_EQ(wrong, 0u) << driver;
  // The unused depth/stencil attachment keeps its contents too.
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    EXPECT_EQ(r.depth[i], kDepthBefore) << driver << ": depth of the unused attachment, texel " << i;
    EXPECT_EQ(r.stencil[i], kStencilBefore) << driver << ": stencil of the unused attachment, texel " << i;
  }
}

TEST(RenderPassLoadOp, ClearsEveryUsedAttachmentAndNoUnusedOne) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  check(render(drivers.tessera), "Tessera");
  if (drivers.lavapipe) check(render(drivers.lavapipe), "lavapipe");
}

}  // namespace
}  // namespace tessera_test
