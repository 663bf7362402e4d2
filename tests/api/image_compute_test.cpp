// Storage images and texel buffers in compute shaders, through the loader with validation:
// imageStore with format conversion (UNORM rounding, spec "Conversion from Floating-Point to
// Normalized Fixed-Point"), imageAtomicAdd, imageLoad/imageStore on texel buffers, imageSize,
// and out-of-range stores being dropped; float image atomics (VK_EXT_shader_atomic_float).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

struct R32FloatRun {
  float image[4] = {}, texels[4] = {};
  std::vector<float> storage;
};

class ImageCompute : public ComputeTest {
 protected:
  // One dispatch of `shader` over a 4 x 1 R32_SFLOAT (or `format`) storage image cleared to
  // imageClear (for R32_UINT: its bits as clearValue.uint32), a 4-texel R32_SFLOAT storage
  // texel buffer and a storage buffer; returns what the three hold afterwards.
  R32FloatRun runR32Float(const char* shader, uint32_t groups, float imageClear, const float (&texels)[4],
                          const std::vector<float>& storage, VkFormat format = VK_FORMAT_R32_SFLOAT);
};

TEST_F(ImageCompute, StorageImagesAtomicsAndTexelBuffers) {
  const uint32_t W = 16, H = 16, N = W * H;
  auto makeImage = [&](VkFormat format, uint32_t w, uint32_t h) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {w, h, 1};
    ci.mipLevels = 1;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    return createImage(ci);
  };
  auto makeView = [&](VkImage image, VkFormat format) {
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView v = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device, &vi, nullptr, &v), VK_SUCCESS);
    return v;
  };
  ImageAndMemory color = makeImage(VK_FORMAT_R8G8B8A8_UNORM, W, H);
  ImageAndMemory counter = makeImage(VK_FORMAT_R32_UINT, 4, 1);
  VkImageView colorView = makeView(color.image, VK_FORMAT_R8G8B8A8_UNORM);
  VkImageView counterView = makeView(counter.image, VK_FORMAT_R32_UINT);
  BufferAndMemory src = createBuffer(N * 4, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  BufferAndMemory dst = createBuffer(N * 16, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  BufferAndMemory readback = createBuffer(N * 4 + 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  for (uint32_t i = 0; i < N; ++i) {
    float v = float(i) * 1.5f;
    std::memcpy(src.mapped + 4 * i, &v, 4);
  }
  std::memset(dst.mapped, 0xab, N * 16);
  auto makeBufferView = [&](VkBuffer b, VkFormat f) {
    VkBufferViewCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    bi.buffer = b;
    bi.format = f;
    bi.range = VK_WHOLE_SIZE;
    VkBufferView v = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBufferView(device, &bi, nullptr, &v), VK_SUCCESS);
    return v;
  };
  VkBufferView srcView = makeBufferView(src.buffer, VK_FORMAT_R32_SFLOAT);
  VkBufferView dstView = makeBufferView(dst.buffer, VK_FORMAT_R32G32B32A32_UINT);

  VkDescriptorSetLayoutBinding bindings[4] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {3, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 4;
  dl.pBindings = bindings;
  VkDescriptorSetLayout setLayout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
  std::vector<uint32_t> spirv = loadCorpusShader("image_storage");
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size() * 4;
  sm.pCode = spirv.data();
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  ci.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);

  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2}, {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 2}};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = 1;
  dp.poolSizeCount = 2;
  dp.pPoolSizes = sizes;
  VkDescriptorPool dpool;
  ASSERT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &dpool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dpool, 1, &setLayout};
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  VkDescriptorImageInfo imgs[2] = {{VK_NULL_HANDLE, colorView, VK_IMAGE_LAYOUT_GENERAL},
                                   {VK_NULL_HANDLE, counterView, VK_IMAGE_LAYOUT_GENERAL}};
  VkWriteDescriptorSet writes[4] = {};
  for (uint32_t i = 0; i < 4; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1, bindings[i].descriptorType};
    if (i < 2) writes[i].pImageInfo = &imgs[i];
  }
  writes[2].pTexelBufferView = &srcView;
  writes[3].pTexelBufferView = &dstView;
  vkUpdateDescriptorSets(device, 4, writes, 0, nullptr);

  submitAndWait([&](VkCommandBuffer cb) {
    toGeneralLayout(cb, color.image, VK_IMAGE_ASPECT_COLOR_BIT);
    toGeneralLayout(cb, counter.image, VK_IMAGE_ASPECT_COLOR_BIT);
    VkClearColorValue zero{};
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, counter.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, W / 8, H / 8, 1);
    VkMemoryBarrier back{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &back, 0, nullptr, 0, nullptr);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {W, H, 1};
    vkCmdCopyImageToBuffer(cb, color.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &copy);
    copy.bufferOffset = N * 4;
    copy.imageExtent = {4, 1, 1};
    vkCmdCopyImageToBuffer(cb, counter.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &copy);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });

  auto unorm8 = [](float f) { return uint8_t(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)); };
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      const uint8_t* px = readback.mapped + 4 * (y * W + x);
      ASSERT_EQ(px[0], unorm8(float(x) / W)) << x << "," << y;
      ASSERT_EQ(px[1], unorm8(float(y) / H)) << x << "," << y;
      ASSERT_EQ(px[2], unorm8(0.25f));
      ASSERT_EQ(px[3], 255);
    }
  // Each column class x%4 receives, from every row y, (y+1) from 4 columns of each 16: 4 * sum(1..16).
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t v;
    std::memcpy(&v, readback.mapped + N * 4 + 4 * c, 4);
    EXPECT_EQ(v, 4u * (16u * 17u / 2u)) << c;
  }
  for (uint32_t i = 0; i < N; ++i) {
    uint32_t t[4];
    std::memcpy(t, dst.mapped + 16 * i, 16);
    EXPECT_EQ(t[0], uint32_t(float(i) * 1.5f * 2.0f)) << i;
    EXPECT_EQ(t[1], i);
    EXPECT_EQ(t[2], N);
    EXPECT_EQ(t[3], 7u);
  }

  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorPool(device, dpool, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroyBufferView(device, srcView, nullptr);
  vkDestroyBufferView(device, dstView, nullptr);
  vkDestroyImageView(device, colorView, nullptr);
  vkDestroyImageView(device, counterView, nullptr);
  destroy(color);
  destroy(counter);
  destroy(src);
  destroy(dst);
  destroy(readback);
}

