// Custom border colours (VK_EXT_custom_border_color) and border colour swizzles
// (VK_EXT_border_color_swizzle) through the loader with validation, on Tessera and on lavapipe
// in the same test (tests/shaders/sample_border.comp samples a float view and an unsigned
// integer view at points inside, on the edge of and outside a 4x4 image).
//
// Two oracles: where every texel of the footprint is a border texel the result is computed here
// from the spec ("Border Replacement": table "Border Color B" with the custom colour U and
// "Border Texel Components After Replacement"; "Conversion to RGBA"; "Component Swizzle", which
// VK_EXT_border_color_swizzle defines for border texels: the view's swizzle applies to the
// border colour, with borderColorSwizzleFromImage or a matching
// VkSamplerBorderColorComponentMappingCreateInfoEXT); every query (filtered mixes of border and
// image texels included) must also agree with lavapipe. The spec lets an implementation round
// U to the view's format (one ULP), hence the 1/255 tolerance on UNORM results.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 4, kQueries = 8;
constexpr VkComponentMapping kIdentity = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B,
                                          VK_COMPONENT_SWIZZLE_A};

// One sampled view and its sampler.
struct ViewConfig {
  VkFormat format;
  uint32_t components;  // how many components the format has (R, RG, RGB, RGBA)
  VkComponentMapping swizzle = kIdentity;
  VkBorderColor border;
  VkClearColorValue custom{};                     // for the *_CUSTOM_EXT colours
  VkFormat customFormat = VK_FORMAT_UNDEFINED;    // VkSamplerCustomBorderColorCreateInfoEXT::format
  VkFilter filter = VK_FILTER_NEAREST;
  bool hint = false;  // chain VkSamplerBorderColorComponentMappingCreateInfoEXT (the view's swizzle)
};

struct Config {
  const char* name;
  ViewConfig floatView, uintView;
};

// s, t of each query: outside (0-2), inside (3, 7), on the left/right edge where LINEAR mixes
// border and image texels (4, 5), just above the image (6).
const float kQueryCoords[kQueries][2] = {{-0.5f, 0.5f}, {1.5f, -0.7f},     {0.5f, 3.0f},   {0.375f, 0.625f},
                                         {0.0f, 0.375f}, {1.0f, 0.625f},   {0.625f, -0.01f}, {0.8125f, 0.1875f}};
// Queries whose whole footprint is border texels, for NEAREST and for LINEAR and gathers.
bool allBorder(uint32_t q, VkFilter filter) { return q <= 2 || (filter == VK_FILTER_NEAREST && (q == 5 || q == 6)); }

struct Results {
  std::vector<float> floats;     // per query: sample (4), gather of alpha (4)
  std::vector<uint32_t> uints;   // per query: sample (4)
};

// Byte k of texel (x, y): distinct, arbitrary values.
uint8_t patternByte(uint32_t x, uint32_t y, uint32_t k) { return uint8_t(37 * x + 59 * y + 23 * k + 5); }

VkSampler makeSampler(VkDevice dev, const ViewConfig& v) {
  VkSamplerCustomBorderColorCreateInfoEXT custom{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  custom.customBorderColor = v.custom;
  custom.format = v.customFormat;
  VkSamplerBorderColorComponentMappingCreateInfoEXT hint{
      VK_STRUCTURE_TYPE_SAMPLER_BORDER_COLOR_COMPONENT_MAPPING_CREATE_INFO_EXT};
  hint.components = v.swizzle;
  const void* next = nullptr;
  if (v.hint) next = &hint;
  if (v.border == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT || v.border == VK_BORDER_COLOR_INT_CUSTOM_EXT) {
    custom.pNext = next;
    next = &custom;
  }
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, next};
  si.magFilter = si.minFilter = v.filter;
  si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  si.borderColor = v.border;
  VkSampler s = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSampler(dev, &si, nullptr, &s), VK_SUCCESS);
  return s;
}

uint32_t texelBytes(VkFormat f) { return f == VK_FORMAT_R8_UNORM ? 1 : f == VK_FORMAT_R8G8_UINT ? 2 : 4; }

