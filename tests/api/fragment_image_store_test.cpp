// Storage-image stores from a fragment shader, through the loader with validation, on Tessera
// and on lavapipe in the same test. A triangle whose slanted edge cuts 2x2 quads
// (tests/shaders/diagonal_triangle.vert) is drawn with image_store_coverage.frag, which marks
// its pixel in an R32_UINT storage image and writes green. Spec, "Helper Invocations": stores
// from helper invocations have no effect; so the marked texels must be exactly the pixels whose
// colour was written, and the same on lavapipe. (Tessera's JIT addresses R32 storage images
// inline with a masked scatter whose mask must leave the helpers out: translate_image.cpp,
// plainWordsOr.)
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "simple_pipeline.h"
#include "test_device.h"

namespace tessera_test {

namespace {

constexpr uint32_t kSize = 24;
constexpr uint32_t kUnmarked = 0xABCDu;

struct Results {
  std::vector<uint32_t> marks;  // kSize x kSize
  std::vector<uint8_t> pixels;  // kSize x kSize RGBA8
};

Results run(VkPhysicalDevice pd) {
  VkPhysicalDeviceFeatures features{};
  features.fragmentStoresAndAtomics = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, &features, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const TestDevice::Attachment colour =
      device.createAttachment(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment marks = device.createAttachment(
      VK_FORMAT_R32_UINT, kSize, kSize,
      VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT);

  const VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("diagonal_triangle_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("image_store_coverage_frag"));
  const VkPipeline pipeline = createSimplePipeline(dev, {vs, fs, layout, kSize, kSize});

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  const VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, marks.view, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                             &imageInfo};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  void* pixelMap;
  void* markMap;
  VkBuffer pixelReadback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &pixelMap);
  VkBuffer markReadback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &markMap);

  VkCommandBuffer cmd = device.beginCommands();
  // The marks start as kUnmarked everywhere.
  imageBarrier(cmd, marks.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
             VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkClearColorValue unmarked{};
  unmarked.uint32[0] = kUnmarked;
  const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdClearColorImage(cmd, marks.image, VK_IMAGE_LAYOUT_GENERAL, &unmarked, 1, &range);
  imageBarrier(cmd, marks.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
             VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
  imageBarrier(cmd, colour.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);

  beginRenderingCleared(cmd, colour.view, kSize, kSize);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);

  imageBarrier(cmd, colour.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
             VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
             VK_PIPELINE_STAGE_TRANSFER_BIT);
  imageBarrier(cmd, marks.image, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_SHADER_WRITE_BIT,
             VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  copyImageToBuffer(cmd, colour.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kSize, kSize, pixelReadback);
  copyImageToBuffer(cmd, marks.image, VK_IMAGE_LAYOUT_GENERAL, kSize, kSize, markReadback);
  transferToHostBarrier(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  Results out;
  out.pixels.resize(kSize * kSize * 4);
  std::memcpy(out.pixels.data(), pixelMap, out.pixels.size());
  out.marks.resize(kSize * kSize);
  std::memcpy(out.marks.data(), markMap, out.marks.size() * 4);

  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  for (VkShaderModule m : {vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
  for (VkBuffer b : {pixelReadback, markReadback}) vkDestroyBuffer(dev, b, nullptr);
  return out;
}

TEST(FragmentImageStore, HelperInvocationsStoreNothingAndEveryCoveredPixelIsMarked) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Results ours = run(drivers.tessera);
  ASSERT_EQ(ours.marks.size(), size_t(kSize * kSize));
  uint32_t covered = 0;
  int failures = 0;
  for (uint32_t p = 0; p < kSize * kSize && failures < 5; ++p) {
    const bool written = ours.pixels[4 * p + 1] == 255;  // green
    covered += written;
    const uint32_t want = written ? 7u : kUnmarked;
    if (ours.marks[p] != want) {
      ADD_FAILURE() << "pixel (" << p % kSize << ", " << p / kSize << "): mark " << ours.marks[p] << ", colour "
                    << (written ? "written" : "not written");
      ++failures;
    }
  }
  // A real partial cover: neither nothing nor everything.
  EXPECT_GT(covered, kSize * kSize / 4);
  EXPECT_LT(covered, kSize * kSize * 3 / 4);
  if (!drivers.lavapipe) return;
  const Results reference = run(drivers.lavapipe);
  EXPECT_EQ(ours.marks, reference.marks) << "lavapipe marks other pixels";
  EXPECT_EQ(ours.pixels, reference.pixels) << "lavapipe covers other pixels";
}

}  // namespace
}  // namespace tessera_test