// One dispatch of `groups` x 64 invocations of `shader` over the bindings the float image
// atomics tests share: 0, an R32_SFLOAT 4x1 storage image cleared to `imageClear`; 1, an
// R32_SFLOAT storage texel buffer of 4 texels holding `texels`; 2, a storage buffer holding
// `storage`. Returns the three after the dispatch.
R32FloatRun ImageCompute::runR32Float(const char* shader, uint32_t groups, float imageClear, const float (&texels)[4],
                                      const std::vector<float>& storage, VkFormat format) {
  R32FloatRun run;
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {4, 1, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ImageAndMemory image = createImage(ci);
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = image.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vi.format = format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView imageView;
  EXPECT_EQ(vkCreateImageView(device, &vi, nullptr, &imageView), VK_SUCCESS);
  BufferAndMemory texelBuffer = createBuffer(16, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
  std::memcpy(texelBuffer.mapped, texels, 16);
  VkBufferViewCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  bi.buffer = texelBuffer.buffer;
  bi.format = VK_FORMAT_R32_SFLOAT;
  bi.range = VK_WHOLE_SIZE;
  VkBufferView texelView;
  EXPECT_EQ(vkCreateBufferView(device, &bi, nullptr, &texelView), VK_SUCCESS);
  BufferAndMemory storageBuffer = createBuffer(storage.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::memcpy(storageBuffer.mapped, storage.data(), storage.size() * 4);
  BufferAndMemory readback = createBuffer(16, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutBinding bindings[3] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, cs, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, cs, nullptr},
                                              {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 3;
  dl.pBindings = bindings;
  VkDescriptorSetLayout setLayout;
  EXPECT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  EXPECT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
  std::vector<uint32_t> spirv = loadCorpusShader(shader);
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size() * 4;
  sm.pCode = spirv.data();
  VkShaderModule module;
  EXPECT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  pci.layout = layout;
  VkPipeline pipeline;
  EXPECT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), VK_SUCCESS);
  VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = 1;
  dp.poolSizeCount = 3;
  dp.pPoolSizes = sizes;
  VkDescriptorPool dpool;
  EXPECT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &dpool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dpool, 1, &setLayout};
  VkDescriptorSet set;
  EXPECT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  VkDescriptorImageInfo img{VK_NULL_HANDLE, imageView, VK_IMAGE_LAYOUT_GENERAL};
  VkDescriptorBufferInfo buf{storageBuffer.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[3] = {};
  for (uint32_t i = 0; i < 3; ++i)
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1, bindings[i].descriptorType};
  writes[0].pImageInfo = &img;
  writes[1].pTexelBufferView = &texelView;
  writes[2].pBufferInfo = &buf;
  vkUpdateDescriptorSets(device, 3, writes, 0, nullptr);

  submitAndWait([&](VkCommandBuffer cb) {
    toGeneralLayout(cb, image.image, VK_IMAGE_ASPECT_COLOR_BIT);
    VkClearColorValue clear{};
    clear.float32[0] = imageClear;  // for R32_UINT: the same bits as clear.uint32[0]
    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, &clear, 1, &range);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, groups, 1, 1);
    VkMemoryBarrier back{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &back, 0, nullptr, 0, nullptr);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {4, 1, 1};
    vkCmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &copy);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  });

  std::memcpy(run.image, readback.mapped, 16);
  std::memcpy(run.texels, texelBuffer.mapped, 16);
  run.storage.resize(storage.size());
  std::memcpy(run.storage.data(), storageBuffer.mapped, storage.size() * 4);

  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorPool(device, dpool, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroyBufferView(device, texelView, nullptr);
  vkDestroyImageView(device, imageView, nullptr);
  destroy(image);
  destroy(texelBuffer);
  destroy(storageBuffer);
  destroy(readback);
  return run;
}

