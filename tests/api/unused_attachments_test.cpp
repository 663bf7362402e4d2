// VK_EXT_dynamic_rendering_unused_attachments through the loader with validation: a pipeline
// whose colour attachment format is VK_FORMAT_UNDEFINED (its fragment shader writes no
// output there, as the spec requires of such a pipeline) drawn in a render pass instance that
// binds an RGBA8 view at that index, which the extension allows, leaves the attachment as the
// clear made it; the same draw through a pipeline with the format RGBA8 and a shader writing
// white does write the triangle (so the first result is not a draw that did nothing). The
// CTS's unused_attachments cases cover the other combinations (views absent, depth and
// stencil). Tessera only: lavapipe 22.3.6 lacks the extension.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <vector>

#include "dual_driver.h"
#include "simple_pipeline.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 40;

// VkPhysicalDeviceDynamicRenderingUnusedAttachmentsFeaturesEXT, as the later headers define it.
struct UnusedAttachmentsFeatures {
  VkStructureType sType = VkStructureType(1000499000);
  void* pNext = nullptr;
  VkBool32 dynamicRenderingUnusedAttachments = VK_TRUE;
};

// The RGBA8 target's texels after one draw of sliver_triangle_vert and `fragment` through a
// pipeline whose colour attachment format is `pipelineFormat`.
std::vector<uint8_t> drawWithPipelineFormat(VkPhysicalDevice pd, VkFormat pipelineFormat, const char* fragment) {
  UnusedAttachmentsFeatures unused;
  return drawCorpusTriangle(pd, "sliver_triangle_vert", fragment, VK_FORMAT_R8G8B8A8_UNORM, kSize, 4, {}, nullptr, &unused,
                            {"VK_EXT_dynamic_rendering_unused_attachments"}, pipelineFormat);
}

size_t whiteTexels(const std::vector<uint8_t>& texels) {
  size_t n = 0;
  for (size_t i = 0; i + 3 < texels.size(); i += 4) n += texels[i] == 255 && texels[i + 1] == 255 && texels[i + 2] == 255;
  return n;
}

TEST(DynamicRenderingUnusedAttachments, AnAttachmentThePipelineLeavesUndefinedKeepsItsClear) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's extension";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  // The installed validation layers (1.3.239) predate the extension: they take its feature
  // structure for an unknown one and the pipeline's UNDEFINED format against a bound view for
  // the mismatch that dynamic rendering without the extension forbids.
  drivers.tolerate("VUID-VkDeviceCreateInfo-pNext-pNext");
  drivers.tolerate("VUID-vkCmdDraw-colorAttachmentCount-06180");
  const std::vector<uint8_t> written = drawWithPipelineFormat(drivers.tessera, VK_FORMAT_R8G8B8A8_UNORM, "sample_counts_white_frag");
  ASSERT_EQ(written.size(), size_t(kSize) * kSize * 4);
  EXPECT_GE(whiteTexels(written), size_t(kSize / 2));  // the sliver, a texel every other row or more
  const std::vector<uint8_t> unused = drawWithPipelineFormat(drivers.tessera, VK_FORMAT_UNDEFINED, "no_outputs_frag");
  ASSERT_EQ(unused.size(), written.size());
  EXPECT_EQ(unused, std::vector<uint8_t>(unused.size(), 0)) << "the attachment the pipeline does not use was written";
}

}  // namespace
}  // namespace tessera_test
