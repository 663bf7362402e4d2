// A logical device for the rendering API tests (draw_test, input_attachment_test): one queue,
// memory for images and host-visible buffers, a one-shot submit. Everything it allocated is
// freed with it; the device is destroyed last.
#pragma once

#include <vulkan/vulkan.h>

#include <functional>
#include <vector>

namespace tessera_test {

class TestDevice {
 public:
  // Creates the device on `pd` with `features` (may be null), `pNext` (feature structs) and the
  // device `extensions`. On failure `dev` stays VK_NULL_HANDLE.
  TestDevice(VkPhysicalDevice pd, const VkPhysicalDeviceFeatures* features = nullptr, const void* pNext = nullptr,
             const std::vector<const char*>& extensions = {});
  ~TestDevice();
  TestDevice(const TestDevice&) = delete;
  TestDevice& operator=(const TestDevice&) = delete;

  // Device-local memory bound to `image` (freed with this object).
  void bindMemory(VkImage image);
  // A 2D image of `format` (one level, one layer, optimal tiling) with its memory and a view
  // over `aspect`: the render targets the scene tests draw into. The image and the view are
  // destroyed with this object.
  struct Attachment {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
  };
  Attachment createAttachment(VkFormat format, uint32_t width, uint32_t height, VkImageUsageFlags usage,
                              VkImageAspectFlags aspect, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
  // A buffer in host-visible, coherent memory, mapped at *mapped (freed with this object; the
  // caller destroys the buffer).
  VkBuffer createMappedBuffer(VkDeviceSize size, VkBufferUsageFlags usage, void** mapped);
  // A shader module of SPIR-V `code` (the caller destroys it).
  VkShaderModule createShaderModule(const std::vector<uint32_t>& code);
  // Submits one command buffer and waits for the queue to be idle.
  void submitAndWait(VkCommandBuffer cmd);
  // A primary command buffer from a pool of this object's, recording (freed with this object).
  VkCommandBuffer beginCommands();

  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;

 private:
  uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags want) const;
  void allocateFor(const VkMemoryRequirements& req, VkMemoryPropertyFlags want, VkDeviceMemory* out);

  VkPhysicalDeviceMemoryProperties memoryProperties_{};
  std::vector<VkDeviceMemory> memories_;
  std::vector<Attachment> attachments_;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
};

// A pipeline barrier for one image: its layout from `from` to `to` with the given accesses and
// stages, over `range` (the first level and layer of the colour aspect unless given).
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                  VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage,
                  const VkImageSubresourceRange& range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
// Transfer writes made visible to the host (before reading a readback buffer).
void transferToHostBarrier(VkCommandBuffer cmd);
// Dynamic rendering into one colour attachment of width x height, cleared to zeros, with the
// scissor set to the whole of it.
void beginRenderingCleared(VkCommandBuffer cmd, VkImageView view, uint32_t width, uint32_t height);
// The first level and layer of a colour image copied to `buffer` at offset 0, tightly packed.
void copyImageToBuffer(VkCommandBuffer cmd, VkImage image, VkImageLayout layout, uint32_t width, uint32_t height,
                       VkBuffer buffer);
// Records one render of `target` (a width x height colour attachment, its contents discarded):
// dynamic rendering into it cleared to zeros around `draw(cmd)`, then its texels copied to
// `readback` and made visible to the host. The caller ends and submits `cmd`.
void recordDrawAndReadback(VkCommandBuffer cmd, const TestDevice::Attachment& target, uint32_t width, uint32_t height,
                           VkBuffer readback, const std::function<void(VkCommandBuffer)>& draw);

}  // namespace tessera_test
