// sRGB formats are not offered as vertex attribute formats (VkFormatProperties::bufferFeatures
// without VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT; VUID-VkVertexInputAttributeDescription-format-00623
// then forbids them in a pipeline). "Vertex Input Extraction" says an implementation should
// convert them from nonlinear to linear, and one that does not should not offer them; Tessera
// converted, but CTS 1.3.10.0 (pipeline.*.vertex_input.*srgb*) checks them as UNORM values,
// and lavapipe (checked in the same test when installed) does not offer them either. Their
// other buffer features (texel buffers) are unchanged.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include "dual_driver.h"

namespace tessera_test {
namespace {

// Every core sRGB format without compression ("Formats": VkFormat).
constexpr VkFormat kSrgb[] = {VK_FORMAT_R8_SRGB,       VK_FORMAT_R8G8_SRGB,       VK_FORMAT_R8G8B8_SRGB,
                              VK_FORMAT_B8G8R8_SRGB,   VK_FORMAT_R8G8B8A8_SRGB,   VK_FORMAT_B8G8R8A8_SRGB,
                              VK_FORMAT_A8B8G8R8_SRGB_PACK32};

TEST(SrgbFormats, AreNotVertexAttributeFormats) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* driver = pd == drivers.tessera ? "Tessera" : "lavapipe";
    for (VkFormat f : kSrgb) {
      VkFormatProperties props{};
      vkGetPhysicalDeviceFormatProperties(pd, f, &props);
      EXPECT_EQ(props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, 0u) << driver << ": format " << f;
    }
  }
  // The UNORM twins stay vertex formats.
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32}) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(drivers.tessera, f, &props);
    EXPECT_NE(props.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT, 0u) << "format " << f;
  }
}

}  // namespace
}  // namespace tessera_test
