// Image view and sampler extensions through the loader with validation, on Tessera and (where
// lavapipe follows the spec) on lavapipe in the same test, held to values computed from the spec:
//  - VK_EXT_non_seamless_cube_map: a sampler created with
//    VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT samples the selected cube face like a 2D
//    image: the sampler's "Wrapping Operation" applies, and a texel beyond the face is a border
//    texel ("Texel Coordinate Validation", case 2) rather than one of the neighbouring face
//    ("Cube Map Edge Handling"). tests/shaders/cube_seams.comp.
//  - VK_EXT_image_2d_view_of_3d: a 2D view of one slice of a 3D image created with
//    VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT, as a sampled image (sampler2DViewOf3D) and as a
//    storage image (image2DViewOf3D), sees exactly that slice. tests/shaders/slice_views.comp.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

// A compute pipeline over one descriptor set of `bindings`, with 4 bytes of push constants.
struct ComputeProgram {
  VkDevice dev = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;

  ComputeProgram(TestDevice& device, const char* shader, const std::vector<VkDescriptorSetLayoutBinding>& bindings)
      : dev(device.dev) {
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0,
                                          uint32_t(bindings.size()), bindings.data()};
    vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
    const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &range};
    vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
    module = device.createShaderModule(loadCorpusShader(shader));
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    cpci.layout = layout;
    EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
    std::vector<VkDescriptorPoolSize> sizes;
    for (const auto& b : bindings) sizes.push_back({b.descriptorType, b.descriptorCount});
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, uint32_t(sizes.size()), sizes.data()};
    vkCreateDescriptorPool(dev, &dpci, nullptr, &pool);
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
    vkAllocateDescriptorSets(dev, &dsai, &set);
  }
  ~ComputeProgram() {
    vkDestroyDescriptorPool(dev, pool, nullptr);
    vkDestroyPipeline(dev, pipeline, nullptr);
    vkDestroyShaderModule(dev, module, nullptr);
    vkDestroyPipelineLayout(dev, layout, nullptr);
    vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  }
  void writeImage(uint32_t binding, VkDescriptorType type, VkImageView view, VkSampler sampler) {
    const VkDescriptorImageInfo info{sampler, view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, type, &info};
    vkUpdateDescriptorSets(dev, 1, &w, 0, nullptr);
  }
  void writeBuffer(uint32_t binding, VkBuffer buffer) {
    const VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                           nullptr, &info};
    vkUpdateDescriptorSets(dev, 1, &w, 0, nullptr);
  }
  void record(VkCommandBuffer cmd, uint32_t push, uint32_t groups) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &push);
    vkCmdDispatch(cmd, groups, 1, 1);
  }
};

