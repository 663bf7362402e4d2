// 16-bit stage inputs and outputs (storageInputOutput16, "16-bit storage" / the SPIR-V
// StorageInputOutput16 capability) through the loader with validation: a vertex stage writes a
// flat f16vec3 and a smooth float16_t, the fragment stage reads them and writes them as 32-bit
// floats into an R32G32B32A32_SFLOAT target. Expected values from the spec: a float16 value
// keeps its half-precision value across the interface (16-bit types take locations and
// components as 32-bit ones do, "Location Assignment"), so every pixel reads the halves of 0.1,
// 1/3 and -2^-24 (the smallest denormal) exactly, and the smooth value, 0.375 at every vertex,
// interpolates to 0.375, which half precision holds exactly. lavapipe 22.3 does not offer
// storageInputOutput16.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "simple_pipeline.h"

namespace tessera_test {
namespace {

TEST(StorageInputOutput16, HalfFloatsCrossTheInterfaceUnchanged) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(drivers.tessera, &f2);
  ASSERT_TRUE(v11.storageInputOutput16);
  ASSERT_TRUE(v12.shaderFloat16);
  v12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  v12.shaderFloat16 = VK_TRUE;
  v11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  v11.storageInputOutput16 = VK_TRUE;
  constexpr uint32_t kSize = 16;
  const std::vector<uint8_t> bytes = drawCorpusTriangle(drivers.tessera, "io16_triangle_vert", "io16_color_frag",
                                                        VK_FORMAT_R32G32B32A32_SFLOAT, kSize, 16, {}, nullptr, &v11);
  ASSERT_EQ(bytes.size(), size_t(kSize) * kSize * 16);
  // The halves nearest 0.1 and 1/3, the smallest negative denormal half, and 0.375.
  const float want[4] = {0.0999755859375f, 0.333251953125f, -5.9604644775390625e-8f, 0.375f};
  for (uint32_t p = 0; p < kSize * kSize; ++p) {
    float got[4];
    std::memcpy(got, bytes.data() + 16 * p, 16);
    for (int c = 0; c < 4; ++c) ASSERT_EQ(got[c], want[c]) << "pixel " << p << " component " << c;
  }
}

}  // namespace
}  // namespace tessera_test
