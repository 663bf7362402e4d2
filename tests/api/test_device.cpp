#include "test_device.h"

#include <gtest/gtest.h>

namespace tessera_test {

TestDevice::TestDevice(VkPhysicalDevice pd, const VkPhysicalDeviceFeatures* features, const void* pNext,
                       const std::vector<const char*>& extensions) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pNext};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = features;
  dci.enabledExtensionCount = uint32_t(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  if (vkCreateDevice(pd, &dci, nullptr, &dev) != VK_SUCCESS) {
    dev = VK_NULL_HANDLE;
    return;
  }
  vkGetDeviceQueue(dev, 0, 0, &queue);
  vkGetPhysicalDeviceMemoryProperties(pd, &memoryProperties_);
}

TestDevice::~TestDevice() {
  if (!dev) return;
  vkDeviceWaitIdle(dev);
  for (const Attachment& a : attachments_) {
    vkDestroyImageView(dev, a.view, nullptr);
    vkDestroyImage(dev, a.image, nullptr);
  }
  for (VkDeviceMemory m : memories_) vkFreeMemory(dev, m, nullptr);
  if (commandPool_) vkDestroyCommandPool(dev, commandPool_, nullptr);
  vkDestroyDevice(dev, nullptr);
}

VkCommandBuffer TestDevice::beginCommands() {
  if (!commandPool_) {
    VkCommandPoolCreateInfo ci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    EXPECT_EQ(vkCreateCommandPool(dev, &ci, nullptr, &commandPool_), VK_SUCCESS);
  }
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, commandPool_,
                                 VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateCommandBuffers(dev, &ai, &cmd), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  return cmd;
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                  VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage,
                  const VkImageSubresourceRange& range) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = srcAccess;
  b.dstAccessMask = dstAccess;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = range;
  vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

void transferToHostBarrier(VkCommandBuffer cmd) {
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
}

uint32_t TestDevice::memoryType(uint32_t bits, VkMemoryPropertyFlags want) const {
  for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
    if ((bits >> i & 1) && (memoryProperties_.memoryTypes[i].propertyFlags & want) == want) return i;
  return 0;
}

void TestDevice::allocateFor(const VkMemoryRequirements& req, VkMemoryPropertyFlags want, VkDeviceMemory* out) {
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, memoryType(req.memoryTypeBits, want)};
  vkAllocateMemory(dev, &ai, nullptr, out);
  memories_.push_back(*out);
}

TestDevice::Attachment TestDevice::createAttachment(VkFormat format, uint32_t width, uint32_t height,
                                                   VkImageUsageFlags usage, VkImageAspectFlags aspect,
                                                   VkSampleCountFlagBits samples) {
  Attachment a;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {width, height, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = samples;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = usage;
  if (vkCreateImage(dev, &ici, nullptr, &a.image) != VK_SUCCESS) {
    ADD_FAILURE() << "vkCreateImage failed for format " << format;
    return {};
  }
  bindMemory(a.image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = a.image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {aspect, 0, 1, 0, 1};
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &a.view), VK_SUCCESS);
  attachments_.push_back(a);
  return a;
}

void TestDevice::bindMemory(VkImage image) {
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, image, &req);
  VkDeviceMemory m;
  allocateFor(req, 0, &m);
  vkBindImageMemory(dev, image, m, 0);
}

VkBuffer TestDevice::createMappedBuffer(VkDeviceSize size, VkBufferUsageFlags usage, void** mapped) {
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = usage;
  VkBuffer b;
  vkCreateBuffer(dev, &bci, nullptr, &b);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, b, &req);
  VkDeviceMemory m;
  allocateFor(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &m);
  vkBindBufferMemory(dev, b, m, 0);
  vkMapMemory(dev, m, 0, VK_WHOLE_SIZE, 0, mapped);
  return b;
}

VkShaderModule TestDevice::createShaderModule(const std::vector<uint32_t>& code) {
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code.size() * 4, code.data()};
  VkShaderModule m = VK_NULL_HANDLE;
  vkCreateShaderModule(dev, &smci, nullptr, &m);
  return m;
}

void TestDevice::submitAndWait(VkCommandBuffer cmd) {
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE);
  vkQueueWaitIdle(queue);
}

void beginRenderingCleared(VkCommandBuffer cmd, VkImageView view, uint32_t width, uint32_t height) {
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {width, height}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  const VkRect2D scissor{{0, 0}, {width, height}};
  vkCmdSetScissor(cmd, 0, 1, &scissor);
}

void copyImageToBuffer(VkCommandBuffer cmd, VkImage image, VkImageLayout layout, uint32_t width, uint32_t height,
                       VkBuffer buffer) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {width, height, 1};
  vkCmdCopyImageToBuffer(cmd, image, layout, buffer, 1, &region);
}

void recordDrawAndReadback(VkCommandBuffer cmd, const TestDevice::Attachment& target, uint32_t width, uint32_t height,
                           VkBuffer readback, const std::function<void(VkCommandBuffer)>& draw) {
  imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  beginRenderingCleared(cmd, target.view, width, height);
  draw(cmd);
  vkCmdEndRendering(cmd);
  imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT);
  copyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, width, height, readback);
  transferToHostBarrier(cmd);
}

}  // namespace tessera_test