// VK_EXT_shader_atomic_float on images: imageAtomicAdd on an R32_SFLOAT image (sums of 0.5 are
// exact, so a lost update shows) and imageAtomicExchange on an R32_SFLOAT texel buffer (the
// values returned plus the final one must be every written value exactly once).
TEST_F(ImageCompute, FloatAtomicsOnR32SfloatImagesAndTexelBuffers) {
  const uint32_t groups = 4, n = groups * 64;
  const float zeros[4] = {};
  const R32FloatRun run = runR32Float("image_float_atomics", groups, 0.0f, zeros, std::vector<float>(n, 0.0f));
  for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(run.image[c], 0.5f * float(n / 4)) << "texel " << c;
  std::vector<float> seen = run.storage;
  ASSERT_EQ(seen.size(), size_t(n));
  seen.push_back(run.texels[0]);
  std::sort(seen.begin(), seen.end());
  for (uint32_t k = 0; k <= n; ++k) ASSERT_EQ(seen[k], float(k)) << "an exchange was lost or duplicated";
}

// VK_EXT_shader_atomic_float2 (shaderImageFloat32AtomicMinMax): imageAtomicMin/Max on an
// R32_SFLOAT image and an R32_SFLOAT storage texel buffer from 256 invocations; the results are
// the extremes C++ computes of the values offered ("Atomic Operations"; spec values, so the
// test also runs on lavapipe: api_tests.lavapipe).
TEST_F(ImageCompute, FloatMinMaxOnR32SfloatImagesAndTexelBuffers) {
  const uint32_t groups = 4, n = groups * 64;
  std::vector<float> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = float(int32_t((i * 2654435761u) >> 20) - 2048) * 0.25f;
  const float extremes[4] = {-1e30f, 1e30f, 0.0f, 0.0f};  // max, min
  const R32FloatRun run = runR32Float("image_float_minmax", groups, 1e30f, extremes, values);
  for (uint32_t c = 0; c < 4; ++c) {
    float want = 1e30f;
    for (uint32_t i = c; i < n; i += 4) want = std::min(want, values[i]);
    EXPECT_EQ(run.image[c], want) << "texel " << c;
  }
  EXPECT_EQ(run.texels[0], *std::max_element(values.begin(), values.end()));
  EXPECT_EQ(run.texels[1], *std::min_element(values.begin(), values.end()));
}

// Storage-image loads and stores at coordinates that differ per lane on R32 views, which the
// JIT addresses inline (translate_image.cpp, plainWordsOr): in-range lanes read the texel, lanes
// outside the image in x, y or both read (0, 0, 0, 1) with alpha 1.0 for R32_SFLOAT and 1 for
// R32_UINT ("Texel Replacement", robustImageAccess2 being what Tessera does for every access),
// and only in-range lanes write, each its own texel. Expected values from the coordinates.
TEST_F(ImageCompute, PerLaneR32ImageAccessesAddressTheirTexelsAndReplaceOutOfRangeOnes) {
  const uint32_t groups = 2, n = groups * 64;
  const float none[4] = {};
  auto inRange = [](int i) { return i % 8 - 2 >= 0 && i % 8 - 2 < 4 && (i / 8) % 3 - 1 == 0; };
  {
    const R32FloatRun run = runR32Float("image_r32_lane_reads", groups, 42.5f, none, std::vector<float>(4 * n, -9.0f));
    int inside = 0;
    for (int i = 0; i < int(n); ++i) {
      const float* v = &run.storage[4 * i];
      inside += inRange(i);
      EXPECT_EQ(v[0], inRange(i) ? 42.5f : 0.0f) << "lane " << i;
      EXPECT_EQ(v[1], 0.0f) << "lane " << i;
      EXPECT_EQ(v[2], 0.0f) << "lane " << i;
      EXPECT_EQ(v[3], 1.0f) << "lane " << i;
    }
    EXPECT_EQ(inside, 20);  // rows 1, 4, 7, 10, 13 of 8 lanes, x = 0..3 of each
  }
  {
    const float clearBits = [] {
      const uint32_t bits = 0x12345u;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }();
    const R32FloatRun run =
        runR32Float("image_r32ui_lane_reads", groups, clearBits, none, std::vector<float>(4 * n, -9.0f), VK_FORMAT_R32_UINT);
    for (int i = 0; i < int(n); ++i) {
      uint32_t v[4];
      std::memcpy(v, &run.storage[4 * i], 16);
      EXPECT_EQ(v[0], inRange(i) ? 0x12345u : 0u) << "lane " << i;
      EXPECT_EQ(v[1] | v[2], 0u) << "lane " << i;
      EXPECT_EQ(v[3], 1u) << "lane " << i;
    }
  }
  {
    const R32FloatRun run = runR32Float("image_r32_lane_writes", groups, -1.0f, none, std::vector<float>(1, 0.0f));
    for (int x = 0; x < 4; ++x) EXPECT_EQ(run.image[x], float(x + 1) * 1.5f + 100.0f) << "texel " << x;
  }
}

}  // namespace
}  // namespace tessera_test
