// Dual-source blending (the dualSrcBlend feature) through the loader with validation, on
// Tessera and on lavapipe in the same test. A full-screen triangle
// (tests/shaders/fullscreen.vert, tests/shaders/dual_source_blend.frag) writes both inputs of
// attachment 0's blender, Location 0 Index 0 and Index 1, as functions of the pixel position,
// over an R8G8B8A8_UNORM attachment cleared to a known colour; each pipeline uses the SRC1
// factors in another slot and with another operation. Two oracles: the expected pixel computed
// here from the spec ("Blend Factors" table with R_s1..A_s1, "Dual-Source Blending", "Blend
// Operations", the fixed-point clamps of "Blending" and the 8-bit conversions), and lavapipe.
// The ctest variant api_tests.reference_raster runs it again with TESSERA_RASTER=reference, so
// that both of Tessera's draw paths are checked.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 64;
constexpr float kClear[4] = {0.2f, 0.6f, 0.4f, 0.8f};

struct Blend {
  const char* name;
  VkPipelineColorBlendAttachmentState state;
};

// Renders the full-screen triangle with `blend` on `pd`: kSize x kSize RGBA8 pixels (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const VkPipelineColorBlendAttachmentState& blend) {
  VkPhysicalDeviceFeatures supported{}, enabled{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  EXPECT_TRUE(supported.dualSrcBlend);
  if (!supported.dualSrcBlend) return {};
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  EXPECT_GE(props.limits.maxFragmentDualSrcAttachments, 1u);
  enabled.dualSrcBlend = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, &enabled, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
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
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("dual_source_blend_frag"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1,
                                       &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
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
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr,
                       0, nullptr, 1, &b);
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  std::memcpy(attachment.clearValue.color.float32, kClear, sizeof(kClear));
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), readMap, pixels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return pixels;
}

// ---- The spec's arithmetic for one pixel ----
// "Blend Factors", with s0, s1 the two sources, d the destination (all clamped to [0, 1] for a
// UNORM attachment, as "Blending" says), c the component (3: alpha).
float factor(VkBlendFactor f, const float* s0, const float* s1, const float* d, int c) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_COLOR: return s0[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s0[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s0[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s0[3];
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];  // alpha slot: A_s1
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: ADD_FAILURE() << "factor " << f << " is not used by this test"; return 0;
  }
}
float operation(VkBlendOp op, float s, float sf, float d, float df) {
  switch (op) {
    case VK_BLEND_OP_ADD: return s * sf + d * df;
    case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    default: ADD_FAILURE() << "op " << op << " is not used by this test"; return 0;
  }
}
uint8_t unorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

void expectedPixel(const VkPipelineColorBlendAttachmentState& blend, uint32_t x, uint32_t y, uint8_t out[4]) {
  const float px = float(x) / 63.0f, py = float(y) / 63.0f;  // the shader's floor(FragCoord) / 63
  const float s0[4] = {px, py, 0.75f, 1.0f - px};
  const float s1[4] = {1.0f - py, 0.25f, px * py, py};
  float d[4];
  for (int c = 0; c < 4; ++c) d[c] = float(unorm8(kClear[c])) / 255.0f;  // the cleared attachment
  for (int c = 0; c < 4; ++c) {
    if (!blend.blendEnable) {
      out[c] = unorm8(s0[c]);
      continue;
    }
    const bool alpha = c == 3;
    const float sf = factor(alpha ? blend.srcAlphaBlendFactor : blend.srcColorBlendFactor, s0, s1, d, c);
    const float df = factor(alpha ? blend.dstAlphaBlendFactor : blend.dstColorBlendFactor, s0, s1, d, c);
    out[c] = unorm8(operation(alpha ? blend.alphaBlendOp : blend.colorBlendOp, s0[c], sf, d[c], df));
  }
}

VkPipelineColorBlendAttachmentState blendState(VkBlendFactor srcColor, VkBlendFactor dstColor, VkBlendOp colorOp,
                                               VkBlendFactor srcAlpha, VkBlendFactor dstAlpha, VkBlendOp alphaOp) {
  return {VK_TRUE, srcColor, dstColor, colorOp, srcAlpha, dstAlpha, alphaOp, 0xF};
}

TEST(DrawDualSourceBlend, EverySrc1FactorMatchesTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  const Blend blends[] = {
      {"SRC1_COLOR / ONE_MINUS_SRC1_COLOR, alpha SRC1_ALPHA / ONE_MINUS_SRC1_ALPHA",
       blendState(VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, VK_BLEND_OP_ADD,
                  VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_OP_ADD)},
      {"ONE_MINUS_SRC1_ALPHA / SRC1_ALPHA reverse-subtracted, alpha ONE_MINUS_SRC1_COLOR / SRC1_COLOR",
       blendState(VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_FACTOR_SRC1_ALPHA, VK_BLEND_OP_REVERSE_SUBTRACT,
                  VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_OP_ADD)},
      {"SRC1_COLOR / ZERO (modulation), alpha ONE / ONE_MINUS_SRC1_ALPHA subtracted",
       blendState(VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                  VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_OP_SUBTRACT)},
      {"SRC_ALPHA / ONE_MINUS_SRC1_COLOR mixed with the first source's factors",
       blendState(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, VK_BLEND_OP_ADD,
                  VK_BLEND_FACTOR_SRC1_COLOR, VK_BLEND_FACTOR_DST_COLOR, VK_BLEND_OP_ADD)},
      // Blending off: the Index 1 output is there but only Index 0 is written.
      {"blending disabled", {VK_FALSE, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                             VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xF}},
  };
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const Blend& blend : blends) {
    SCOPED_TRACE(blend.name);
    const std::vector<uint8_t> ours = render(drivers.tessera, blend.state);
    ASSERT_EQ(ours.size(), size_t(kSize * kSize * 4));
    std::vector<uint8_t> reference;
    if (drivers.lavapipe) {
      reference = render(drivers.lavapipe, blend.state);
      ASSERT_EQ(reference.size(), ours.size());
    }
    // Rounding: the shader's division and the blend arithmetic may each be off by an ULP or so,
    // which can move a result across an 8-bit rounding boundary.
    int failures = 0;
    for (uint32_t y = 0; y < kSize && failures < 5; ++y)
      for (uint32_t x = 0; x < kSize && failures < 5; ++x) {
        uint8_t want[4];
        expectedPixel(blend.state, x, y, want);
        const uint8_t* got = &ours[(y * kSize + x) * 4];
        for (int c = 0; c < 4; ++c) {
          if (std::abs(int(got[c]) - int(want[c])) > 1) {
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(got[c])
                          << ", the spec " << int(want[c]);
            ++failures;
          }
          if (!reference.empty() && std::abs(int(got[c]) - int(reference[(y * kSize + x) * 4 + c])) > 1) {
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << c << ": Tessera " << int(got[c])
                          << ", lavapipe " << int(reference[(y * kSize + x) * 4 + c]);
            ++failures;
          }
        }
      }
  }
}

}  // namespace
}  // namespace tessera_test
