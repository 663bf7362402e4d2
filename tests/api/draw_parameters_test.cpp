// Draw parameters and the draw commands that set them, through the loader with validation, on
// Tessera and on lavapipe in one instance (dual_driver.h). The vertex shader
// (tests/shaders/draw_params.vert) draws one point per vertex and instance at pixel
// (VertexIndex, InstanceIndex) holding (BaseVertex, BaseInstance, DrawIndex, VertexIndex) in an
// RGBA32_UINT target, so every built-in is read back exactly. Each test computes the image the
// spec's rules give and requires it from both drivers (and the drivers to agree): a wrong
// built-in, a skipped or extra draw, or a wrong instance is a wrong texel.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr uint32_t kClear = 0xFFFFFFFFu;  // every word of an untouched texel

using Image = std::vector<uint32_t>;  // kSize x kSize texels of 4 words

Image blankImage() { return Image(kSize * kSize * 4, kClear); }

// The texel the vertex shader writes for one vertex of one instance.
void expectPoint(Image& img, uint32_t vertexIndex, uint32_t instanceIndex, uint32_t baseVertex, uint32_t baseInstance,
                 uint32_t drawIndex) {
  uint32_t* t = &img[size_t((instanceIndex & 31) * kSize + (vertexIndex & 31)) * 4];
  t[0] = baseVertex, t[1] = baseInstance, t[2] = drawIndex, t[3] = vertexIndex;
}

// "Drawing Commands", vkCmdDraw: vertices firstVertex.. and instances firstInstance..; the
// built-ins ("Built-In Variables"): BaseVertex = firstVertex, BaseInstance = firstInstance,
// InstanceIndex includes firstInstance, DrawIndex = the draw's index in a multi-draw, else 0.
void expectDraw(Image& img, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance,
                uint32_t drawIndex = 0) {
  for (uint32_t i = 0; i < instanceCount; ++i)
    for (uint32_t v = 0; v < vertexCount; ++v)
      expectPoint(img, firstVertex + v, firstInstance + i, firstVertex, firstInstance, drawIndex);
}

// vkCmdDrawIndexed: VertexIndex = index + vertexOffset, BaseVertex = vertexOffset.
void expectDrawIndexed(Image& img, const std::vector<uint32_t>& indices, uint32_t indexCount, uint32_t instanceCount,
                       uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance, uint32_t drawIndex = 0) {
  for (uint32_t i = 0; i < instanceCount; ++i)
    for (uint32_t k = 0; k < indexCount; ++k)
      expectPoint(img, uint32_t(int64_t(indices[firstIndex + k]) + vertexOffset), firstInstance + i, uint32_t(vertexOffset),
                  firstInstance, drawIndex);
}

// What a test needs of the device and of its buffers.
struct DrawSetup {
  VkPhysicalDeviceFeatures features{};
  bool drawIndirectCount = false;      // VkPhysicalDeviceVulkan12Features
  std::vector<const char*> extensions;  // device extensions
  void* extensionFeatures = nullptr;    // feature structs of those extensions (chained last)
  std::vector<uint8_t> indexData, indirectData;
  // Optional vertex input: the shader to use (a corpus name), binding 0's data and layout, and
  // VK_EXT_vertex_attribute_divisor divisors.
  const char* vertexShader = "draw_params_vert";
  std::vector<uint8_t> vertexData;
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> divisors;
};
struct Buffers {
  VkDevice device;
  VkBuffer index, indirect;  // with DrawSetup's contents; `indirect` may also be written by commands
};
using Recorder = std::function<void(VkCommandBuffer, const Buffers&)>;

template <typename T>
void append(std::vector<uint8_t>& bytes, const T& value) {
  const auto* p = reinterpret_cast<const uint8_t*>(&value);
  bytes.insert(bytes.end(), p, p + sizeof(T));
}

