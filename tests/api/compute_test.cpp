// Compute pipelines through the loader with validation: dispatch variants, pipeline cache data
// round trips, creation feedback, and bad SPIR-V getting a clean error.
#include <cstdlib>
#include <cstring>
#include <string>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

std::vector<uint8_t> floats(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<uint8_t> saxpyPush(float a, uint32_t n) {
  std::vector<uint8_t> b(8);
  std::memcpy(b.data(), &a, 4);
  std::memcpy(b.data() + 4, &n, 4);
  return b;
}

// The width/thread variants of these tests (ctest api_tests.w4.t1 ...) are only worth
// something if the variables reach the driver: the subgroup size is the SIMD width.
TEST_F(ComputeTest, ForcedSimdWidthIsTheSubgroupSize) {
  const char* forced = std::getenv("TESSERA_SIMD_WIDTH");
  if (!forced) GTEST_SKIP() << "TESSERA_SIMD_WIDTH not set";
  VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sub};
  vkGetPhysicalDeviceProperties2(physicalDevice, &props);
  EXPECT_EQ(sub.subgroupSize, uint32_t(std::stoul(forced)));
  EXPECT_NE(std::string(props.properties.deviceName).find(std::to_string(std::stoul(forced) * 32) + " bits"),
            std::string::npos)
      << props.properties.deviceName;
}

TEST_F(ComputeTest, SaxpyThroughTheLoader) {
  const uint32_t n = 100000;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i % 977), y[i] = float(i % 13) - 6.0f;
  auto xb = floats(x), yb = floats(y);
  Program p = createProgram(loadCorpusShader("saxpy"), 2, 8);
  ASSERT_EQ(p.result, VK_SUCCESS);
  run(p, {&xb, &yb}, saxpyPush(3.0f, n), (n + 63) / 64);
  std::vector<float> out(n);
  std::memcpy(out.data(), yb.data(), yb.size());
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 3.0f * x[i] + y[i]) << i;
  destroy(p);
}

TEST_F(ComputeTest, PipelineCacheDataRoundTripsAndReportsAHit) {
  VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineCache(device, &ci, nullptr, &cache), VK_SUCCESS);
  Program first = createProgram(loadCorpusShader("saxpy"), 2, 8, cache);
  ASSERT_EQ(first.result, VK_SUCCESS);
  size_t size = 0;
  ASSERT_EQ(vkGetPipelineCacheData(device, cache, &size, nullptr), VK_SUCCESS);
  EXPECT_GT(size, 32u + 100u) << "the cache holds compiled code, not just its header";
  std::vector<uint8_t> data(size);
  ASSERT_EQ(vkGetPipelineCacheData(device, cache, &size, data.data()), VK_SUCCESS);
  // A new cache from that data (as another process would create it) hits.
  ci.initialDataSize = data.size();
  ci.pInitialData = data.data();
  VkPipelineCache reloaded = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineCache(device, &ci, nullptr, &reloaded), VK_SUCCESS);
  VkPipelineCreationFeedback feedback{};
  VkPipelineCreationFeedbackCreateInfo fci{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
  fci.pPipelineCreationFeedback = &feedback;
  Program second = createProgram(loadCorpusShader("saxpy"), 2, 8, reloaded, &fci);
  ASSERT_EQ(second.result, VK_SUCCESS);
  EXPECT_TRUE(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
  EXPECT_TRUE(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
  // And the pipeline from the cache computes.
  std::vector<float> x{1, 2, 3}, y{10, 20, 30};
  auto xb = floats(x), yb = floats(y);
  run(second, {&xb, &yb}, saxpyPush(2.0f, 3), 1);
  std::vector<float> out(3);
  std::memcpy(out.data(), yb.data(), 12);
  EXPECT_EQ(out, (std::vector<float>{12, 24, 36}));
  // Truncated data: whole entries only, VK_INCOMPLETE.
  size_t small = 40;
  std::vector<uint8_t> part(small);
  EXPECT_EQ(vkGetPipelineCacheData(device, cache, &small, part.data()), VK_INCOMPLETE);
  EXPECT_EQ(small, 32u);
  destroy(first);
  destroy(second);
  vkDestroyPipelineCache(device, cache, nullptr);
  vkDestroyPipelineCache(device, reloaded, nullptr);
}

class ComputeWithoutShaderValidation : public ComputeTest {
 protected:
  ComputeWithoutShaderValidation() { validationDisables = {VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT}; }
};

TEST_F(ComputeWithoutShaderValidation, InvalidSpirvFailsCleanlyWithAMessage) {
  std::vector<uint32_t> words = loadCorpusShader("saxpy");
  // Point an OpStore at an id that does not exist: the module is no longer valid.
  std::vector<uint32_t> broken = words;
  bool patched = false;
  for (size_t i = 5; i < broken.size();) {
    uint32_t count = broken[i] >> 16, op = broken[i] & 0xffff;
    if (op == 62 /* OpStore */) {
      broken[i + 1] = 0x3ffff0;
      patched = true;
      break;
    }
    i += count ? count : 1;
  }
  ASSERT_TRUE(patched);
  Program p = createProgram(broken, 2, 8);
  EXPECT_EQ(p.result, VK_ERROR_UNKNOWN);
  EXPECT_EQ(p.pipeline, VK_NULL_HANDLE);
  EXPECT_EQ(takeMessages("invalid SPIR-V"), 1u) << "the driver names the problem through debug utils";
  destroy(p);
}

}  // namespace
}  // namespace tessera_test
