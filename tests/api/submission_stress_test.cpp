// Multi-queue, multi-thread submission stress: several threads on several logical devices (each
// with its own queue, worker and watchdog thread; Tessera offers one queue per device) record
// and submit compute and transfer work at the same time, ordered by timeline semaphores (a
// host-signalled gate waited on before it is signalled, and a per-thread progress timeline) and
// fences, and check every result. Threads sharing a queue take its mutex around submissions
// (queues are externally synchronized); everything else a thread touches is its own (command
// pool, descriptor pool, buffers, semaphores, fence) except the device's pipeline cache, which
// every thread's pipeline creation goes through concurrently.
//
// It runs in the normal suite and is the workload of the TSan run (README "Sanitizers").
#include <array>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

constexpr uint32_t kDevices = 2;
constexpr uint32_t kThreadsPerDevice = 3;
constexpr uint32_t kIterations = 64;
constexpr uint32_t kElements = 300;  // not a multiple of saxpy's workgroup size (64)
constexpr uint64_t kTimeout = 20'000'000'000ull;  // 20 s: generous for sanitizer builds

// One logical device with its queue, the mutex that serializes submissions to it, and what its
// threads share: saxpy's set and pipeline layouts, its shader module and a pipeline cache.
struct SharedDevice {
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::mutex queueMutex;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipelineCache cache = VK_NULL_HANDLE;
};

// A device with one queue and what the test uses: timeline semaphores, synchronization2,
// maintenance4.
VkDevice createDevice(VkPhysicalDevice pd) {
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.synchronization2 = VK_TRUE;
  v13.maintenance4 = VK_TRUE;  // glslang's Vulkan 1.3 SPIR-V declares LocalSizeId
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  v12.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  VkDevice device = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDevice(pd, &dci, nullptr, &device), VK_SUCCESS);
  return device;
}

void setUpShared(SharedDevice& d, const std::vector<uint32_t>& spirv) {
  vkGetDeviceQueue(d.device, 0, 0, &d.queue);
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 2;
  dl.pBindings = bindings;
  EXPECT_EQ(vkCreateDescriptorSetLayout(d.device, &dl, nullptr, &d.setLayout), VK_SUCCESS);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &d.setLayout;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &range;
  EXPECT_EQ(vkCreatePipelineLayout(d.device, &pl, nullptr, &d.layout), VK_SUCCESS);
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size() * 4;
  sm.pCode = spirv.data();
  EXPECT_EQ(vkCreateShaderModule(d.device, &sm, nullptr, &d.module), VK_SUCCESS);
  VkPipelineCacheCreateInfo pc{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  EXPECT_EQ(vkCreatePipelineCache(d.device, &pc, nullptr, &d.cache), VK_SUCCESS);
}

void tearDownShared(SharedDevice& d, bool destroyDevice) {
  vkDeviceWaitIdle(d.device);
  vkDestroyPipelineCache(d.device, d.cache, nullptr);
  vkDestroyShaderModule(d.device, d.module, nullptr);
  vkDestroyPipelineLayout(d.device, d.layout, nullptr);
  vkDestroyDescriptorSetLayout(d.device, d.setLayout, nullptr);
  if (destroyDevice) vkDestroyDevice(d.device, nullptr);
}

// A host-visible buffer of memory type 0 (Tessera's only type: host visible and coherent), mapped.
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  float* data = nullptr;
};

Buffer createBuffer(VkDevice device, VkDeviceSize size, VkBufferUsageFlags usage) {
  Buffer b;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = usage;
  EXPECT_EQ(vkCreateBuffer(device, &bci, nullptr, &b.buffer), VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, b.buffer, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  EXPECT_EQ(vkAllocateMemory(device, &mai, nullptr, &b.memory), VK_SUCCESS);
  EXPECT_EQ(vkBindBufferMemory(device, b.buffer, b.memory, 0), VK_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
  b.data = static_cast<float*>(p);
  return b;
}

void destroyBuffer(VkDevice device, Buffer& b) {
  vkDestroyBuffer(device, b.buffer, nullptr);
  vkFreeMemory(device, b.memory, nullptr);
}

VkSemaphore timeline(VkDevice device) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, 0};
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  VkSemaphore s = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSemaphore(device, &ci, nullptr, &s), VK_SUCCESS);
  return s;
}

