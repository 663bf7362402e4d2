// VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT ("VkPipelineCreateFlagBits": "any shader
// input variables decorated as ViewIndex will be assigned values as if they were decorated as
// DeviceIndex"), through the loader with validation. A multiview render (view mask 0b11 into
// a 2-layer target) draws with tests/shaders/view_index_device.vert/.frag, which write the
// vertex stage's ViewIndex and the fragment stage's. Monolithic pipelines with and without the
// flag, and pipelines linked from libraries where only the pre-rasterization or only the
// fragment shader library has it ("Graphics Pipeline Libraries": the flag of the library a
// stage comes from holds for that stage). Layer v must read v where the flag is absent and the
// device index, 0 (one device), where it is present. Tessera alone: lavapipe 22.3.6 fails the
// CTS's view_index_from_device_index cases.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 4;
constexpr uint32_t kViews = 2;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UINT;

struct Case {
  const char* name;
  bool libraries;
  bool preRasterFlag;  // the flag on the pre-rasterization part (the whole pipeline when monolithic)
  bool fragmentFlag;   // on the fragment shader part
};

// The target's texels, layer after layer (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const Case& c) {
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  gpl.graphicsPipelineLibrary = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &gpl};
  v11.multiview = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &v11};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13, {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = kFormat;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = kViews;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  vci.format = kFormat;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kViews};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
  void* readMap;
  const VkDeviceSize bytes = kSize * kSize * 4 * kViews;
  VkBuffer readback = device.createMappedBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  VkShaderModule vs = device.createShaderModule(loadCorpusShader("view_index_device_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("view_index_device_frag"));
  const VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
  const VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  const VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  const VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  const VkPipelineColorBlendStateCreateInfo cb{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, nullptr, 0, VK_FALSE, VK_LOGIC_OP_COPY, 1, &blend};
  const VkFormat format = kFormat;
  constexpr VkPipelineCreateFlags kFlag = VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT;

  // A create info of `parts` (all four for a monolithic pipeline).
  auto createInfo = [&](VkGraphicsPipelineLibraryFlagsEXT parts, VkPipelineRenderingCreateInfo& rendering, const void* next) {
    rendering = {VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, next, (1u << kViews) - 1};
    if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) {
      rendering.colorAttachmentCount = 1;
      rendering.pColorAttachmentFormats = &format;
    }
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT) {
      ci.pVertexInputState = &vi;
      ci.pInputAssemblyState = &ia;
    }
    const bool preRaster = parts & VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
    const bool fragment = parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
    if (preRaster) {
      ci.pViewportState = &vp;
      ci.pRasterizationState = &rs;
    }
    ci.pStages = preRaster ? &stages[0] : &stages[1];
    ci.stageCount = uint32_t(preRaster) + uint32_t(fragment);
    if (fragment) ci.pDepthStencilState = &ds;
    if (parts & (VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT | VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT))
      ci.pMultisampleState = &ms;
    if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT) ci.pColorBlendState = &cb;
    if (preRaster || fragment) ci.layout = layout;
    return ci;
  };

  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkPipeline> libraries;  // live as long as the pipeline linked from them
  VkPipelineRenderingCreateInfo rendering;
  if (!c.libraries) {
    VkGraphicsPipelineCreateInfo ci = createInfo(VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT |
                                                     VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT |
                                                     VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT |
                                                     VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT,
                                                 rendering, nullptr);
    ci.flags = c.preRasterFlag ? kFlag : 0;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
  } else {
    const std::pair<VkGraphicsPipelineLibraryFlagsEXT, bool> parts[4] = {
        {VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT, false},
        {VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT, c.preRasterFlag},
        {VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT, c.fragmentFlag},
        {VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT, false}};
    for (const auto& [part, flag] : parts) {
      VkGraphicsPipelineLibraryCreateInfoEXT gplInfo{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT, nullptr, part};
      VkGraphicsPipelineCreateInfo ci = createInfo(part, rendering, &gplInfo);
      ci.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR | (flag ? kFlag : 0);
      VkPipeline library = VK_NULL_HANDLE;
      EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &library), VK_SUCCESS);
      libraries.push_back(library);
    }
    VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr, uint32_t(libraries.size()),
                                        libraries.data()};
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &link};
    ci.layout = layout;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
  }

  std::vector<uint8_t> texels;
  if (pipeline) {
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    vkCreateCommandPool(dev, &cpci, nullptr, &pool);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(dev, &cbai, &cmd);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.image = image;
    barrier.subresourceRange = vci.subresourceRange;
    barrier.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier);
    VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    attachment.imageView = view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.clearValue.color.uint32[0] = 99;  // a value no draw writes
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = scissor;
    ri.layerCount = 1;
    ri.viewMask = (1u << kViews) - 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &attachment;
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    barrier.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    barrier.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &barrier);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kViews};
    region.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
    vkEndCommandBuffer(cmd);
    device.submitAndWait(cmd);
    texels.assign(static_cast<const uint8_t*>(readMap), static_cast<const uint8_t*>(readMap) + bytes);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyPipeline(dev, pipeline, nullptr);
  }
  for (VkPipeline l : libraries) vkDestroyPipeline(dev, l, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return texels;
}

TEST(ViewIndexFromDeviceIndex, EachStageReadsTheDeviceIndexWhereItsPipelinePartHasTheFlag) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's behaviour (lavapipe fails these cases)";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Case cases[] = {{"monolithic", false, false, false},
                        {"monolithic with the flag", false, true, true},
                        {"linked, the flag on the pre-rasterization library", true, true, false},
                        {"linked, the flag on the fragment shader library", true, false, true},
                        {"linked, no flag", true, false, false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<uint8_t> texels = render(drivers.tessera, c);
    ASSERT_EQ(texels.size(), size_t(kSize * kSize * 4 * kViews));
    for (uint32_t v = 0; v < kViews; ++v) {
      const uint8_t expected[4] = {uint8_t(c.preRasterFlag ? 0 : v), uint8_t(c.fragmentFlag ? 0 : v), 7, 1};
      for (uint32_t t = 0; t < kSize * kSize; ++t) {
        const uint8_t* texel = &texels[(v * kSize * kSize + t) * 4];
        if (std::memcmp(texel, expected, 4) != 0) {
          ADD_FAILURE() << "layer " << v << " texel " << t << ": (" << int(texel[0]) << ", " << int(texel[1]) << ", "
                        << int(texel[2]) << ", " << int(texel[3]) << "), expected (" << int(expected[0]) << ", "
                        << int(expected[1]) << ", 7, 1)";
          break;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
