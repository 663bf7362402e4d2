// VK_KHR_shader_clock and VK_EXT_calibrated_timestamps through the loader with validation, on
// Tessera and on lavapipe in the same test.
//
// Shader clock (SPIR-V OpReadClockKHR; GLSL clockARB, clockRealtime2x32EXT in
// tests/shaders/shader_clock.comp): "the clock ... is a monotonically incrementing counter" at
// Subgroup and Device scope, read as a 64-bit integer or as two words (low first). A read after
// some work in the same invocation must be later than the read before it.
//
// Calibrated timestamps ("Calibrated timestamps"): the time domains a device offers, and
// vkGetCalibratedTimestampsEXT. VK_TIME_DOMAIN_DEVICE_EXT values "are comparable with device
// timestamp values captured using vkCmdWriteTimestamp" (in units of timestampPeriod);
// VK_TIME_DOMAIN_CLOCK_MONOTONIC(_RAW)_EXT values are those of clock_gettime on that clock.
#include <gtest/gtest.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kInvocations = 128;

uint64_t hostNow(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// The shader's five values per invocation: subgroup start/end, device start/end, its result.
std::vector<uint64_t> runClockShader(VkPhysicalDevice pd) {
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &clock};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(clock.shaderSubgroupClock);
  EXPECT_TRUE(clock.shaderDeviceClock);
  EXPECT_TRUE(supported.features.shaderInt64);
  if (!clock.shaderSubgroupClock || !clock.shaderDeviceClock || !supported.features.shaderInt64) return {};
  VkPhysicalDeviceFeatures features{};
  features.shaderInt64 = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &clock};
  v13.maintenance4 = VK_TRUE;  // glslang's SPIR-V 1.6 gives the workgroup size as LocalSizeId
  clock.pNext = nullptr;
  TestDevice device(pd, &features, &v13, {VK_KHR_SHADER_CLOCK_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &range};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule module = device.createShaderModule(loadCorpusShader("shader_clock"));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);

  void* map;
  const VkDeviceSize bytes = kInvocations * 5 * 8;
  VkBuffer buffer = device.createMappedBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &map);
  std::memset(map, 0, bytes);
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  const VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                             nullptr, &info};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpoolci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  const uint32_t iterations = 20000;
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &iterations);
  vkCmdDispatch(cmd, kInvocations / 64, 1, 1);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint64_t> out(kInvocations * 5);
  std::memcpy(out.data(), map, bytes);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return out;
}

void expectClocksAdvance(const std::vector<uint64_t>& t, const char* driver) {
  ASSERT_EQ(t.size(), size_t(kInvocations * 5)) << driver;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint64_t* v = &t[5 * i];
    EXPECT_GT(v[1], v[0]) << driver << ": subgroup clock of invocation " << i << " did not advance";
    EXPECT_GT(v[3], v[2]) << driver << ": device clock of invocation " << i << " did not advance";
    if (v[1] <= v[0] || v[3] <= v[2]) return;
  }
}

TEST(ShaderClock, SubgroupAndDeviceClocksAdvanceAsOnLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint64_t> ours = runClockShader(drivers.tessera);
  expectClocksAdvance(ours, "Tessera");
  if (drivers.lavapipe) {
    const std::vector<uint64_t> reference = runClockShader(drivers.lavapipe);
    expectClocksAdvance(reference, "lavapipe");
    // The work itself must agree (the clocks did not disturb what the shader computes).
    for (uint32_t i = 0; i < kInvocations && !ours.empty() && !reference.empty(); ++i)
      EXPECT_EQ(ours[5 * i + 4], reference[5 * i + 4]) << i;
  }
}

struct Calibrated {
  uint64_t device = 0, monotonic = 0, raw = 0, deviation = 0;
};