// One command buffer, recorded by `body`, submitted and waited for.
template <typename F>
void submit(TestDevice& device, F&& body) {
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(device.dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(device.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  body(cmd);
  VkMemoryBarrier all{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                      VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &all, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  vkDestroyCommandPool(device.dev, pool, nullptr);
}

// UNDEFINED -> GENERAL for the whole image, then `bytes` copied in from a staging buffer.
void upload(TestDevice& device, VkCommandBuffer cmd, VkImage image, VkBuffer staging, const VkBufferImageCopy& region,
            uint32_t layers) {
  VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  ib.image = image;
  ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
  ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  ib.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  ib.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &ib);
  vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  (void)device;
}

// ---- VK_EXT_non_seamless_cube_map --------------------------------------------------------------

constexpr uint32_t kFace = 4;  // cube faces of 4 x 4 texels, R8G8B8A8_UNORM

// Texel (i, j) of face f: red encodes all three, green 0, blue 255 - red, alpha 255.
uint8_t cubeRed(uint32_t f, uint32_t i, uint32_t j) { return uint8_t(f * 40 + j * 9 + i * 2 + 5); }

struct Direction {
  float x, y, z, w;
};

// Directions onto face +X (f = 0), where "Cube Map Face Selection" gives sc = -z, tc = -y,
// |ma| = x: near every edge and corner of the face and inside it.
std::vector<Direction> directions() {
  std::vector<Direction> d;
  const float coords[] = {-0.97f, -0.8f, -0.3f, 0.0f, 0.45f, 0.8f, 0.97f};
  for (float y : coords)
    for (float z : coords) d.push_back({1.0f, y, z, 0});
  return d;
}

// The spec's LINEAR sample at level 0 of face +X treated as a 2D image with address mode `mode`
// (REPEAT or CLAMP_TO_BORDER with VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK), red and alpha.
void expectedNonSeamless(const Direction& d, VkSamplerAddressMode mode, double* red, double* alpha) {
  const double s = 0.5 * (-d.z / d.x + 1), t = 0.5 * (-d.y / d.x + 1);
  const double u = s * kFace - 0.5, v = t * kFace - 0.5;
  const int i0 = int(std::floor(u)), j0 = int(std::floor(v));
  const double a = u - i0, b = v - j0;
  *red = *alpha = 0;
  for (int dj = 0; dj < 2; ++dj)
    for (int di = 0; di < 2; ++di) {
      int i = i0 + di, j = j0 + dj;
      const double w = (di ? a : 1 - a) * (dj ? b : 1 - b);
      if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT) {
        i = (i % int(kFace) + int(kFace)) % int(kFace);
        j = (j % int(kFace) + int(kFace)) % int(kFace);
      } else if (i < 0 || j < 0 || i >= int(kFace) || j >= int(kFace)) {
        continue;  // transparent black border texel
      }
      *red += w * cubeRed(0, uint32_t(i), uint32_t(j)) / 255.0;
      *alpha += w;
    }
}

// Per direction: the seamless, non-seamless REPEAT and non-seamless CLAMP_TO_BORDER samples.
std::vector<float> sampleCube(VkPhysicalDevice pd) {
  VkPhysicalDeviceNonSeamlessCubeMapFeaturesEXT nonSeamless{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_NON_SEAMLESS_CUBE_MAP_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &nonSeamless};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(nonSeamless.nonSeamlessCubeMap);
  if (!nonSeamless.nonSeamlessCubeMap) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &nonSeamless};
  v13.maintenance4 = VK_TRUE;  // glslang's SPIR-V 1.6 gives the workgroup size as LocalSizeId
  TestDevice device(pd, nullptr, &v13, {VK_EXT_NON_SEAMLESS_CUBE_MAP_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {kFace, kFace, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 6;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
  vci.format = ici.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 6};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  VkSampler samplers[3];
  vkCreateSampler(dev, &sci, nullptr, &samplers[0]);
  sci.flags = VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  vkCreateSampler(dev, &sci, nullptr, &samplers[1]);
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  vkCreateSampler(dev, &sci, nullptr, &samplers[2]);

  const std::vector<Direction> dirs = directions();
  const uint32_t n = uint32_t(dirs.size());
  void *stagingMap, *dirMap, *outMap;
  VkBuffer staging = device.createMappedBuffer(6 * kFace * kFace * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &stagingMap);
  for (uint32_t f = 0; f < 6; ++f)
    for (uint32_t j = 0; j < kFace; ++j)
      for (uint32_t i = 0; i < kFace; ++i) {
        const uint8_t r = cubeRed(f, i, j);
        const uint8_t texel[4] = {r, 0, uint8_t(255 - r), 255};
        std::memcpy(static_cast<uint8_t*>(stagingMap) + ((f * kFace + j) * kFace + i) * 4, texel, 4);
      }
  VkBuffer dirBuffer = device.createMappedBuffer(n * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &dirMap);
  std::memcpy(dirMap, dirs.data(), n * 16);
  VkBuffer out = device.createMappedBuffer(n * 3 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  std::memset(outMap, 0, n * 3 * 16);

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  ComputeProgram program(device, "cube_seams",
                         {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                          {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                          {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                          {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
                          {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}});
  for (uint32_t b = 0; b < 3; ++b) program.writeImage(b, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, view, samplers[b]);
  program.writeBuffer(3, dirBuffer);
  program.writeBuffer(4, out);
  submit(device, [&](VkCommandBuffer cmd) {
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 6};
    region.imageExtent = {kFace, kFace, 1};
    upload(device, cmd, image, staging, region, 6);
    program.record(cmd, n, (n + 63) / 64);
  });
  std::vector<float> results(n * 3 * 4);
  std::memcpy(results.data(), outMap, results.size() * 4);

  for (VkSampler s : samplers) vkDestroySampler(dev, s, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  for (VkBuffer b : {staging, dirBuffer, out}) vkDestroyBuffer(dev, b, nullptr);
  return results;
}

TEST(NonSeamlessCubeMap, FacesAreSampledAs2DImagesWithTheSamplersAddressModes) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<Direction> dirs = directions();
  const std::vector<float> ours = sampleCube(drivers.tessera);
  ASSERT_EQ(ours.size(), dirs.size() * 12);
  std::vector<float> reference;
  if (drivers.lavapipe) {
    reference = sampleCube(drivers.lavapipe);
    ASSERT_EQ(reference.size(), ours.size());
  }
  // UNORM8 filtering: the spec allows implementation-defined weight precision (lavapipe's is
  // 8 bits), so results are held to about two steps of the format.
  const double tolerance = 2.5 / 255;
  uint32_t seamDifferences = 0;
  for (size_t k = 0; k < dirs.size(); ++k) {
    const float* v = &ours[k * 12];
    const VkSamplerAddressMode modes[2] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
    for (int m = 0; m < 2; ++m) {
      double red, alpha;
      expectedNonSeamless(dirs[k], modes[m], &red, &alpha);
      const float* got = v + 4 * (1 + m);
      EXPECT_NEAR(got[0], red, tolerance) << "direction " << k << (m ? " border" : " repeat") << ": the spec";
      EXPECT_NEAR(got[3], alpha, tolerance) << "direction " << k << (m ? " border" : " repeat") << ": the spec";
    }
    if (std::fabs(v[0] - v[4]) > tolerance) ++seamDifferences;  // seamless reads the neighbouring faces
    // Seamless sampling is compared with lavapipe too. lavapipe 22.3 clamps to the face's edge
    // whatever the address mode when its sampler is non-seamless (its REPEAT and
    // CLAMP_TO_BORDER samples here are CLAMP_TO_EDGE's), which is not what "Texel Coordinate
    // Validation" says, so the non-seamless samples are held to the spec alone.
    if (!reference.empty()) {
      for (int c = 0; c < 4; ++c) {
        EXPECT_NEAR(v[c], reference[k * 12 + c], tolerance) << "direction " << k << " value " << c << ": lavapipe";
      }
    }
  }
  EXPECT_GT(seamDifferences, 0u) << "the edge directions must tell seamless from non-seamless filtering";
}

// ---- VK_EXT_image_2d_view_of_3d ----------------------------------------------------------------

constexpr uint32_t kSide = 4, kDepth = 4, kSrcSlice = 2, kDstSlice = 1;

uint32_t srcValue(uint32_t x, uint32_t y, uint32_t z) { return 100 * z + 10 * y + x + 1; }
uint32_t dstInitial(uint32_t x, uint32_t y, uint32_t z) { return 7 + z * 16 + y * 4 + x; }

// The destination 3D image after the dispatch, slice by slice.
std::vector<uint32_t> runSliceViews(VkPhysicalDevice pd) {
  VkPhysicalDeviceImage2DViewOf3DFeaturesEXT sliceViews{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_2D_VIEW_OF_3D_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &sliceViews};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(sliceViews.image2DViewOf3D);
  EXPECT_TRUE(sliceViews.sampler2DViewOf3D);
  if (!sliceViews.image2DViewOf3D || !sliceViews.sampler2DViewOf3D) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &sliceViews};
  v13.maintenance4 = VK_TRUE;
  TestDevice device(pd, nullptr, &v13, {VK_EXT_IMAGE_2D_VIEW_OF_3D_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.flags = VK_IMAGE_CREATE_2D_VIEW_COMPATIBLE_BIT_EXT;
  ici.imageType = VK_IMAGE_TYPE_3D;
  ici.format = VK_FORMAT_R32_UINT;
  ici.extent = {kSide, kSide, kDepth};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage src, dst;
  vkCreateImage(dev, &ici, nullptr, &src);
  device.bindMemory(src);
  ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  vkCreateImage(dev, &ici, nullptr, &dst);
  device.bindMemory(dst);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = ici.format;
  vci.image = src;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, kSrcSlice, 1};
  VkImageView srcView, dstView;
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &srcView), VK_SUCCESS);
  vci.image = dst;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, kDstSlice, 1};
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &dstView), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);

  const uint32_t texels = kSide * kSide * kDepth;
  void *srcMap, *dstMap, *readMap;
  VkBuffer srcStaging = device.createMappedBuffer(texels * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &srcMap);
  VkBuffer dstStaging = device.createMappedBuffer(texels * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &dstMap);
  VkBuffer readback = device.createMappedBuffer(texels * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  for (uint32_t z = 0; z < kDepth; ++z)
    for (uint32_t y = 0; y < kSide; ++y)
      for (uint32_t x = 0; x < kSide; ++x) {
        static_cast<uint32_t*>(srcMap)[(z * kSide + y) * kSide + x] = srcValue(x, y, z);
        static_cast<uint32_t*>(dstMap)[(z * kSide + y) * kSide + x] = dstInitial(x, y, z);
      }

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  ComputeProgram program(device, "slice_views",
                         {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                          {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, cs, nullptr}});
  program.writeImage(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, srcView, sampler);
  program.writeImage(1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, dstView, VK_NULL_HANDLE);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSide, kSide, kDepth};
  submit(device, [&](VkCommandBuffer cmd) {
    upload(device, cmd, src, srcStaging, region, 1);
    upload(device, cmd, dst, dstStaging, region, 1);
    program.record(cmd, 0, 1);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    vkCmdCopyImageToBuffer(cmd, dst, VK_IMAGE_LAYOUT_GENERAL, readback, 1, &region);
  });
  std::vector<uint32_t> out(texels);
  std::memcpy(out.data(), readMap, texels * 4);

  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, srcView, nullptr);
  vkDestroyImageView(dev, dstView, nullptr);
  vkDestroyImage(dev, src, nullptr);
  vkDestroyImage(dev, dst, nullptr);
  for (VkBuffer b : {srcStaging, dstStaging, readback}) vkDestroyBuffer(dev, b, nullptr);
  return out;
}

TEST(Image2DViewOf3D, SampledAndStorageSliceViewsSeeTheirSlice) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<uint32_t> want(kSide * kSide * kDepth);
  for (uint32_t z = 0; z < kDepth; ++z)
    for (uint32_t y = 0; y < kSide; ++y)
      for (uint32_t x = 0; x < kSide; ++x)
        want[(z * kSide + y) * kSide + x] =
            z == kDstSlice ? 1000 * dstInitial(x, y, z) + 3 * srcValue(x, y, kSrcSlice) : dstInitial(x, y, z);
  EXPECT_EQ(runSliceViews(drivers.tessera), want) << "Tessera vs the spec";
  if (drivers.lavapipe) {
    EXPECT_EQ(runSliceViews(drivers.lavapipe), want) << "lavapipe vs the spec";
  }
}

}  // namespace
}  // namespace tessera_test
