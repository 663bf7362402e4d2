// The watchdog ("Lost Device"): a submission still running TESSERA_GPU_TIMEOUT_MS after it
// started loses the device instead of holding it forever. A compute shader and a fragment
// shader whose loops never end (tests/shaders/hang.comp, hang.frag) run on a device made with a
// 300 ms deadline: the fence wait returns VK_ERROR_DEVICE_LOST within seconds, the loss is
// explained through debug utils, the next submission is refused, vkDestroyDevice returns
// promptly; a new device (the default deadline) then works. A vkCmdWaitEvents on an event the
// host never sets is lost the same way; a submission waiting for a semaphore is not running,
// and waits past the deadline unharmed. Neither lavapipe nor SwiftShader can
// do this: their fences wait forever.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "compute_fixture.h"
#include "device_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

using Clock = std::chrono::steady_clock;

// TESSERA_GPU_TIMEOUT_MS for the devices created in its scope (the queue reads it when made).
struct GpuTimeout {
  explicit GpuTimeout(const char* ms) { setenv("TESSERA_GPU_TIMEOUT_MS", ms, 1); }
  ~GpuTimeout() { unsetenv("TESSERA_GPU_TIMEOUT_MS"); }
};

class Watchdog : public VulkanTest {
 protected:
  // On a device of its own: records with `record` (given the device and a command buffer; it
  // returns what destroys the objects it made), submits with a fence and returns the wait's
  // result; *next is a second submission's result and *destroySeconds how long destroying the
  // device took.
  using Record = std::function<std::function<void()>(TestDevice&, VkCommandBuffer)>;
  VkResult runOnOwnDevice(const Record& record, VkResult* next, double* destroySeconds) {
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13.dynamicRendering = VK_TRUE;
    v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
    auto device = std::make_unique<TestDevice>(physicalDevice, nullptr, &v13);
    const VkDevice dev = device->dev;
    EXPECT_NE(dev, VK_NULL_HANDLE);
    if (!dev) return VK_ERROR_INITIALIZATION_FAILED;
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    vkCreateCommandPool(dev, &cpci, nullptr, &pool);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(dev, &cbai, &cmd);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    const std::function<void()> destroyObjects = record(*device, cmd);
    EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    vkCreateFence(dev, &fci, nullptr, &fence);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    EXPECT_EQ(vkQueueSubmit(device->queue, 1, &si, fence), VK_SUCCESS);
    const auto start = Clock::now();
    const VkResult waited = vkWaitForFences(dev, 1, &fence, VK_TRUE, 60'000'000'000ull);
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(20)) << "the deadline was 300 ms";
    vkResetFences(dev, 1, &fence);
    VkSubmitInfo empty{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    *next = vkQueueSubmit(device->queue, 1, &empty, fence);
    vkQueueWaitIdle(device->queue);
    vkDestroyFence(dev, fence, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
    destroyObjects();
    const auto destroyStart = Clock::now();
    device.reset();  // destroys what it made, then the device: it must return
    *destroySeconds = std::chrono::duration<double>(Clock::now() - destroyStart).count();
    return waited;
  }

  // The messages a lost device's objects draw from the validation layer: it never saw the
  // submission complete, so it calls the fence and the command buffer still in use.
  void takeLostDeviceNoise() {
    takeMessages("VUID-vkResetFences-pFences-01123");
    takeMessages("VUID-vkDestroyFence-fence-01120");
    takeMessages("VUID-vkDestroyCommandPool-commandPool-00041");
  }
};

// A compute pipeline of `shader` with one storage buffer (binding 0, 256 bytes, zeroed, mapped
// at *mapped), dispatched with `groups` workgroups. Returns what destroys the objects.
std::function<void()> recordDispatch(TestDevice& device, VkCommandBuffer cmd, const char* shader, uint32_t groups,
                                     void** mapped) {
  RecordedDispatch r = recordDispatchOnDevice(device, cmd, shader, {{std::vector<uint32_t>(64, 0)}}, groups);
  *mapped = r.maps[0];
  return r.destroy;
}

TEST_F(Watchdog, AComputeShaderThatNeverEndsLosesTheDeviceWithinTheDeadline) {
  VkResult next = VK_SUCCESS;
  double destroySeconds = 0;
  void* mapped = nullptr;
  {
    GpuTimeout timeout("300");
    EXPECT_EQ(runOnOwnDevice([&](TestDevice& d, VkCommandBuffer cmd) { return recordDispatch(d, cmd, "hang", 4, &mapped); },
                             &next, &destroySeconds),
              VK_ERROR_DEVICE_LOST);
  }
  EXPECT_EQ(next, VK_ERROR_DEVICE_LOST);
  EXPECT_LT(destroySeconds, 5.0);
  EXPECT_EQ(takeMessages("TESSERA_GPU_TIMEOUT_MS"), 1u) << "the loss is explained through debug utils";
  takeLostDeviceNoise();
  // A new device, with the default deadline, runs work as before: the same dispatch with the
  // loop's exit word set ends at once.
  VkResult fine = VK_ERROR_UNKNOWN;
  EXPECT_EQ(runOnOwnDevice([&](TestDevice& d, VkCommandBuffer cmd) {
              auto destroy = recordDispatch(d, cmd, "hang", 4, &mapped);
              const uint32_t stop = 12345;
              std::memcpy(mapped, &stop, 4);
              return destroy;
            }, &fine, &destroySeconds),
            VK_SUCCESS);
  EXPECT_EQ(fine, VK_SUCCESS);
}

TEST_F(Watchdog, AFragmentShaderThatNeverEndsLosesTheDevice) {
  VkResult next = VK_SUCCESS;
  double destroySeconds = 0;
  GpuTimeout timeout("300");
  auto draw = [&](TestDevice& device, VkCommandBuffer cmd) {
    const VkDevice dev = device.dev;
    const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {16, 16, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    VkImage image;
    vkCreateImage(dev, &ici, nullptr, &image);
    device.bindMemory(image);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    vkCreateImageView(dev, &vci, nullptr, &view);
    const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
    const VkShaderModule fs = device.createShaderModule(loadCorpusShader("hang_frag"));
    const VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
    const VkPushConstantRange push{VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 0, nullptr, 1, &push};
    VkPipelineLayout layout;
    vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, 16, 16, 0, 1};
    VkRect2D scissor{{0, 0}, {16, 16}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
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
    VkPipeline pipeline;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &b);
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
    const uint32_t stop = 0;
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &stop);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    return std::function<void()>([=] {
      vkDestroyPipeline(dev, pipeline, nullptr);
      vkDestroyPipelineLayout(dev, layout, nullptr);
      vkDestroyShaderModule(dev, vs, nullptr);
      vkDestroyShaderModule(dev, fs, nullptr);
      vkDestroyImageView(dev, view, nullptr);
      vkDestroyImage(dev, image, nullptr);
    });
  };
  EXPECT_EQ(runOnOwnDevice(draw, &next, &destroySeconds), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(next, VK_ERROR_DEVICE_LOST);
  EXPECT_LT(destroySeconds, 5.0);
  EXPECT_EQ(takeMessages("TESSERA_GPU_TIMEOUT_MS"), 1u);
  takeLostDeviceNoise();
}

TEST_F(Watchdog, WaitingForAnEventTheHostNeverSetsLosesTheDevice) {
  // vkCmdWaitEvents on a host event: the queue's wait is work in flight (a GPU would hang the
  // same way), so the deadline applies and the wait stops when the device is lost.
  VkResult next = VK_SUCCESS;
  double destroySeconds = 0;
  GpuTimeout timeout("300");
  auto wait = [&](TestDevice& device, VkCommandBuffer cmd) {
    const VkDevice dev = device.dev;
    VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    VkEvent event;
    EXPECT_EQ(vkCreateEvent(dev, &eci, nullptr, &event), VK_SUCCESS);
    vkCmdWaitEvents(cmd, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr, 0,
                    nullptr);
    return std::function<void()>([=] { vkDestroyEvent(dev, event, nullptr); });
  };
  EXPECT_EQ(runOnOwnDevice(wait, &next, &destroySeconds), VK_ERROR_DEVICE_LOST);
  EXPECT_EQ(next, VK_ERROR_DEVICE_LOST);
  EXPECT_LT(destroySeconds, 5.0);
  EXPECT_EQ(takeMessages("TESSERA_GPU_TIMEOUT_MS"), 1u);
  takeLostDeviceNoise();
  takeMessages("VUID-vkDestroyEvent-event-01145");
}

TEST_F(Watchdog, WaitingForASemaphoreIsNotWorkAndNeverTimesOut) {
  // A submission whose wait semaphore the host signals long after the deadline has not run
  // yet: the device must stay usable and the submission's work must then run.
  GpuTimeout timeout("200");
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.timelineSemaphore = VK_TRUE;
  TestDevice device(physicalDevice, nullptr, &v12);
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  VkSemaphore semaphore;
  ASSERT_EQ(vkCreateSemaphore(dev, &sci, nullptr, &semaphore), VK_SUCCESS);
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  void* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &mapped);
  std::memset(mapped, 0, 16);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdFillBuffer(cmd, buffer, 0, 16, 0x600dcafe);
  vkEndCommandBuffer(cmd);
  const uint64_t waitValue = 1;
  VkTimelineSemaphoreSubmitInfo tssi{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, 1, &waitValue, 0, nullptr};
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, &tssi, 1, &semaphore, &stage, 1, &cmd};
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  vkCreateFence(dev, &fci, nullptr, &fence);
  ASSERT_EQ(vkQueueSubmit(device.queue, 1, &si, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(dev, 1, &fence, VK_TRUE, 800'000'000ull), VK_TIMEOUT) << "four deadlines later";
  const VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, semaphore, 1};
  ASSERT_EQ(vkSignalSemaphore(dev, &signal), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(dev, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
  uint32_t first;
  std::memcpy(&first, mapped, 4);
  EXPECT_EQ(first, 0x600dcafeu);
  EXPECT_EQ(takeMessages("TESSERA_GPU_TIMEOUT_MS"), 0u);
  vkDestroyFence(dev, fence, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroySemaphore(dev, semaphore, nullptr);
}

}  // namespace
}  // namespace tessera_test
