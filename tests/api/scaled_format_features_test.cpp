// USCALED/SSCALED formats are not offered for sampling (spec "Format Properties": a sampled
// image view needs VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, and vkGetPhysicalDeviceImageFormat-
// Properties answers VK_ERROR_FORMAT_NOT_SUPPORTED for a usage the format's features do not
// allow). Tessera used to offer SAMPLED_IMAGE (with linear filtering and min/max) for them;
// the CTS samples them through integer sampler types, whose values the spec leaves undefined
// for these formats, and deqp-vk crashes on texture.swizzle's scaled cases whenever the format
// is supported (icd/format_support.cpp says more). They stay vertex-buffer formats, with
// transfers. lavapipe, checked in the same test when installed, offers the same.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include "dual_driver.h"

namespace tessera_test {
namespace {

// Every core USCALED/SSCALED format ("Formats": VkFormat).
constexpr VkFormat kScaled[] = {
    VK_FORMAT_R8_USCALED,           VK_FORMAT_R8_SSCALED,           VK_FORMAT_R8G8_USCALED,
    VK_FORMAT_R8G8_SSCALED,         VK_FORMAT_R8G8B8_USCALED,       VK_FORMAT_R8G8B8_SSCALED,
    VK_FORMAT_B8G8R8_USCALED,       VK_FORMAT_B8G8R8_SSCALED,       VK_FORMAT_R8G8B8A8_USCALED,
    VK_FORMAT_R8G8B8A8_SSCALED,     VK_FORMAT_B8G8R8A8_USCALED,     VK_FORMAT_B8G8R8A8_SSCALED,
    VK_FORMAT_A8B8G8R8_USCALED_PACK32, VK_FORMAT_A8B8G8R8_SSCALED_PACK32, VK_FORMAT_A2R10G10B10_USCALED_PACK32,
    VK_FORMAT_A2R10G10B10_SSCALED_PACK32, VK_FORMAT_A2B10G10R10_USCALED_PACK32, VK_FORMAT_A2B10G10R10_SSCALED_PACK32,
    VK_FORMAT_R16_USCALED,          VK_FORMAT_R16_SSCALED,          VK_FORMAT_R16G16_USCALED,
    VK_FORMAT_R16G16_SSCALED,       VK_FORMAT_R16G16B16_USCALED,    VK_FORMAT_R16G16B16_SSCALED,
    VK_FORMAT_R16G16B16A16_USCALED, VK_FORMAT_R16G16B16A16_SSCALED,
};

constexpr VkFormatFeatureFlags kSampling = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                           VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_MINMAX_BIT;

void checkNoSampling(VkPhysicalDevice pd, const char* driver) {
  for (VkFormat f : kScaled) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(pd, f, &props);
    EXPECT_EQ(props.optimalTilingFeatures & kSampling, 0u) << driver << ": format " << f;
    EXPECT_EQ(props.linearTilingFeatures & kSampling, 0u) << driver << ": format " << f;
    VkImageFormatProperties ifp{};
    EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(pd, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                       VK_IMAGE_USAGE_SAMPLED_BIT, 0, &ifp),
              VK_ERROR_FORMAT_NOT_SUPPORTED)
        << driver << ": format " << f;
  }
}

TEST(ScaledFormats, AreNotOfferedForSamplingButStayVertexFormats) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  checkNoSampling(drivers.tessera, "Tessera");
  for (VkFormat f : kScaled) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(drivers.tessera, f, &props);
    EXPECT_NE(props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, 0u) << "format " << f;
    EXPECT_NE(props.optimalTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_DST_BIT, 0u) << "format " << f;
  }
  if (drivers.lavapipe) checkNoSampling(drivers.lavapipe, "lavapipe");
}

}  // namespace
}  // namespace tessera_test