// One thread's work on `d`: its own pipeline (created concurrently with the other threads'
// through the shared cache), then kIterations rounds of
//   compute: y = a * x + y (saxpy), waiting on the host's gate, signalling progress 2k+1;
//   transfer: y -> readback, x filled with a marker, waiting on 2k+1, signalling 2k+2 and a fence;
// the gate signalled from the host only after both are queued (wait-before-signal), then the
// results checked. Returns an empty string or what went wrong.
std::string runThread(SharedDevice& d, uint32_t thread) {
  VkDevice dev = d.device;
  std::string failure;
  auto check = [&](bool ok, const std::string& what) {
    if (!ok && failure.empty()) failure = "thread " + std::to_string(thread) + ": " + what;
    return ok;
  };
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, d.module, "main"};
  ci.layout = d.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (!check(vkCreateComputePipelines(dev, d.cache, 1, &ci, nullptr, &pipeline) == VK_SUCCESS, "pipeline"))
    return failure;

  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VkCommandPool pool = VK_NULL_HANDLE;
  check(vkCreateCommandPool(dev, &cpi, nullptr, &pool) == VK_SUCCESS, "command pool");
  std::array<VkCommandBuffer, 2> cbs{};  // [0] compute, [1] transfer
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 2};
  check(vkAllocateCommandBuffers(dev, &cai, cbs.data()) == VK_SUCCESS, "command buffers");

  const VkDeviceSize bytes = kElements * sizeof(float);
  Buffer x = createBuffer(dev, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  Buffer y = createBuffer(dev, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  Buffer readback = createBuffer(dev, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  check(vkCreateDescriptorPool(dev, &dpi, nullptr, &descriptorPool) == VK_SUCCESS, "descriptor pool");
  VkDescriptorSetAllocateInfo dai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &d.setLayout};
  VkDescriptorSet set = VK_NULL_HANDLE;
  check(vkAllocateDescriptorSets(dev, &dai, &set) == VK_SUCCESS, "descriptor set");
  VkDescriptorBufferInfo infos[2] = {{x.buffer, 0, VK_WHOLE_SIZE}, {y.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 2,
                             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, infos};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  VkSemaphore gate = timeline(dev), progress = timeline(dev);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence = VK_NULL_HANDLE;
  check(vkCreateFence(dev, &fci, nullptr, &fence) == VK_SUCCESS, "fence");

  const uint32_t marker = 0xA5A50000u | thread;
  for (uint32_t k = 0; k < kIterations && failure.empty(); ++k) {
    for (uint32_t i = 0; i < kElements; ++i) {
      x.data[i] = float(i + k);
      y.data[i] = float(thread * 7);
    }
    // Recorded afresh every round, while the other threads record and submit theirs.
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cbs[0], &bi) == VK_SUCCESS, "begin compute");
    vkCmdBindPipeline(cbs[0], VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cbs[0], VK_PIPELINE_BIND_POINT_COMPUTE, d.layout, 0, 1, &set, 0, nullptr);
    struct {
      float a;
      uint32_t n;
    } push{float(k + 1), kElements};
    vkCmdPushConstants(cbs[0], d.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cbs[0], (kElements + 63) / 64, 1, 1);
    check(vkEndCommandBuffer(cbs[0]) == VK_SUCCESS, "end compute");
    check(vkBeginCommandBuffer(cbs[1], &bi) == VK_SUCCESS, "begin transfer");
    VkBufferCopy region{0, 0, bytes};
    vkCmdCopyBuffer(cbs[1], y.buffer, readback.buffer, 1, &region);
    vkCmdFillBuffer(cbs[1], x.buffer, 0, VK_WHOLE_SIZE, marker);
    check(vkEndCommandBuffer(cbs[1]) == VK_SUCCESS, "end transfer");

    VkSemaphoreSubmitInfo waitGate{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, gate, k + 1,
                                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT};
    VkSemaphoreSubmitInfo computed{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, progress, 2 * k + 1,
                                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT};
    VkSemaphoreSubmitInfo waitComputed = computed;
    waitComputed.stageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    VkSemaphoreSubmitInfo copied{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, progress, 2 * k + 2,
                                 VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT};
    VkCommandBufferSubmitInfo cbi[2] = {{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cbs[0]},
                                        {VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cbs[1]}};
    VkSubmitInfo2 submits[2] = {{VK_STRUCTURE_TYPE_SUBMIT_INFO_2}, {VK_STRUCTURE_TYPE_SUBMIT_INFO_2}};
    submits[0].waitSemaphoreInfoCount = 1;
    submits[0].pWaitSemaphoreInfos = &waitGate;
    submits[0].commandBufferInfoCount = 1;
    submits[0].pCommandBufferInfos = &cbi[0];
    submits[0].signalSemaphoreInfoCount = 1;
    submits[0].pSignalSemaphoreInfos = &computed;
    submits[1].waitSemaphoreInfoCount = 1;
    submits[1].pWaitSemaphoreInfos = &waitComputed;
    submits[1].commandBufferInfoCount = 1;
    submits[1].pCommandBufferInfos = &cbi[1];
    submits[1].signalSemaphoreInfoCount = 1;
    submits[1].pSignalSemaphoreInfos = &copied;
    {
      // Odd rounds submit the two batches in one call, even rounds in two.
      std::lock_guard<std::mutex> lock(d.queueMutex);
      if (k % 2) {
        check(vkQueueSubmit2(d.queue, 2, submits, fence) == VK_SUCCESS, "submit");
      } else {
        check(vkQueueSubmit2(d.queue, 1, &submits[0], VK_NULL_HANDLE) == VK_SUCCESS, "submit compute");
        check(vkQueueSubmit2(d.queue, 1, &submits[1], fence) == VK_SUCCESS, "submit transfer");
      }
    }
    VkSemaphoreSignalInfo open{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, gate, k + 1};
    check(vkSignalSemaphore(dev, &open) == VK_SUCCESS, "signal gate");
    // Every third round waits on the timeline first, the others on the fence alone.
    if (k % 3 == 0) {
      uint64_t value = 2 * k + 2;
      VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &progress, &value};
      check(vkWaitSemaphores(dev, &wi, kTimeout) == VK_SUCCESS, "wait timeline");
    }
    check(vkWaitForFences(dev, 1, &fence, VK_TRUE, kTimeout) == VK_SUCCESS, "wait fence");
    uint64_t reached = 0;
    check(vkGetSemaphoreCounterValue(dev, progress, &reached) == VK_SUCCESS && reached == 2 * k + 2,
          "progress value " + std::to_string(reached) + " in round " + std::to_string(k));
    for (uint32_t i = 0; i < kElements && failure.empty(); ++i) {
      const float want = float(k + 1) * float(i + k) + float(thread * 7);
      check(readback.data[i] == want, "round " + std::to_string(k) + " element " + std::to_string(i) + ": " +
                                          std::to_string(readback.data[i]) + " != " + std::to_string(want));
      uint32_t bits;
      std::memcpy(&bits, &x.data[i], 4);
      check(bits == marker, "fill in round " + std::to_string(k));
    }
    check(vkResetFences(dev, 1, &fence) == VK_SUCCESS, "reset fence");
  }

  vkDestroyFence(dev, fence, nullptr);
  vkDestroySemaphore(dev, gate, nullptr);
  vkDestroySemaphore(dev, progress, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  destroyBuffer(dev, x);
  destroyBuffer(dev, y);
  destroyBuffer(dev, readback);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  return failure;
}

