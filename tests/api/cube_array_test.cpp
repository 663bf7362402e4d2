// Cube array views (imageCubeArray) sampled from a compute shader, through the loader with
// validation (tests/shaders/sample_cube_array.comp). Layer 6c + f of the image is face f of
// cube c ("Image Views": cube array layers); each layer holds one value, so a NEAREST sample
// names the layer that "Cube Map Face Selection" and the cube index ("Array Layer Selection":
// RNE, then clamped to the cube count) picked. Runs on lavapipe too (prefix SampledImage).
#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

constexpr uint32_t kCubes = 2, kLayers = 6 * kCubes, kSize = 4, kQueries = 16;

using SampledImageCubeArray = ComputeTest;

TEST_F(SampledImageCubeArray, DirectionAndCubeIndexSelectTheLayer) {
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(physicalDevice, &features);
  ASSERT_TRUE(features.imageCubeArray);

  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = VK_FORMAT_R32_SFLOAT;
  ci.extent = {kSize, kSize, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = kLayers;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ImageAndMemory image = createImage(ci);
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = image.image;
  vi.viewType = VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
  vi.format = ci.format;
  vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
  VkImageView view;
  ASSERT_EQ(vkCreateImageView(device, &vi, nullptr, &view), VK_SUCCESS);
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  si.magFilter = si.minFilter = VK_FILTER_NEAREST;
  si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler;
  ASSERT_EQ(vkCreateSampler(device, &si, nullptr, &sampler), VK_SUCCESS);

  // Queries: the six major axes (slightly off-axis) on cube 0 and cube 1, then cube indices
  // that round (0.4 -> 0, 0.6 -> 1) and clamp (5 -> 1, -2 -> 0).
  struct Query {
    float v[4];
    uint32_t layer;
  };
  const float axes[6][3] = {{1, 0.2f, -0.3f}, {-1, -0.1f, 0.2f}, {0.3f, 1, 0.1f},
                            {-0.2f, -1, 0.3f}, {0.1f, -0.3f, 1}, {-0.2f, 0.1f, -1}};
  std::vector<Query> queries;
  for (uint32_t c = 0; c < kCubes; ++c)
    for (uint32_t f = 0; f < 6; ++f) queries.push_back({{axes[f][0], axes[f][1], axes[f][2], float(c)}, 6 * c + f});
  queries.push_back({{axes[2][0], axes[2][1], axes[2][2], 0.4f}, 2});
  queries.push_back({{axes[3][0], axes[3][1], axes[3][2], 0.6f}, 6 + 3});
  queries.push_back({{axes[4][0], axes[4][1], axes[4][2], 5.0f}, 6 + 4});
  queries.push_back({{axes[5][0], axes[5][1], axes[5][2], -2.0f}, 5});
  ASSERT_EQ(queries.size(), kQueries);
  BufferAndMemory queryBuf = createBuffer(kQueries * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  BufferAndMemory results = createBuffer(kQueries * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  for (uint32_t i = 0; i < kQueries; ++i) std::memcpy(queryBuf.mapped + 16 * i, queries[i].v, 16);
  std::memset(results.mapped, 0xcd, kQueries * 16);

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutBinding bindings[3] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
                                              {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 3, bindings};
  VkDescriptorSetLayout setLayout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
  std::vector<uint32_t> spirv = loadCorpusShader("sample_cube_array");
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, spirv.size() * 4, spirv.data()};
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  pci.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), VK_SUCCESS);
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorPool dpool;
  ASSERT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &dpool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dpool, 1, &setLayout};
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  VkDescriptorImageInfo imageInfo{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkDescriptorBufferInfo buffers[2] = {{queryBuf.buffer, 0, VK_WHOLE_SIZE}, {results.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[3] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &imageInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &buffers[0]},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &buffers[1]}};
  vkUpdateDescriptorSets(device, 3, writes, 0, nullptr);

  submitAndWait([&](VkCommandBuffer cb) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image.image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &b);
    for (uint32_t layer = 0; layer < kLayers; ++layer) {
      VkClearColorValue value{};
      value.float32[0] = float(layer + 1);
      VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, layer, 1};
      vkCmdClearColorImage(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
    }
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, 1, 1, 1);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr,
                         0, nullptr);
  });
  for (uint32_t i = 0; i < kQueries; ++i) {
    float got;
    std::memcpy(&got, results.mapped + 16 * i, 4);
    EXPECT_EQ(got, float(queries[i].layer + 1)) << "query " << i << ": direction (" << queries[i].v[0] << ", "
                                                 << queries[i].v[1] << ", " << queries[i].v[2] << "), cube "
                                                 << queries[i].v[3];
  }

  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorPool(device, dpool, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroySampler(device, sampler, nullptr);
  vkDestroyImageView(device, view, nullptr);
  destroy(image);
  destroy(queryBuf);
  destroy(results);
}

}  // namespace
}  // namespace tessera_test
