// Sampler Y'CbCr conversion (samplerYcbcrConversion) through the loader with validation: an
// NV12 image (VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 8x4 luma, 4x2 chroma), planes bound together or
// apart (DISJOINT), filled and read back per plane, then sampled in a compute shader
// (tests/shaders/sample_ycbcr.comp) through an immutable sampler with a conversion.
//
// The expected colours are computed here from the specification, not from Tessera's sampler:
// "Sampler Y'CbCr Range Expansion" (ITU narrow: Y' = (Y - 16) / 219, C = (C - 128) / 224 for
// 8 bits; ITU full: C - 128/255), "Sampler Y'CbCr Model Conversion" (the BT.709 matrix), and
// "Chroma Reconstruction": with VK_CHROMA_LOCATION_MIDPOINT and NEAREST every luma texel takes the
// chroma sample of its 2x2 block; with VK_CHROMA_LOCATION_COSITED_EVEN and LINEAR the chroma
// samples sit on the even luma texels, so an even texel takes its sample and an odd one the mean
// of the two around it (clamped at the edge). lavapipe on Debian 12 offers no Y'CbCr formats, so
// it cannot serve as a second opinion here.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

constexpr uint32_t kWidth = 8, kHeight = 4, kChromaWidth = kWidth / 2, kChromaHeight = kHeight / 2;
constexpr uint32_t kQueries = kWidth * kHeight;
constexpr VkFormat kNv12 = VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;

uint8_t lumaAt(uint32_t x, uint32_t y) { return uint8_t(16 + 20 * x + 7 * y); }
uint8_t cbAt(uint32_t i, uint32_t j) { return uint8_t(60 + 30 * i + 11 * j); }
uint8_t crAt(uint32_t i, uint32_t j) { return uint8_t(200 - 25 * i - 13 * j); }

struct Rgb {
  double r, g, b;
};

// BT.709 from narrow-range 8-bit Y'CbCr.
Rgb bt709Narrow(double y8, double cb8, double cr8) {
  const double y = (y8 - 16.0) / 219.0, cb = (cb8 - 128.0) / 224.0, cr = (cr8 - 128.0) / 224.0;
  return {y + 1.5748 * cr, y - (0.13397432 / 0.7152) * cb - (0.33480248 / 0.7152) * cr, y + 1.8556 * cb};
}

// The chroma sample value at luma texel x for co-sited chroma reconstructed linearly along one
// axis: `at(i)` is chroma sample i, `count` samples.
template <typename F>
double cositedLinear(uint32_t x, uint32_t count, F at) {
  if (x % 2 == 0) return at(x / 2);
  const uint32_t lo = x / 2, hi = std::min(x / 2 + 1, count - 1);
  return 0.5 * (at(lo) + at(hi));
}

class Ycbcr : public ComputeTest, public testing::WithParamInterface<bool> {
 protected:
  struct Conversion {
    VkSamplerYcbcrModelConversion model;
    VkSamplerYcbcrRange range;
    VkChromaLocation location;
    VkFilter filter;  // the chroma filter and the sampler's filters
  };