// Runs the shader for `config` on `pd`; empty results on failure.
Results sampleOn(VkPhysicalDevice pd, const Config& config) {
  VkPhysicalDeviceCustomBorderColorFeaturesEXT customFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};
  VkPhysicalDeviceBorderColorSwizzleFeaturesEXT swizzleFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BORDER_COLOR_SWIZZLE_FEATURES_EXT, &customFeatures};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &swizzleFeatures};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(customFeatures.customBorderColors && customFeatures.customBorderColorWithoutFormat);
  EXPECT_TRUE(swizzleFeatures.borderColorSwizzle && swizzleFeatures.borderColorSwizzleFromImage);
  if (!customFeatures.customBorderColors || !swizzleFeatures.borderColorSwizzleFromImage) return {};
  // glslang's SPIR-V for Vulkan 1.3 states the local size with LocalSizeId (maintenance4).
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = VK_TRUE;
  customFeatures.pNext = &v13;
  TestDevice device(pd, nullptr, &swizzleFeatures,
                    {VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME, VK_EXT_BORDER_COLOR_SWIZZLE_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const ViewConfig* views[2] = {&config.floatView, &config.uintView};
  VkImage images[2];
  VkImageView imageViews[2];
  VkSampler samplers[2];
  void* stagingMap;
  VkBuffer staging = device.createMappedBuffer(2 * kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &stagingMap);
  for (int i = 0; i < 2; ++i) {
    const ViewConfig& v = *views[i];
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = v.format;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    vkCreateImage(dev, &ici, nullptr, &images[i]);
    device.bindMemory(images[i]);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = images[i];
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = v.format;
    vci.components = v.swizzle;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCreateImageView(dev, &vci, nullptr, &imageViews[i]);
    samplers[i] = makeSampler(dev, v);
    uint8_t* texels = static_cast<uint8_t*>(stagingMap) + i * kSize * kSize * 4;
    const uint32_t bytes = texelBytes(v.format);
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        for (uint32_t k = 0; k < bytes; ++k) texels[(y * kSize + x) * bytes + k] = patternByte(x, y, k);
  }

  void *queryMap, *floatMap, *uintMap;
  VkBuffer queries = device.createMappedBuffer(sizeof(kQueryCoords), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &queryMap);
  VkBuffer floats = device.createMappedBuffer(kQueries * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &floatMap);
  VkBuffer uints = device.createMappedBuffer(kQueries * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &uintMap);
  std::memcpy(queryMap, kQueryCoords, sizeof(kQueryCoords));

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutBinding bindings[5] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                              {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
                                              {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
                                              {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 5, bindings};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dl, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &pl, nullptr, &layout);
  std::vector<uint32_t> spirv = loadCorpusShader("sample_border");
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, spirv.size() * 4, spirv.data()};
  VkShaderModule module;
  vkCreateShaderModule(dev, &sm, nullptr, &module);
  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  pci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), VK_SUCCESS);
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3}};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(dev, &dp, nullptr, &pool);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &ai, &set);
  VkDescriptorImageInfo imageInfo[2] = {{samplers[0], imageViews[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                                        {samplers[1], imageViews[1], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
  VkDescriptorBufferInfo buffers[3] = {{queries, 0, VK_WHOLE_SIZE}, {floats, 0, VK_WHOLE_SIZE}, {uints, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[2] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, imageInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 2, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, buffers}};
  vkUpdateDescriptorSets(dev, 2, writes, 0, nullptr);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool cmdPool;
  vkCreateCommandPool(dev, &cpci, nullptr, &cmdPool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmdPool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  for (int i = 0; i < 2; ++i) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = images[i];
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &b);
    VkBufferImageCopy region{};
    region.bufferOffset = VkDeviceSize(i) * kSize * kSize * 4;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {kSize, kSize, 1};
    vkCmdCopyBufferToImage(cmd, staging, images[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, 1, 1, 1);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                       nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  Results r;
  r.floats.resize(kQueries * 8);
  r.uints.resize(kQueries * 4);
  std::memcpy(r.floats.data(), floatMap, kQueries * 32);
  std::memcpy(r.uints.data(), uintMap, kQueries * 16);

  vkDestroyCommandPool(dev, cmdPool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, pool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  for (int i = 0; i < 2; ++i) {
    vkDestroySampler(dev, samplers[i], nullptr);
    vkDestroyImageView(dev, imageViews[i], nullptr);
    vkDestroyImage(dev, images[i], nullptr);
  }
  for (VkBuffer b : {staging, queries, floats, uints}) vkDestroyBuffer(dev, b, nullptr);
  return r;
}

// The spec's border texel for `v`, after "Component Swizzle" (as doubles: floats or integers).
void expectedBorder(const ViewConfig& v, double out[4]) {
  double b[4];
  switch (v.border) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK: b[0] = b[1] = b[2] = 0, b[3] = 1; break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE: b[0] = b[1] = b[2] = b[3] = 1; break;
    case VK_BORDER_COLOR_FLOAT_CUSTOM_EXT:
      for (int c = 0; c < 4; ++c) b[c] = v.custom.float32[c];
      break;
    case VK_BORDER_COLOR_INT_CUSTOM_EXT:
      for (int c = 0; c < 4; ++c) b[c] = v.custom.uint32[c];
      break;
    default: b[0] = b[1] = b[2] = b[3] = 0; break;
  }
  // "Border Texel Components After Replacement", then "Conversion to RGBA".
  double rgba[4];
  for (uint32_t c = 0; c < 4; ++c) rgba[c] = c < v.components ? b[c] : (c == 3 ? 1 : 0);
  const VkComponentSwizzle sw[4] = {v.swizzle.r, v.swizzle.g, v.swizzle.b, v.swizzle.a};
  for (int c = 0; c < 4; ++c) {
    switch (sw[c]) {
      case VK_COMPONENT_SWIZZLE_IDENTITY: out[c] = rgba[c]; break;
      case VK_COMPONENT_SWIZZLE_ZERO: out[c] = 0; break;
      case VK_COMPONENT_SWIZZLE_ONE: out[c] = 1; break;
      default: out[c] = rgba[sw[c] - VK_COMPONENT_SWIZZLE_R]; break;
    }
  }
}

VkClearColorValue floats4(float r, float g, float b, float a) {
  VkClearColorValue v;
  v.float32[0] = r, v.float32[1] = g, v.float32[2] = b, v.float32[3] = a;
  return v;
}
VkClearColorValue uints4(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  VkClearColorValue v;
  v.uint32[0] = r, v.uint32[1] = g, v.uint32[2] = b, v.uint32[3] = a;
  return v;
}

void checkConfig(const Config& config) {
  SCOPED_TRACE(config.name);
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Results ours = sampleOn(drivers.tessera, config);
  ASSERT_EQ(ours.floats.size(), size_t(kQueries * 8));
  const ViewConfig& fv = config.floatView;
  const ViewConfig& uv = config.uintView;
  // The spec's value where the footprint is all border.
  double want[4];
  for (uint32_t q = 0; q < kQueries; ++q) {
    if (allBorder(q, fv.filter)) {
      expectedBorder(fv, want);
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(ours.floats[q * 8 + c], want[c], 1.0 / 255) << "float view, query " << q;
    }
    if (allBorder(q, VK_FILTER_LINEAR)) {  // a gather's 2x2 footprint: the swizzled alpha four times
      expectedBorder(fv, want);
      for (int c = 0; c < 4; ++c) EXPECT_NEAR(ours.floats[q * 8 + 4 + c], want[3], 1.0 / 255) << "gather, query " << q;
    }
    if (allBorder(q, uv.filter)) {
      expectedBorder(uv, want);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(ours.uints[q * 4 + c], uint32_t(want[c])) << "uint view, query " << q;
    }
  }
  if (!drivers.lavapipe) return;
  const Results reference = sampleOn(drivers.lavapipe, config);
  ASSERT_EQ(reference.floats.size(), ours.floats.size());
  // Every query, filtered mixes of border and image texels too: lavapipe filters with 8-bit
  // weights, hence the tolerance.
  for (uint32_t i = 0; i < kQueries * 8; ++i)
    EXPECT_NEAR(ours.floats[i], reference.floats[i], 0.01) << "float result " << i % 8 << " of query " << i / 8;
  for (uint32_t i = 0; i < kQueries * 4; ++i)
    EXPECT_EQ(ours.uints[i], reference.uints[i]) << "uint component " << i % 4 << " of query " << i / 4;
}

class BorderColor : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  }
};

TEST_F(BorderColor, CustomColoursOnUnormAndUintImagesMatchTheSpecAndLavapipe) {
  Config c{"custom, identity views"};
  c.floatView = {VK_FORMAT_R8G8B8A8_UNORM, 4, kIdentity, VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, floats4(0.2f, 0.4f, 0.6f, 0.8f),
                 VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR};
  c.uintView = {VK_FORMAT_R8G8B8A8_UINT, 4, kIdentity, VK_BORDER_COLOR_INT_CUSTOM_EXT, uints4(7, 200, 255, 1),
                VK_FORMAT_R8G8B8A8_UINT};
  checkConfig(c);
  // customBorderColorWithoutFormat: the struct's format VK_FORMAT_UNDEFINED, NEAREST.
  c.name = "custom, no format";
  c.floatView.custom = floats4(0.9f, 0.1f, 0.5f, 0.3f);
  c.floatView.customFormat = VK_FORMAT_UNDEFINED;
  c.floatView.filter = VK_FILTER_NEAREST;
  c.uintView.custom = uints4(3, 4, 5, 6);
  c.uintView.customFormat = VK_FORMAT_UNDEFINED;
  checkConfig(c);
}

TEST_F(BorderColor, SwizzledViewsSwizzleTheBorderColour) {
  // borderColorSwizzleFromImage: no mapping given, the view's swizzle applies to the border.
  const VkComponentMapping floatSwizzle = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_ONE,
                                           VK_COMPONENT_SWIZZLE_R};
  const VkComponentMapping uintSwizzle = {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R,
                                          VK_COMPONENT_SWIZZLE_IDENTITY};
  Config c{"custom, swizzled views"};
  c.floatView = {VK_FORMAT_R8G8B8A8_UNORM, 4, floatSwizzle, VK_BORDER_COLOR_FLOAT_CUSTOM_EXT,
                 floats4(0.2f, 0.4f, 0.6f, 0.8f), VK_FORMAT_R8G8B8A8_UNORM, VK_FILTER_LINEAR};
  c.uintView = {VK_FORMAT_R8G8B8A8_UINT, 4, uintSwizzle, VK_BORDER_COLOR_INT_CUSTOM_EXT, uints4(7, 200, 255, 1),
                VK_FORMAT_R8G8B8A8_UINT};
  checkConfig(c);
  // The same with VkSamplerBorderColorComponentMappingCreateInfoEXT naming the view's swizzle.
  c.name = "custom, swizzled views, mapping given";
  c.floatView.hint = c.uintView.hint = true;
  checkConfig(c);
  // Opaque black, which the extension defines with non-identity swizzles too.
  c.name = "opaque black, swizzled views";
  c.floatView.border = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  c.uintView.border = VK_BORDER_COLOR_INT_OPAQUE_BLACK;
  c.floatView.hint = c.uintView.hint = false;
  checkConfig(c);
  // Formats with fewer components: "Conversion to RGBA" fills 0 and 1 before the swizzle.
  c.name = "custom, one- and two-component formats";
  c.floatView = {VK_FORMAT_R8_UNORM, 1,
                 {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G},
                 VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, floats4(0.25f, 0.5f, 0.75f, 0.125f), VK_FORMAT_R8_UNORM,
                 VK_FILTER_LINEAR};
  c.uintView = {VK_FORMAT_R8G8_UINT, 2,
                {VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_R},
                VK_BORDER_COLOR_INT_CUSTOM_EXT, uints4(9, 11, 13, 15), VK_FORMAT_R8G8_UINT};
  checkConfig(c);
}

}  // namespace
}  // namespace tessera_test
