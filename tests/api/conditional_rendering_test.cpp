// Conditional rendering (VK_EXT_conditional_rendering) through the loader with validation, on
// Tessera and on lavapipe in the same test. "Conditional Rendering": inside a
// vkCmdBeginConditionalRenderingEXT / vkCmdEndConditionalRenderingEXT block the drawing
// commands, dispatching commands and vkCmdClearAttachments are discarded when the 32-bit value
// at the buffer's offset is zero (non-zero with VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT);
// commands after the block run as usual. Secondary command buffers recorded with
// VkCommandBufferInheritanceConditionalRenderingInfoEXT follow their primary's predicate
// (inheritedConditionalRendering; lavapipe 22.3 lacks it, so that part is held to the spec
// alone).
//
// The predicates are written by the host after the command buffers are recorded (and one by
// vkCmdFillBuffer inside the command buffer): they must be read when the commands execute.
// Expected results are computed from the rule above and compared with lavapipe's.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "simple_pipeline.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kCell = 4, kWidth = 5 * kCell, kHeight = 4 * kCell;  // 5 columns, 4 cases

struct Predicate {
  uint32_t value;
  bool inverted;
  bool runs() const { return (value != 0) != inverted; }  // "Conditional Rendering"
};
// Case k uses predicate word k of the predicate buffer.
constexpr Predicate kCases[4] = {{0, false}, {5, false}, {0, true}, {0xFFFFFFFFu, true}};
// Word 4: zero from the host, set to 1 by vkCmdFillBuffer before its block.
constexpr uint32_t kFilledWord = 4;

struct Results {
  std::vector<uint8_t> pixels;  // kWidth x kHeight RGBA8
  float sum = -1;               // the compute shader's y[0]
};

struct Pipelines {
  VkPipelineLayout graphicsLayout, computeLayout;
  VkDescriptorSetLayout setLayout;
  VkPipeline graphics, compute;
  VkShaderModule modules[3];
};

Pipelines createPipelines(VkDevice dev, TestDevice& device) {
  Pipelines p{};
  p.modules[0] = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  p.modules[1] = device.createShaderModule(loadCorpusShader("solid_red_frag"));
  p.modules[2] = device.createShaderModule(loadCorpusShader("saxpy"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  vkCreatePipelineLayout(dev, &plci, nullptr, &p.graphicsLayout);
  p.graphics = createSimplePipeline(dev, {p.modules[0], p.modules[1], p.graphicsLayout, kWidth, kHeight});

  const VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &p.setLayout);
  const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo cplci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &p.setLayout, 1, &push};
  vkCreatePipelineLayout(dev, &cplci, nullptr, &p.computeLayout);
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, p.modules[2], "main",
                nullptr};
  cpci.layout = p.computeLayout;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &p.compute), VK_SUCCESS);
  return p;
}