// Renders with the draws `draw` records inside one dynamic rendering instance (after
// `beforeRendering`, when given, outside it); returns the target's texels, empty on failure.
Image render(VkPhysicalDevice pd, const DrawSetup& setup, const Recorder& beforeRendering, const Recorder& draw) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, setup.extensionFeatures};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  v12.drawIndirectCount = setup.drawIndirectCount;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  v11.shaderDrawParameters = VK_TRUE;
  TestDevice device(pd, &setup.features, &v11, setup.extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with the features and extensions the test needs";
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R32G32B32A32_UINT;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage color;
  vkCreateImage(dev, &ici, nullptr, &color);
  device.bindMemory(color);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = color;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);

  void *indexMap, *indirectMap, *readbackMap;
  const VkBuffer index = device.createMappedBuffer(std::max<size_t>(setup.indexData.size(), 4), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &indexMap);
  const VkBuffer indirect = device.createMappedBuffer(std::max<size_t>(setup.indirectData.size(), 4),
                                                      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                      &indirectMap);
  const VkBuffer readback = device.createMappedBuffer(kSize * kSize * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readbackMap);
  void* vertexMap;
  const VkBuffer vertex = device.createMappedBuffer(std::max<size_t>(setup.vertexData.size(), 4), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  if (!setup.vertexData.empty()) std::memcpy(vertexMap, setup.vertexData.data(), setup.vertexData.size());
  if (!setup.indexData.empty()) std::memcpy(indexMap, setup.indexData.data(), setup.indexData.size());
  if (!setup.indirectData.empty()) std::memcpy(indirectMap, setup.indirectData.data(), setup.indirectData.size());

  std::vector<uint32_t> vsCode = loadCorpusShader(setup.vertexShader), fsCode = loadCorpusShader("draw_params_frag");
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, vsCode.size() * 4, vsCode.data()};
  VkShaderModule vs, fs;
  vkCreateShaderModule(dev, &smci, nullptr, &vs);
  smci.codeSize = fsCode.size() * 4;
  smci.pCode = fsCode.data();
  vkCreateShaderModule(dev, &smci, nullptr, &fs);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  VkPipelineVertexInputDivisorStateCreateInfoEXT divisorState{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT};
  divisorState.vertexBindingDivisorCount = uint32_t(setup.divisors.size());
  divisorState.pVertexBindingDivisors = setup.divisors.data();
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (!setup.divisors.empty()) vi.pNext = &divisorState;
  vi.vertexBindingDescriptionCount = uint32_t(setup.bindings.size());
  vi.pVertexBindingDescriptions = setup.bindings.data();
  vi.vertexAttributeDescriptionCount = uint32_t(setup.attributes.size());
  vi.pVertexAttributeDescriptions = setup.attributes.data();
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  const Buffers buffers{dev, index, indirect};
  if (beforeRendering) beforeRendering(cmd, buffers);
  VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toAttachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toAttachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toAttachment.image = color;
  toAttachment.subresourceRange = vci.subresourceRange;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toAttachment);
  VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAtt.imageView = view;
  colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colorAtt.clearValue.color.uint32[0] = colorAtt.clearValue.color.uint32[1] = kClear;
  colorAtt.clearValue.color.uint32[2] = colorAtt.clearValue.color.uint32[3] = kClear;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (!setup.bindings.empty()) {
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertex, &offset);
  }
  draw(cmd, buffers);
  vkCmdEndRendering(cmd);
  VkImageMemoryBarrier toTransfer = toAttachment;
  toTransfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  toTransfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toTransfer);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  Image texels(kSize * kSize * 4);
  std::memcpy(texels.data(), readbackMap, texels.size() * 4);

  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, color, nullptr);
  for (VkBuffer b : {index, indirect, readback, vertex}) vkDestroyBuffer(dev, b, nullptr);
  return texels;
}

// Fails with the first differing texels of `got` against `want`.
void expectSameImage(const char* what, const Image& got, const Image& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  uint32_t different = 0;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t* a = &got[size_t(y * kSize + x) * 4];
      const uint32_t* b = &want[size_t(y * kSize + x) * 4];
      if (std::memcmp(a, b, 16) == 0) continue;
      if (++different <= 5)
        ADD_FAILURE() << what << ": texel (" << x << ", " << y << ") is " << int32_t(a[0]) << "," << int32_t(a[1]) << ","
                      << int32_t(a[2]) << "," << int32_t(a[3]) << ", expected " << int32_t(b[0]) << "," << int32_t(b[1])
                      << "," << int32_t(b[2]) << "," << int32_t(b[3]) << " (BaseVertex, BaseInstance, DrawIndex, VertexIndex)";
    }
  EXPECT_EQ(different, 0u) << what << ": texels that differ";
}