  // Samples the image at every luma texel centre through a view and sampler with `conversion`.
  std::vector<float> sampleAll(VkImage image, const Conversion& c) {
    VkSamplerYcbcrConversionCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO};
    ci.format = kNv12;
    ci.ycbcrModel = c.model;
    ci.ycbcrRange = c.range;
    ci.components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                     VK_COMPONENT_SWIZZLE_IDENTITY};
    ci.xChromaOffset = ci.yChromaOffset = c.location;
    ci.chromaFilter = c.filter;
    VkSamplerYcbcrConversion conversion = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSamplerYcbcrConversion(device, &ci, nullptr, &conversion), VK_SUCCESS);
    const VkSamplerYcbcrConversionInfo info{VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO, nullptr, conversion};

    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, &info};
    si.magFilter = si.minFilter = c.filter;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler sampler = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device, &si, nullptr, &sampler), VK_SUCCESS);
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, &info};
    vi.image = image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = kNv12;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device, &vi, nullptr, &view), VK_SUCCESS);

    const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
    const VkDescriptorSetLayoutBinding bindings[3] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, &sampler},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}};
    VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dl.bindingCount = 3;
    dl.pBindings = bindings;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
    const VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
    const std::vector<uint32_t> spirv = loadCorpusShader("sample_ycbcr");
    const VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, spirv.size() * 4,
                                      spirv.data()};
    VkShaderModule module = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
    VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
    pci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), VK_SUCCESS);

    const VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                           {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    const VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
    VkDescriptorPool dpool = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &dpool), VK_SUCCESS);
    const VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dpool, 1, &setLayout};
    VkDescriptorSet set = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);

    BufferAndMemory queries = createBuffer(kQueries * 8, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    BufferAndMemory results = createBuffer(kQueries * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) {
        const float st[2] = {(float(x) + 0.5f) / kWidth, (float(y) + 0.5f) / kHeight};
        std::memcpy(queries.mapped + (y * kWidth + x) * 8, st, 8);
      }
    std::memset(results.mapped, 0xcd, kQueries * 16);
    // The sampler is immutable: the write names the view only.
    const VkDescriptorImageInfo imageInfo{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
    const VkDescriptorBufferInfo bufferInfos[2] = {{queries.buffer, 0, VK_WHOLE_SIZE}, {results.buffer, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[3] = {};
    for (uint32_t i = 0; i < 3; ++i) writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1,
                                                  bindings[i].descriptorType};
    writes[0].pImageInfo = &imageInfo;
    writes[1].pBufferInfo = &bufferInfos[0];
    writes[2].pBufferInfo = &bufferInfos[1];
    vkUpdateDescriptorSets(device, 3, writes, 0, nullptr);

    submitAndWait([&](VkCommandBuffer cb) {
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
      vkCmdDispatch(cb, kQueries / 8, 1, 1);
      const VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                                 VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr,
                           0, nullptr);
    });
    std::vector<float> out(kQueries * 4);
    std::memcpy(out.data(), results.mapped, kQueries * 16);

    destroy(queries);
    destroy(results);
    vkDestroyDescriptorPool(device, dpool, nullptr);
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    vkDestroyImageView(device, view, nullptr);
    vkDestroySampler(device, sampler, nullptr);
    vkDestroySamplerYcbcrConversion(device, conversion, nullptr);
    return out;
  }
};