// y[0] += a (x[0] = 1, n = 1): dispatch k adds 2^k, so y[0] says which dispatches ran.
void pushA(VkCommandBuffer cmd, const Pipelines& p, float a) {
  const struct {
    float a;
    uint32_t n;
  } push{a, 1};
  vkCmdPushConstants(cmd, p.computeLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
}

// `inherited`: also run the secondary command buffers (inheritedConditionalRendering, which
// lavapipe 22.3 does not offer).
Results render(VkPhysicalDevice pd, bool inherited) {
  VkPhysicalDeviceConditionalRenderingFeaturesEXT cr{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &cr};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(cr.conditionalRendering);
  if (inherited) {
    EXPECT_TRUE(cr.inheritedConditionalRendering);
  }
  if (!cr.conditionalRendering || (inherited && !cr.inheritedConditionalRendering)) return {};
  cr.inheritedConditionalRendering = inherited;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &cr};
  v13.dynamicRendering = VK_TRUE;
  v13.maintenance4 = VK_TRUE;  // glslang's SPIR-V 1.6 gives saxpy's workgroup size as LocalSizeId
  // VK_EXT_transform_feedback for vkCmdDrawIndirectByteCountEXT, a drawing command the block
  // discards too.
  VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  xfb.transformFeedback = VK_TRUE;
  cr.pNext = &xfb;
  TestDevice device(pd, nullptr, &v13, {VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  auto begin = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
      vkGetDeviceProcAddr(dev, "vkCmdBeginConditionalRenderingEXT"));
  auto end = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndConditionalRenderingEXT"));
  auto drawByteCount = reinterpret_cast<PFN_vkCmdDrawIndirectByteCountEXT>(
      vkGetDeviceProcAddr(dev, "vkCmdDrawIndirectByteCountEXT"));
  EXPECT_NE(drawByteCount, nullptr);
  if (!drawByteCount) return {};
  EXPECT_NE(begin, nullptr);
  EXPECT_NE(end, nullptr);
  if (!begin || !end) return {};

  const Pipelines p = createPipelines(dev, device);
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {kWidth, kHeight, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = ici.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);

  void *readMap, *predicateMap, *indirectMap, *xMap, *yMap;
  VkBuffer readback = device.createMappedBuffer(kWidth * kHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  VkBuffer predicates = device.createMappedBuffer(
      64, VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, &predicateMap);
  VkBuffer indirect = device.createMappedBuffer(
      64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT, &indirectMap);
  VkBuffer xBuffer = device.createMappedBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &xMap);
  VkBuffer yBuffer = device.createMappedBuffer(64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &yMap);
  const VkDrawIndirectCommand drawArgs{3, 1, 0, 0};
  std::memcpy(indirectMap, &drawArgs, sizeof(drawArgs));
  const uint32_t counterBytes = 12;  // vkCmdDrawIndirectByteCountEXT: 12 bytes / stride 4 = 3 vertices
  std::memcpy(static_cast<uint8_t*>(indirectMap) + 48, &counterBytes, 4);
  const VkDispatchIndirectCommand dispatchArgs{1, 1, 1};
  std::memcpy(static_cast<uint8_t*>(indirectMap) + 32, &dispatchArgs, sizeof(dispatchArgs));
  const float one = 1, zero = 0;
  std::memcpy(xMap, &one, 4);
  std::memcpy(yMap, &zero, 4);
  // Recorded while every predicate would discard (and the inverted ones would not): the
  // values that count are written after recording.
  for (uint32_t k = 0; k < 4; ++k) {
    const uint32_t recordTime = kCases[k].inverted ? 1 : 0;
    std::memcpy(static_cast<uint8_t*>(predicateMap) + 4 * k, &recordTime, 4);
  }
  std::memset(static_cast<uint8_t*>(predicateMap) + 4 * kFilledWord, 0, 4);

  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &p.setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  const VkDescriptorBufferInfo bufferInfos[2] = {{xBuffer, 0, VK_WHOLE_SIZE}, {yBuffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                             nullptr, bufferInfos};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  // Secondaries: one dispatch each (y += 2^(8 + k)), executed inside case k's block.
  VkCommandBuffer secondaries[4];
  cbai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  cbai.commandBufferCount = 4;
  vkAllocateCommandBuffers(dev, &cbai, secondaries);
  for (uint32_t k = 0; k < 4; ++k) {
    VkCommandBufferInheritanceConditionalRenderingInfoEXT inheritCr{
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_CONDITIONAL_RENDERING_INFO_EXT, nullptr, inherited};  // else unused
    VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, &inheritCr};
    VkCommandBufferBeginInfo sbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, &inherit};
    vkBeginCommandBuffer(secondaries[k], &sbi);
    vkCmdBindPipeline(secondaries[k], VK_PIPELINE_BIND_POINT_COMPUTE, p.compute);
    vkCmdBindDescriptorSets(secondaries[k], VK_PIPELINE_BIND_POINT_COMPUTE, p.computeLayout, 0, 1, &set, 0, nullptr);
    pushA(secondaries[k], p, std::ldexp(1.0f, 8 + int(k)));
    vkCmdDispatch(secondaries[k], 1, 1, 1);
    vkEndCommandBuffer(secondaries[k]);
  }

  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  // Word kFilledWord = 1, written by the device before its block reads it.
  vkCmdFillBuffer(cmd, predicates, 4 * kFilledWord, 4, 1);
  VkMemoryBarrier fillDone{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                           VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT, 0, 1, &fillDone, 0,
                       nullptr, 0, nullptr);
  auto beginBlock = [&](uint32_t word, bool inverted) {
    VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT, nullptr, predicates,
                                            4 * word, inverted ? VkConditionalRenderingFlagsEXT(VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) : 0u};
    begin(cmd, &info);
  };

  // Compute: case k's vkCmdDispatch adds 2^k, its vkCmdDispatchIndirect 2^(4+k), its secondary
  // 2^(8+k); 2^12 after the blocks (always), 2^13 under the filled word.
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.compute);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.computeLayout, 0, 1, &set, 0, nullptr);
  VkMemoryBarrier computeOrder{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
  auto orderCompute = [&] {
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &computeOrder, 0,
                         nullptr, 0, nullptr);
  };
  for (uint32_t k = 0; k < 4; ++k) {
    beginBlock(k, kCases[k].inverted);
    pushA(cmd, p, std::ldexp(1.0f, int(k)));
    vkCmdDispatch(cmd, 1, 1, 1);
    end(cmd);
    orderCompute();
    beginBlock(k, kCases[k].inverted);
    pushA(cmd, p, std::ldexp(1.0f, 4 + int(k)));
    vkCmdDispatchIndirect(cmd, indirect, 32);
    end(cmd);
    orderCompute();
    if (!inherited) continue;
    beginBlock(k, kCases[k].inverted);
    vkCmdExecuteCommands(cmd, 1, &secondaries[k]);
    end(cmd);
    orderCompute();
    // The secondary's push constants and bindings do not carry back: bind again.
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.compute);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.computeLayout, 0, 1, &set, 0, nullptr);
  }
  pushA(cmd, p, std::ldexp(1.0f, 12));
  vkCmdDispatch(cmd, 1, 1, 1);
  orderCompute();
  beginBlock(kFilledWord, false);
  pushA(cmd, p, std::ldexp(1.0f, 13));
  vkCmdDispatch(cmd, 1, 1, 1);
  end(cmd);

  // Graphics: row k is case k; column 0 vkCmdDraw, 1 vkCmdDrawIndirect, 2 vkCmdClearAttachments
  // (green), 3 a draw after the block (always), 4 vkCmdDrawIndirectByteCountEXT. Red draws, a
  // black clear.
  VkImageMemoryBarrier ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  ib.image = image;
  ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  ib.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  ib.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  ib.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &ib);
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0, 0, 0, 1}};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kWidth, kHeight}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p.graphics);
  auto cell = [](uint32_t column, uint32_t row) {
    return VkRect2D{{int32_t(column * kCell), int32_t(row * kCell)}, {kCell, kCell}};
  };
  for (uint32_t k = 0; k < 4; ++k) {
    beginBlock(k, kCases[k].inverted);
    VkRect2D r = cell(0, k);
    vkCmdSetScissor(cmd, 0, 1, &r);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    r = cell(1, k);
    vkCmdSetScissor(cmd, 0, 1, &r);
    vkCmdDrawIndirect(cmd, indirect, 0, 1, sizeof(VkDrawIndirectCommand));
    VkClearAttachment clear{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
    clear.clearValue.color = {{0, 1, 0, 1}};
    const VkClearRect rect{cell(2, k), 0, 1};
    vkCmdClearAttachments(cmd, 1, &clear, 1, &rect);
    r = cell(4, k);
    vkCmdSetScissor(cmd, 0, 1, &r);
    drawByteCount(cmd, 1, 0, indirect, 48, 0, 4);
    end(cmd);
    r = cell(3, k);
    vkCmdSetScissor(cmd, 0, 1, &r);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
  ib.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  ib.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  ib.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &ib);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kWidth, kHeight, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                       VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                       1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);

  // The predicates that count, written after recording.
  for (uint32_t k = 0; k < 4; ++k) std::memcpy(static_cast<uint8_t*>(predicateMap) + 4 * k, &kCases[k].value, 4);
  device.submitAndWait(cmd);
  Results out;
  out.pixels.resize(kWidth * kHeight * 4);
  std::memcpy(out.pixels.data(), readMap, out.pixels.size());
  std::memcpy(&out.sum, yMap, 4);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyPipeline(dev, p.graphics, nullptr);
  vkDestroyPipeline(dev, p.compute, nullptr);
  vkDestroyPipelineLayout(dev, p.graphicsLayout, nullptr);
  vkDestroyPipelineLayout(dev, p.computeLayout, nullptr);
  vkDestroyDescriptorSetLayout(dev, p.setLayout, nullptr);
  for (VkShaderModule m : p.modules) vkDestroyShaderModule(dev, m, nullptr);
  for (VkBuffer b : {readback, predicates, indirect, xBuffer, yBuffer}) vkDestroyBuffer(dev, b, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return out;
}