// `checkRaw`: hold the CLOCK_MONOTONIC_RAW domain to clock_gettime too. lavapipe 22.3 answers
// that domain with CLOCK_MONOTONIC's value (0.2 s apart on a machine up for a day), so it is
// checked on Tessera only.
void checkCalibratedTimestamps(VkPhysicalDevice pd, const char* driver, bool checkRaw) {
  SCOPED_TRACE(driver);
  TestDevice device(pd, nullptr, nullptr, {VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);
  auto calibrate =
      reinterpret_cast<PFN_vkGetCalibratedTimestampsEXT>(vkGetDeviceProcAddr(dev, "vkGetCalibratedTimestampsEXT"));
  ASSERT_NE(calibrate, nullptr);

  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  uint32_t families = 1;
  VkQueueFamilyProperties family;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, &family);
  ASSERT_GT(family.timestampValidBits, 0u);

  auto sample = [&] {
    const VkCalibratedTimestampInfoEXT infos[3] = {
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT},
        {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT}};
    uint64_t values[3] = {}, deviation = 0;
    EXPECT_EQ(calibrate(dev, 3, infos, values, &deviation), VK_SUCCESS);
    return Calibrated{values[0], values[1], values[2], deviation};
  };

  // Host clocks: the calibrated values lie between reads of the same clock around the call.
  const uint64_t monotonicBefore = hostNow(CLOCK_MONOTONIC), rawBefore = hostNow(CLOCK_MONOTONIC_RAW);
  const Calibrated first = sample();
  const uint64_t monotonicAfter = hostNow(CLOCK_MONOTONIC), rawAfter = hostNow(CLOCK_MONOTONIC_RAW);
  EXPECT_GE(first.monotonic, monotonicBefore);
  EXPECT_LE(first.monotonic, monotonicAfter);
  if (checkRaw) {
    EXPECT_GE(first.raw, rawBefore);
    EXPECT_LE(first.raw, rawAfter);
  }
  EXPECT_GT(first.deviation, 0u);

  // Device domain: a timestamp written by the device between two calibrations lies between
  // their device values (converted by timestampPeriod, masked to timestampValidBits).
  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, nullptr, 0, VK_QUERY_TYPE_TIMESTAMP, 1};
  VkQueryPool queries;
  ASSERT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &queries), VK_SUCCESS);
  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpoolci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdResetQueryPool(cmd, queries, 0, 1);
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, queries, 0);
  vkEndCommandBuffer(cmd);
  const Calibrated before = sample();
  device.submitAndWait(cmd);
  const Calibrated after = sample();
  uint64_t timestamp = 0;
  ASSERT_EQ(vkGetQueryPoolResults(dev, queries, 0, 1, 8, &timestamp, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  const uint64_t mask = family.timestampValidBits >= 64 ? ~0ull : (1ull << family.timestampValidBits) - 1;
  EXPECT_LE(before.device & mask, timestamp) << "device domain vs vkCmdWriteTimestamp";
  EXPECT_GE(after.device & mask, timestamp) << "device domain vs vkCmdWriteTimestamp";
  // Both domains advance by the same time: the device's in timestampPeriod nanoseconds.
  const double deviceNs = double(after.device - before.device) * props.limits.timestampPeriod;
  const double hostNs = double(after.monotonic - before.monotonic);
  EXPECT_NEAR(deviceNs, hostNs, double(before.deviation + after.deviation) + 1e-3 * hostNs);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyQueryPool(dev, queries, nullptr);
}

TEST(CalibratedTimestamps, DomainsAreOfferedAndAgreeWithTimestampsAndHostClocks) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  auto getDomains = reinterpret_cast<PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT>(
      vkGetInstanceProcAddr(drivers.instance, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT"));
  ASSERT_NE(getDomains, nullptr);
  uint32_t n = 0;
  ASSERT_EQ(getDomains(drivers.tessera, &n, nullptr), VK_SUCCESS);
  std::vector<VkTimeDomainEXT> domains(n);
  ASSERT_EQ(getDomains(drivers.tessera, &n, domains.data()), VK_SUCCESS);
  for (VkTimeDomainEXT d : {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT})
    EXPECT_NE(std::find(domains.begin(), domains.end(), d), domains.end()) << d;
  uint32_t one = 1;
  VkTimeDomainEXT partial;
  EXPECT_EQ(getDomains(drivers.tessera, &one, &partial), VK_INCOMPLETE);
  checkCalibratedTimestamps(drivers.tessera, "Tessera", true);
  if (drivers.lavapipe) checkCalibratedTimestamps(drivers.lavapipe, "lavapipe", false);
}

}  // namespace
}  // namespace tessera_test