// Renders on Tessera and on lavapipe (when installed); both must give `expected`, and each other.
void checkBothDrivers(const DrawSetup& setup, const Recorder& draw, const Image& expected, const Recorder& beforeRendering = {}) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Image ours = render(drivers.tessera, setup, beforeRendering, draw);
  expectSameImage("Tessera against the spec", ours, expected);
  if (!drivers.lavapipe) return;
  const Image theirs = render(drivers.lavapipe, setup, beforeRendering, draw);
  expectSameImage("lavapipe against the spec", theirs, expected);
  expectSameImage("Tessera against lavapipe", ours, theirs);
}

std::vector<uint8_t> indexBytes16(const std::vector<uint32_t>& indices) {
  std::vector<uint8_t> bytes;
  for (uint32_t i : indices) append(bytes, uint16_t(i));
  return bytes;
}

// "Built-In Variables" (BaseVertex, BaseInstance, DrawIndex) with vkCmdDraw and vkCmdDrawIndexed
// ("Drawing Commands"): BaseVertex is firstVertex, or vertexOffset for an indexed draw (also a
// negative one); BaseInstance is firstInstance; DrawIndex is 0 outside multi-draws.
TEST(DrawParameters, DirectDrawsMatchTheSpecAndLavapipe) {
  const std::vector<uint32_t> indices{9, 0, 2, 5, 30, 31};
  DrawSetup setup;
  setup.indexData = indexBytes16(indices);
  Image expected = blankImage();
  expectDraw(expected, 4, 2, 3, 7);
  expectDrawIndexed(expected, indices, 3, 2, 1, 10, 20);
  expectDrawIndexed(expected, indices, 2, 3, 4, -5, 1);
  checkBothDrivers(setup, [](VkCommandBuffer cmd, const Buffers& b) {
    vkCmdDraw(cmd, 4, 2, 3, 7);
    vkCmdBindIndexBuffer(cmd, b.index, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexed(cmd, 3, 2, 1, 10, 20);
    vkCmdDrawIndexed(cmd, 2, 3, 4, -5, 1);
  }, expected);
}


// "Indirect Drawing Commands": vkCmdDrawIndirect and vkCmdDrawIndexedIndirect with drawCount > 1
// (multiDrawIndirect), from an offset, `stride` bytes apart with padding between the commands,
// each with its own firstInstance (drawIndirectFirstInstance); DrawIndex is the draw's index in
// the call ("Built-In Variables").
TEST(DrawParameters, MultiDrawIndirectWithStrideAndFirstInstance) {
  const std::vector<uint32_t> indices{1, 4, 6, 8, 3, 5};
  DrawSetup setup;
  setup.features.multiDrawIndirect = VK_TRUE;
  setup.features.drawIndirectFirstInstance = VK_TRUE;
  setup.indexData = indexBytes16(indices);
  std::vector<uint8_t>& d = setup.indirectData;
  append(d, uint64_t(0x1111111111111111ull));  // before the offset
  const VkDrawIndirectCommand draws[3] = {{2, 1, 0, 3}, {3, 2, 4, 10}, {1, 3, 9, 28}};
  for (const auto& c : draws) append(d, c), append(d, uint32_t(0x2222)), append(d, uint64_t(0x3333));  // stride 28
  const uint32_t indexedAt = uint32_t(d.size());
  const VkDrawIndexedIndirectCommand indexed[2] = {{2, 2, 0, 12, 14}, {3, 1, 3, -2, 17}};
  for (const auto& c : indexed) append(d, c), append(d, uint32_t(0x4444));  // stride 24
  Image expected = blankImage();
  for (uint32_t i = 0; i < 3; ++i)
    expectDraw(expected, draws[i].vertexCount, draws[i].instanceCount, draws[i].firstVertex, draws[i].firstInstance, i);
  for (uint32_t i = 0; i < 2; ++i)
    expectDrawIndexed(expected, indices, indexed[i].indexCount, indexed[i].instanceCount, indexed[i].firstIndex,
                      indexed[i].vertexOffset, indexed[i].firstInstance, i);
  checkBothDrivers(setup, [indexedAt](VkCommandBuffer cmd, const Buffers& b) {
    vkCmdDrawIndirect(cmd, b.indirect, 8, 3, 28);
    vkCmdBindIndexBuffer(cmd, b.index, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexedIndirect(cmd, b.indirect, indexedAt, 2, 24);
  }, expected);
}

// "Indirect Drawing Commands", vkCmdDrawIndirectCount and vkCmdDrawIndexedIndirectCount
// (drawIndirectCount): the draw count is read from the count buffer when the command executes
// (here written by vkCmdUpdateBuffer earlier in the same command buffer: the host wrote 1) and
// the number of draws is min(count, maxDrawCount).
TEST(DrawParameters, DrawIndirectCountReadsTheCountWhenExecuted) {
  const std::vector<uint32_t> indices{2, 7, 11};
  DrawSetup setup;
  setup.features.multiDrawIndirect = VK_TRUE;
  setup.features.drawIndirectFirstInstance = VK_TRUE;
  setup.drawIndirectCount = true;
  setup.indexData = indexBytes16(indices);
  std::vector<uint8_t>& d = setup.indirectData;
  append(d, uint32_t(1));  // count of the non-indexed draws: 3 once the update has run
  append(d, uint32_t(9));  // count of the indexed draws, above their maxDrawCount 2
  const VkDrawIndirectCommand draws[4] = {{1, 1, 0, 0}, {2, 1, 2, 4}, {1, 2, 6, 8}, {1, 1, 12, 12}};
  for (const auto& c : draws) append(d, c);  // stride 16
  const uint32_t indexedAt = uint32_t(d.size());
  const VkDrawIndexedIndirectCommand indexed[3] = {{1, 1, 0, 5, 20}, {2, 1, 1, 10, 21}, {3, 1, 0, 0, 22}};
  for (const auto& c : indexed) append(d, c);  // stride 20
  Image expected = blankImage();
  for (uint32_t i = 0; i < 3; ++i)
    expectDraw(expected, draws[i].vertexCount, draws[i].instanceCount, draws[i].firstVertex, draws[i].firstInstance, i);
  for (uint32_t i = 0; i < 2; ++i)
    expectDrawIndexed(expected, indices, indexed[i].indexCount, indexed[i].instanceCount, indexed[i].firstIndex,
                      indexed[i].vertexOffset, indexed[i].firstInstance, i);
  auto writeCount = [](VkCommandBuffer cmd, const Buffers& b) {
    const uint32_t three = 3;
    vkCmdUpdateBuffer(cmd, b.indirect, 0, 4, &three);
    VkMemoryBarrier toIndirect{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &toIndirect, 0,
                         nullptr, 0, nullptr);
  };
  checkBothDrivers(setup, [indexedAt](VkCommandBuffer cmd, const Buffers& b) {
    vkCmdDrawIndirectCount(cmd, b.indirect, 8, b.indirect, 0, 4, 16);
    vkCmdBindIndexBuffer(cmd, b.index, 0, VK_INDEX_TYPE_UINT16);
    vkCmdDrawIndexedIndirectCount(cmd, b.indirect, indexedAt, b.indirect, 4, 2, 20);
  }, expected, writeCount);
}

// VK_EXT_index_type_uint8: vkCmdBindIndexBuffer with VK_INDEX_TYPE_UINT8_EXT reads one byte per
// index from the bound offset ("Programmable Primitive Shading"); indices above 0x7F and 0xFF
// itself (restart is off) are ordinary indices. Restart at 0xFF: tests/unit/raster/index_read_test.cpp.
TEST(DrawParameters, Uint8IndicesMatchTheSpecAndLavapipe) {
  const std::vector<uint32_t> indices{3, 250, 7, 0x80, 0xFF, 1};
  VkPhysicalDeviceIndexTypeUint8FeaturesEXT uint8Features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT};
  uint8Features.indexTypeUint8 = VK_TRUE;
  DrawSetup setup;
  setup.extensions = {VK_EXT_INDEX_TYPE_UINT8_EXTENSION_NAME};
  setup.extensionFeatures = &uint8Features;
  for (uint32_t i : indices) setup.indexData.push_back(uint8_t(i));
  const std::vector<uint32_t> fromOffset(indices.begin() + 1, indices.end());  // bound at byte offset 1
  Image expected = blankImage();
  expectDrawIndexed(expected, fromOffset, 3, 2, 0, 2, 5);
  expectDrawIndexed(expected, fromOffset, 2, 1, 3, 3, 9);
  checkBothDrivers(setup, [](VkCommandBuffer cmd, const Buffers& b) {
    vkCmdBindIndexBuffer(cmd, b.index, 1, VK_INDEX_TYPE_UINT8_EXT);
    vkCmdDrawIndexed(cmd, 3, 2, 0, 2, 5);
    vkCmdDrawIndexed(cmd, 2, 1, 3, 3, 9);
  }, expected);
}

// VK_EXT_multi_draw, vkCmdDrawMultiEXT and vkCmdDrawMultiIndexedEXT ("Drawing Commands"): draw i
// reads the i-th VkMultiDraw(Indexed)InfoEXT `stride` bytes after the first, all share
// instanceCount and firstInstance, DrawIndex is i ("Built-In Variables"), and pVertexOffset,
// when not null, replaces every draw's vertexOffset.
TEST(DrawParameters, MultiDrawExtMatchesTheSpecAndLavapipe) {
  const std::vector<uint32_t> indices{0, 3, 5, 9};
  VkPhysicalDeviceMultiDrawFeaturesEXT multiDraw{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
  multiDraw.multiDraw = VK_TRUE;
  DrawSetup setup;
  setup.extensions = {VK_EXT_MULTI_DRAW_EXTENSION_NAME};
  setup.extensionFeatures = &multiDraw;
  setup.indexData = indexBytes16(indices);
  struct Padded {
    VkMultiDrawInfoEXT info;
    uint32_t padding[2];
  };
  struct PaddedIndexed {
    VkMultiDrawIndexedInfoEXT info;
    uint32_t padding;
  };
  const Padded draws[3] = {{{0, 2}, {}}, {{5, 1}, {}}, {{8, 3}, {}}};  // firstVertex, vertexCount
  const PaddedIndexed indexed[2] = {{{0, 2, 20}, {}}, {{2, 2, 16}, {}}};  // firstIndex, indexCount, vertexOffset
  Image expected = blankImage();
  for (uint32_t i = 0; i < 3; ++i) expectDraw(expected, draws[i].info.vertexCount, 2, draws[i].info.firstVertex, 6, i);
  for (uint32_t i = 0; i < 2; ++i)
    expectDrawIndexed(expected, indices, indexed[i].info.indexCount, 1, indexed[i].info.firstIndex,
                      indexed[i].info.vertexOffset, 12, i);
  for (uint32_t i = 0; i < 2; ++i)
    expectDrawIndexed(expected, indices, indexed[i].info.indexCount, 1, indexed[i].info.firstIndex, 1, 15, i);
  checkBothDrivers(setup, [&](VkCommandBuffer cmd, const Buffers& b) {
    auto drawMulti = reinterpret_cast<PFN_vkCmdDrawMultiEXT>(vkGetDeviceProcAddr(b.device, "vkCmdDrawMultiEXT"));
    auto drawMultiIndexed =
        reinterpret_cast<PFN_vkCmdDrawMultiIndexedEXT>(vkGetDeviceProcAddr(b.device, "vkCmdDrawMultiIndexedEXT"));
    ASSERT_TRUE(drawMulti && drawMultiIndexed);
    drawMulti(cmd, 3, &draws[0].info, 2, 6, sizeof(Padded));
    vkCmdBindIndexBuffer(cmd, b.index, 0, VK_INDEX_TYPE_UINT16);
    drawMultiIndexed(cmd, 2, &indexed[0].info, 1, 12, sizeof(PaddedIndexed), nullptr);
    const int32_t vertexOffset = 1;
    drawMultiIndexed(cmd, 2, &indexed[0].info, 1, 15, sizeof(PaddedIndexed), &vertexOffset);
  }, expected);
}

// "Vertex Input Address Calculation" with a divisor: an instance-rate attribute reads element
// firstInstance + (InstanceIndex - firstInstance) / divisor, and with divisor 0
// (vertexAttributeInstanceRateZeroDivisor) element firstInstance for every instance. The
// shader (draw_divisor_vert) writes the fetched element, base + step x e for element e, at
// (VertexIndex, InstanceIndex). `features` is chained into the device the setup describes.
struct DivisorDraw {
  uint32_t divisor, base, step, vertexCount, instanceCount, firstVertex, firstInstance;
};
DrawSetup divisorSetup(const char* extension, const DivisorDraw& d, VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT& features) {
  features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT};
  features.vertexAttributeInstanceRateDivisor = VK_TRUE;
  features.vertexAttributeInstanceRateZeroDivisor = d.divisor == 0;
  DrawSetup setup;
  setup.extensions = {extension};
  setup.extensionFeatures = &features;
  setup.vertexShader = "draw_divisor_vert";
  for (uint32_t e = 0; e < 32; ++e) append(setup.vertexData, d.base + d.step * e);
  setup.bindings = {{0, 4, VK_VERTEX_INPUT_RATE_INSTANCE}};
  setup.attributes = {{0, 0, VK_FORMAT_R32_UINT, 0}};
  setup.divisors = {{0, d.divisor}};
  return setup;
}
Image divisorExpected(const DivisorDraw& d) {
  Image expected = blankImage();
  for (uint32_t i = 0; i < d.instanceCount; ++i) {
    const uint32_t instanceIndex = d.firstInstance + i;
    const uint32_t element = d.divisor == 0 ? d.firstInstance : d.firstInstance + i / d.divisor;
    for (uint32_t v = 0; v < d.vertexCount; ++v) {
      uint32_t* t = &expected[size_t((instanceIndex & 31) * kSize + ((d.firstVertex + v) & 31)) * 4];
      t[0] = d.base + d.step * element, t[1] = instanceIndex, t[2] = d.firstVertex + v, t[3] = 7;
    }
  }
  return expected;
}

// VK_EXT_vertex_attribute_divisor, on Tessera and lavapipe.
TEST(DrawParameters, VertexAttributeDivisorMatchesTheSpecAndLavapipe) {
  for (uint32_t divisor : {3u, 0u}) {
    const DivisorDraw d{divisor, 500, 7, 3, 11, 2, 4};
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT features;
    const DrawSetup setup = divisorSetup(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, d, features);
    SCOPED_TRACE(testing::Message() << "divisor " << divisor);
    checkBothDrivers(setup, [&](VkCommandBuffer cmd, const Buffers&) {
      vkCmdDraw(cmd, d.vertexCount, d.instanceCount, d.firstVertex, d.firstInstance);
    }, divisorExpected(d));
  }
}

// VK_KHR_vertex_attribute_divisor (Vulkan 1.4's name for the extension, which the CTS 1.3.10's
// KHR cases ask for) enabled instead of the EXT: the same "Vertex Input Address Calculation",
// with the non-zero firstInstance its supportsNonZeroFirstInstance property promises. Tessera
// only: lavapipe 22.3.6 offers the EXT alone (the EXT test above compares the two drivers).
TEST(DrawParameters, VertexAttributeDivisorUnderTheKhrNameWithANonZeroFirstInstance) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's extension list";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  // The installed validation layers (1.3.239) predate the KHR extension: they take its
  // properties structure for an unknown one, and the divisor features structure (the EXT's
  // sType, which the KHR extension shares) for one that needs the EXT enabled.
  drivers.tolerate("VUID-VkPhysicalDeviceProperties2-pNext-pNext");
  drivers.tolerate("UNASSIGNED-GeneralParameterError-ExtensionNotEnabled");
  // The KHR properties structure (sType 1000525000: Debian 12's headers predate it).
  struct {
    VkStructureType sType;
    void* pNext;
    uint32_t maxVertexAttribDivisor;
    VkBool32 supportsNonZeroFirstInstance;
  } properties{VkStructureType(1000525000), nullptr, 0, VK_FALSE};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &p2);
  EXPECT_EQ(properties.maxVertexAttribDivisor, ~0u);
  EXPECT_TRUE(properties.supportsNonZeroFirstInstance);
  for (uint32_t divisor : {3u, 0u}) {
    const DivisorDraw d{divisor, 900, 5, 2, 9, 5, 7};
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT features;
    const DrawSetup setup = divisorSetup("VK_KHR_vertex_attribute_divisor", d, features);
    SCOPED_TRACE(testing::Message() << "divisor " << divisor);
    expectSameImage("Tessera against the spec", render(drivers.tessera, setup, {}, [&](VkCommandBuffer cmd, const Buffers&) {
      vkCmdDraw(cmd, d.vertexCount, d.instanceCount, d.firstVertex, d.firstInstance);
    }), divisorExpected(d));
  }
}

}  // namespace
}  // namespace tessera_test
