// Draws whose counts no memory can hold (2^31 vertices through vkCmdDraw, vkCmdDrawIndexed and
// vkCmdDrawIndirect) never end the process: the draw is refused when it executes and the device
// is lost (Vulkan 1.3 "Lost Device": "the implementation may lose the device ... to
// out-of-memory conditions"), which the application sees as VK_ERROR_DEVICE_LOST from the
// fence wait and the next submit; vkDestroyDevice returns, and a new device draws normally.
// Before the bound (raster/draw_memory_bound.h) and the queue's guard (icd/queue.cpp), the
// queue thread threw std::bad_alloc into std::terminate.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstring>
#include <functional>
#include <vector>

#include "compute_fixture.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 16;
constexpr uint32_t kHuge = 1u << 31;

class HugeDraw : public VulkanTest {
 protected:
  // On a device of its own: a full-screen red triangle pipeline (fullscreen.vert, no vertex
  // input) drawing into a cleared kSize x kSize target with `draw`, then a copy to a buffer.
  // Returns the fence wait's result; *pixelsRed counts red pixels when it succeeded.
  VkResult drawOnOwnDevice(const std::function<VkBuffer(TestDevice&, VkCommandBuffer)>& draw, uint32_t* pixelsRed,
                           VkResult* nextSubmit) {
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13.dynamicRendering = VK_TRUE;
    TestDevice device(physicalDevice, nullptr, &v13);
    const VkDevice dev = device.dev;
    EXPECT_NE(dev, VK_NULL_HANDLE);
    if (!dev) return VK_ERROR_INITIALIZATION_FAILED;
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImage image;
    EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
    device.bindMemory(image);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
    void* readMap;
    VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

    const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
    const VkShaderModule fs = device.createShaderModule(loadCorpusShader("solid_red_frag"));
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
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
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
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                         nullptr, 0, nullptr, 1, &b);
    VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    attachment.imageView = view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = scissor;
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &attachment;
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    const VkBuffer drawBuffer = draw(device, cmd);
    vkCmdEndRendering(cmd);
    b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &b);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                         nullptr);
    EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);

    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    vkCreateFence(dev, &fci, nullptr, &fence);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    EXPECT_EQ(vkQueueSubmit(device.queue, 1, &si, fence), VK_SUCCESS);
    const auto start = std::chrono::steady_clock::now();
    const VkResult waited = vkWaitForFences(dev, 1, &fence, VK_TRUE, 60'000'000'000ull);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30)) << "refused quickly, not drawn";
    if (waited == VK_SUCCESS) {
      *pixelsRed = 0;
      for (uint32_t i = 0; i < kSize * kSize; ++i)
        *pixelsRed += std::memcmp(static_cast<uint8_t*>(readMap) + 4 * i, "\xff\x00\x00\xff", 4) == 0;
    }
    // A further submission on a lost device is refused; on a working one it runs.
    vkResetFences(dev, 1, &fence);
    VkSubmitInfo empty{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    *nextSubmit = vkQueueSubmit(device.queue, 1, &empty, fence);
    vkQueueWaitIdle(device.queue);
    vkDestroyFence(dev, fence, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyPipeline(dev, pipeline, nullptr);
    vkDestroyPipelineLayout(dev, layout, nullptr);
    vkDestroyShaderModule(dev, vs, nullptr);
    vkDestroyShaderModule(dev, fs, nullptr);
    vkDestroyBuffer(dev, readback, nullptr);
    if (drawBuffer) vkDestroyBuffer(dev, drawBuffer, nullptr);
    vkDestroyImageView(dev, view, nullptr);
    vkDestroyImage(dev, image, nullptr);
    return waited;  // ~TestDevice destroys the device: it must return
  }

  // The huge draw loses its device; a draw of 3 vertices on a new device covers the target.
  void expectLostThenRecovered(const std::function<VkBuffer(TestDevice&, VkCommandBuffer)>& hugeDraw) {
    uint32_t red = 0;
    VkResult next = VK_SUCCESS;
    EXPECT_EQ(drawOnOwnDevice(hugeDraw, &red, &next), VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(next, VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(takeMessages("device lost"), 1u) << "the loss is explained through debug utils";
    // The layer never saw the lost submission complete (its fence wait said
    // VK_ERROR_DEVICE_LOST), so it calls the fence and the command buffer in use when they are
    // reset and destroyed; "Lost Device" requires the application to destroy them anyway.
    takeMessages("VUID-vkResetFences-pFences-01123");
    takeMessages("VUID-vkDestroyFence-fence-01120");
    takeMessages("VUID-vkDestroyCommandPool-commandPool-00041");
    EXPECT_EQ(drawOnOwnDevice([](TestDevice&, VkCommandBuffer cmd) {
                return vkCmdDraw(cmd, 3, 1, 0, 0), VkBuffer(VK_NULL_HANDLE);
              }, &red, &next),
              VK_SUCCESS);
    EXPECT_EQ(red, kSize * kSize);
    EXPECT_EQ(next, VK_SUCCESS);
  }
};

TEST_F(HugeDraw, DrawOf2To31VerticesLosesTheDeviceNotTheProcess) {
  expectLostThenRecovered([](TestDevice&, VkCommandBuffer cmd) {
    return vkCmdDraw(cmd, kHuge, 1, 0, 0), VkBuffer(VK_NULL_HANDLE);
  });
}

// 2^31 16-bit indices: the index buffer really is that large (4 GiB, never touched), as
// VUID-vkCmdDrawIndexed-robustBufferAccess2-08798 asks.
TEST_F(HugeDraw, IndexedDrawOf2To31IndicesLosesTheDeviceNotTheProcess) {
  expectLostThenRecovered([](TestDevice& device, VkCommandBuffer cmd) {
    void* mapped = nullptr;
    VkBuffer indices = device.createMappedBuffer(VkDeviceSize(kHuge) * 2, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &mapped);
    vkCmdBindIndexBuffer(cmd, indices, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cmd, kHuge, 1, 0, 0, 0);
    return indices;
  });
}

TEST_F(HugeDraw, IndirectDrawOf2To31VerticesLosesTheDeviceNotTheProcess) {
  expectLostThenRecovered([](TestDevice& device, VkCommandBuffer cmd) {
    void* mapped = nullptr;
    VkBuffer commands = device.createMappedBuffer(sizeof(VkDrawIndirectCommand), VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &mapped);
    const VkDrawIndirectCommand c{kHuge, 1, 0, 0};
    std::memcpy(mapped, &c, sizeof(c));
    vkCmdDrawIndirect(cmd, commands, 0, 1, sizeof(c));
    return commands;
  });
}

}  // namespace
}  // namespace tessera_test