TEST_P(Ycbcr, Nv12PlanesCopyAndSampleThroughConversions) {
  const bool disjoint = GetParam();
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.flags = disjoint ? VK_IMAGE_CREATE_DISJOINT_BIT : 0;
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = kNv12;
  ci.extent = {kWidth, kHeight, 1};
  ci.mipLevels = ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  // The disjoint image is also linear, so that its plane layouts may be asked for.
  ci.tiling = disjoint ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImage(device, &ci, nullptr, &image), VK_SUCCESS);

  // Memory: one binding, or one per plane ("Disjoint Multi-Planar Images"), each at least the
  // plane's bytes (8x4 one-byte luma texels, 4x2 two-byte chroma texels).
  std::vector<VkDeviceMemory> memories;
  const VkImageAspectFlagBits planes[2] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT};
  const VkDeviceSize planeBytes[2] = {kWidth * kHeight, kChromaWidth * kChromaHeight * 2};
  for (uint32_t p = 0; p < (disjoint ? 2u : 1u); ++p) {
    VkImagePlaneMemoryRequirementsInfo planeInfo{VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO, nullptr,
                                                 planes[p]};
    VkImageMemoryRequirementsInfo2 ri{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, disjoint ? &planeInfo : nullptr,
                                      image};
    VkMemoryRequirements2 req{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
    vkGetImageMemoryRequirements2(device, &ri, &req);
    EXPECT_GE(req.memoryRequirements.size, disjoint ? planeBytes[p] : planeBytes[0] + planeBytes[1]);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.memoryRequirements.size, 0};
    VkDeviceMemory memory = VK_NULL_HANDLE;
    ASSERT_EQ(vkAllocateMemory(device, &mai, nullptr, &memory), VK_SUCCESS);
    memories.push_back(memory);
  }
  std::vector<VkBindImagePlaneMemoryInfo> planeBinds;
  std::vector<VkBindImageMemoryInfo> binds;
  planeBinds.reserve(2);
  for (uint32_t p = 0; p < memories.size(); ++p) {
    planeBinds.push_back({VK_STRUCTURE_TYPE_BIND_IMAGE_PLANE_MEMORY_INFO, nullptr, planes[p]});
    binds.push_back({VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, disjoint ? &planeBinds[p] : nullptr, image, memories[p], 0});
  }
  ASSERT_EQ(vkBindImageMemory2(device, uint32_t(binds.size()), binds.data()), VK_SUCCESS);

  // Upload: plane 0 as R8 texels, plane 1 as R8G8 (Cb, Cr) texels, each with its own region.
  BufferAndMemory staging = createBuffer(256, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  BufferAndMemory readBack = createBuffer(256, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) staging.mapped[y * kWidth + x] = lumaAt(x, y);
  for (uint32_t j = 0; j < kChromaHeight; ++j)
    for (uint32_t i = 0; i < kChromaWidth; ++i) {
      staging.mapped[128 + (j * kChromaWidth + i) * 2] = cbAt(i, j);
      staging.mapped[128 + (j * kChromaWidth + i) * 2 + 1] = crAt(i, j);
    }
  VkBufferImageCopy regions[2] = {};
  regions[0].imageSubresource = {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1};
  regions[0].imageExtent = {kWidth, kHeight, 1};
  regions[1].bufferOffset = 128;
  regions[1].imageSubresource = {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1};
  regions[1].imageExtent = {kChromaWidth, kChromaHeight, 1};
  submitAndWait([&](VkCommandBuffer cb) {
    auto transition = [&](VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst) {
      VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, src, dst, from, to,
                             VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image,
                             {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
      vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                           nullptr, 1, &b);
    };
    // GENERAL throughout: the image is written, read back and sampled.
    transition(VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cb, staging.buffer, image, VK_IMAGE_LAYOUT_GENERAL, 2, regions);
    transition(VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_GENERAL, readBack.buffer, 2, regions);
    const VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                         nullptr);
  });
  // Each plane comes back as it went in: the planes are apart and each has its own texels.
  EXPECT_EQ(std::memcmp(readBack.mapped, staging.mapped, planeBytes[0]), 0);
  EXPECT_EQ(std::memcmp(readBack.mapped + 128, staging.mapped + 128, planeBytes[1]), 0);

  // BT.709, narrow range, midpoint chroma, NEAREST: the 2x2 block's chroma sample, converted.
  const std::vector<float> nearest =
      sampleAll(image, {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709, VK_SAMPLER_YCBCR_RANGE_ITU_NARROW,
                        VK_CHROMA_LOCATION_MIDPOINT, VK_FILTER_NEAREST});
  // Y'CbCr identity, full range, co-sited chroma, LINEAR: R = Cr', G = Y', B = Cb'.
  const std::vector<float> linear =
      sampleAll(image, {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY, VK_SAMPLER_YCBCR_RANGE_ITU_FULL,
                        VK_CHROMA_LOCATION_COSITED_EVEN, VK_FILTER_LINEAR});
  // The spec allows the conversion and filtering float precision; 2^-10 is well below what a
  // wrong chroma sample (at least 11/224) or a wrong coefficient would move a result.
  const double tolerance = 1.0 / 1024;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      const uint32_t q = y * kWidth + x;
      const Rgb want = bt709Narrow(lumaAt(x, y), cbAt(x / 2, y / 2), crAt(x / 2, y / 2));
      EXPECT_NEAR(nearest[q * 4 + 0], want.r, tolerance) << "709 narrow R at " << x << "," << y;
      EXPECT_NEAR(nearest[q * 4 + 1], want.g, tolerance) << "709 narrow G at " << x << "," << y;
      EXPECT_NEAR(nearest[q * 4 + 2], want.b, tolerance) << "709 narrow B at " << x << "," << y;
      EXPECT_NEAR(nearest[q * 4 + 3], 1.0, tolerance) << "alpha at " << x << "," << y;

      // Co-sited chroma reconstructed linearly in x and in y.
      auto chroma = [&](auto sampleAt) {
        return cositedLinear(y, kChromaHeight, [&](uint32_t j) {
          return cositedLinear(x, kChromaWidth, [&](uint32_t i) { return double(sampleAt(i, j)); });
        });
      };
      const double cb = chroma(cbAt), cr = chroma(crAt);
      EXPECT_NEAR(linear[q * 4 + 0], cr / 255.0 - 128.0 / 255.0, tolerance) << "identity Cr at " << x << "," << y;
      EXPECT_NEAR(linear[q * 4 + 1], lumaAt(x, y) / 255.0, tolerance) << "identity Y at " << x << "," << y;
      EXPECT_NEAR(linear[q * 4 + 2], cb / 255.0 - 128.0 / 255.0, tolerance) << "identity Cb at " << x << "," << y;
    }

  // Plane layouts: a disjoint image's planes each start at offset 0 of their own binding.
  for (uint32_t p = 0; disjoint && p < 2; ++p) {
    const VkImageSubresource sub{planes[p], 0, 0};
    VkSubresourceLayout l{};
    vkGetImageSubresourceLayout(device, image, &sub, &l);
    EXPECT_GE(l.rowPitch, p == 0 ? kWidth : kChromaWidth * 2u);
    EXPECT_GE(l.size, planeBytes[p]);
    EXPECT_EQ(l.offset, 0u);
  }

  destroy(staging);
  destroy(readBack);
  vkDestroyImage(device, image, nullptr);
  for (VkDeviceMemory m : memories) vkFreeMemory(device, m, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Binding, Ycbcr, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) { return info.param ? "Disjoint" : "Joint"; });

}  // namespace
}  // namespace tessera_test