using SubmissionStress = VulkanTest;

TEST_F(SubmissionStress, ThreadsOnSeveralQueuesSubmitComputeAndTransferWithTimelinesAndFences) {
  const std::vector<uint32_t> spirv = loadCorpusShader("saxpy");
  ASSERT_FALSE(spirv.empty());
  std::array<std::unique_ptr<SharedDevice>, kDevices> devices;
  for (uint32_t i = 0; i < kDevices; ++i) {
    devices[i] = std::make_unique<SharedDevice>();
    // The fixture's device is the first; the others are created here, each with its own queue.
    devices[i]->device = i == 0 ? device : createDevice(physicalDevice);
    ASSERT_NE(devices[i]->device, VK_NULL_HANDLE);
    setUpShared(*devices[i], spirv);
  }
  std::vector<std::string> failures(kDevices * kThreadsPerDevice);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kDevices * kThreadsPerDevice; ++t)
    threads.emplace_back([&, t] { failures[t] = runThread(*devices[t % kDevices], t); });
  for (std::thread& t : threads) t.join();
  for (const std::string& f : failures) EXPECT_EQ(f, "");
  for (uint32_t i = 0; i < kDevices; ++i) tearDownShared(*devices[i], i != 0);
}

}  // namespace
}  // namespace tessera_test
