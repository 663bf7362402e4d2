// Synchronization (spec: "Synchronization and Cache Control"): fences, timeline semaphores
// with wait-before-signal, events set from the host, timestamps.
#include <thread>

#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

using SyncTest = VulkanTest;

VkSemaphore timelineSemaphore(VkDevice device, uint64_t initial) {
  VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, VK_SEMAPHORE_TYPE_TIMELINE, initial};
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
  VkSemaphore s = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSemaphore(device, &ci, nullptr, &s), VK_SUCCESS);
  return s;
}

TEST_F(SyncTest, FenceTimesOutThenSignalsAfterHostSignalsTheTimelineItWaitsOn) {
  VkSemaphore sem = timelineSemaphore(device, 0);
  auto buf = createBuffer(64, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::memset(buf.mapped, 0, 64);
  VkCommandBuffer cb = beginCommands();
  vkCmdFillBuffer(cb, buf.buffer, 0, 64, 7);
  VK_CHECK(vkEndCommandBuffer(cb));
  VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, sem, 5, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, sem, 9, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
  VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cb};
  VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  si.waitSemaphoreInfoCount = 1;
  si.pWaitSemaphoreInfos = &wait;
  si.commandBufferInfoCount = 1;
  si.pCommandBufferInfos = &cbi;
  si.signalSemaphoreInfoCount = 1;
  si.pSignalSemaphoreInfos = &signal;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  VK_CHECK(vkCreateFence(device, &fci, nullptr, &fence));
  VK_CHECK(vkQueueSubmit2(queue, 1, &si, fence));
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 20'000'000), VK_TIMEOUT);  // 20 ms
  EXPECT_EQ(vkGetFenceStatus(device, fence), VK_NOT_READY);
  EXPECT_EQ(buf.mapped[0], 0);  // the wait holds the work back
  VkSemaphoreSignalInfo hostSignal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, sem, 5};
  VK_CHECK(vkSignalSemaphore(device, &hostSignal));
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
  uint64_t value = 0;
  VK_CHECK(vkGetSemaphoreCounterValue(device, sem, &value));
  EXPECT_EQ(value, 9u);
  EXPECT_EQ(buf.mapped[0], 7);
  VkSemaphoreWaitInfo waitInfo{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &sem, &value};
  EXPECT_EQ(vkWaitSemaphores(device, &waitInfo, 0), VK_SUCCESS);
  uint64_t later = 10;
  waitInfo.pValues = &later;
  EXPECT_EQ(vkWaitSemaphores(device, &waitInfo, 1'000'000), VK_TIMEOUT);
  vkDestroyFence(device, fence, nullptr);
  vkDestroySemaphore(device, sem, nullptr);
  vkFreeCommandBuffers(device, pool, 1, &cb);
  destroy(buf);
}

TEST_F(SyncTest, BinarySemaphoreOrdersTwoSubmissions) {
  VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkSemaphore sem;
  VK_CHECK(vkCreateSemaphore(device, &ci, nullptr, &sem));
  auto buf = createBuffer(16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  VkCommandBuffer first = beginCommands();
  vkCmdFillBuffer(first, buf.buffer, 0, 16, 1);
  VK_CHECK(vkEndCommandBuffer(first));
  VkCommandBuffer second = beginCommands();
  vkCmdFillBuffer(second, buf.buffer, 0, 16, 2);
  VK_CHECK(vkEndCommandBuffer(second));
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkSubmitInfo s1{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &first, 1, &sem};
  VkSubmitInfo s2{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 1, &sem, &stage, 1, &second, 0, nullptr};
  VK_CHECK(vkQueueSubmit(queue, 1, &s1, VK_NULL_HANDLE));
  VK_CHECK(vkQueueSubmit(queue, 1, &s2, VK_NULL_HANDLE));
  VK_CHECK(vkQueueWaitIdle(queue));
  EXPECT_EQ(buf.mapped[0], 2);
  VkCommandBuffer both[] = {first, second};
  vkFreeCommandBuffers(device, pool, 2, both);
  vkDestroySemaphore(device, sem, nullptr);
  destroy(buf);
}

TEST_F(SyncTest, CommandBufferWaitsForAnEventTheHostSets) {
  VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  VkEvent event;
  VK_CHECK(vkCreateEvent(device, &eci, nullptr, &event));
  EXPECT_EQ(vkGetEventStatus(device, event), VK_EVENT_RESET);
  auto buf = createBuffer(16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  std::memset(buf.mapped, 0, 16);
  VkCommandBuffer cb = beginCommands();
  vkCmdWaitEvents(cb, 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, nullptr, 0, nullptr, 0, nullptr);
  vkCmdFillBuffer(cb, buf.buffer, 0, 16, 3);
  VK_CHECK(vkEndCommandBuffer(cb));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &cb, 0, nullptr};
  VK_CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(buf.mapped[0], 0);
  VK_CHECK(vkSetEvent(device, event));
  VK_CHECK(vkQueueWaitIdle(queue));
  EXPECT_EQ(buf.mapped[0], 3);
  EXPECT_EQ(vkGetEventStatus(device, event), VK_EVENT_SET);
  vkFreeCommandBuffers(device, pool, 1, &cb);
  vkDestroyEvent(device, event, nullptr);
  destroy(buf);
}

TEST_F(SyncTest, TimestampsIncreaseAndAreAvailable) {
  VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qci.queryCount = 2;
  VkQueryPool qp;
  VK_CHECK(vkCreateQueryPool(device, &qci, nullptr, &qp));
  vkResetQueryPool(device, qp, 0, 2);
  auto buf = createBuffer(1 << 22, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  submitAndWait([&](VkCommandBuffer cb) {
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
    vkCmdFillBuffer(cb, buf.buffer, 0, VK_WHOLE_SIZE, 1);
    vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, qp, 1);
  });
  uint64_t results[4] = {};
  VK_CHECK(vkGetQueryPoolResults(device, qp, 0, 2, sizeof(results), results, 16,
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT));
  EXPECT_EQ(results[1], 1u);
  EXPECT_EQ(results[3], 1u);
  EXPECT_GT(results[2], results[0]);
  vkDestroyQueryPool(device, qp, nullptr);
  destroy(buf);
}

}  // namespace
}  // namespace tessera_test