TEST(ConditionalRendering, DrawsDispatchesAndClearsFollowThePredicateAsTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Results ours = render(drivers.tessera, true);
  ASSERT_EQ(ours.pixels.size(), size_t(kWidth * kHeight * 4));
  // lavapipe has no inheritedConditionalRendering: compared without the secondaries.
  const Results oursPrimaryOnly = render(drivers.tessera, false);
  Results reference;
  if (drivers.lavapipe) {
    reference = render(drivers.lavapipe, false);
    ASSERT_EQ(reference.pixels.size(), ours.pixels.size());
  }

  float wantPrimary = std::ldexp(1.0f, 12) + std::ldexp(1.0f, 13);  // after the blocks; the filled word is 1
  float wantSecondaries = 0;
  for (uint32_t k = 0; k < 4; ++k)
    if (kCases[k].runs()) {
      wantPrimary += std::ldexp(1.0f, int(k)) + std::ldexp(1.0f, 4 + int(k));
      wantSecondaries += std::ldexp(1.0f, 8 + int(k));
    }
  EXPECT_EQ(ours.sum, wantPrimary + wantSecondaries) << "dispatches and secondaries: the spec";
  EXPECT_EQ(oursPrimaryOnly.sum, wantPrimary) << "dispatches: the spec";
  EXPECT_EQ(oursPrimaryOnly.pixels, ours.pixels);
  if (drivers.lavapipe) {
    EXPECT_EQ(oursPrimaryOnly.sum, reference.sum) << "dispatches: lavapipe";
  }

  int failures = 0;
  for (uint32_t y = 0; y < kHeight && failures < 5; ++y)
    for (uint32_t x = 0; x < kWidth && failures < 5; ++x) {
      const uint32_t column = x / kCell, k = y / kCell;
      uint8_t want[4] = {0, 0, 0, 255};
      if (column == 3 || ((column < 2 || column == 4) && kCases[k].runs())) want[0] = 255;
      if (column == 2 && kCases[k].runs()) want[1] = 255;
      const size_t at = (y * kWidth + x) * 4;
      for (int c = 0; c < 4; ++c) {
        if (ours.pixels[at + c] != want[c]) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(ours.pixels[at + c])
                        << ", the spec " << int(want[c]);
          ++failures;
        }
        if (!reference.pixels.empty() && ours.pixels[at + c] != reference.pixels[at + c]) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(ours.pixels[at + c])
                        << ", lavapipe " << int(reference.pixels[at + c]);
          ++failures;
        }
      }
    }
}

}  // namespace
}  // namespace tessera_test
