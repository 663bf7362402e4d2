// Depth clipping and clamping (VK_EXT_depth_clip_enable), the [-1, 1] clip volume
// (VK_EXT_depth_clip_control) and depths outside [0, 1] (VK_EXT_depth_range_unrestricted),
// through the loader with validation, on Tessera and on lavapipe in the same test.
//
// The scene (tests/shaders/draw_basic.*, w = 1): a full-screen quad B at z_d = 0.6, then a quad
// A over rows y_d in [-0.8, 0.8] whose z_d = 0.5 + x_d runs from -0.5 at the left edge to 1.5 at
// the right: it crosses the near plane (z = 0, or z = -w with negativeOneToOne) and the far
// plane (z = w). Depth test LESS against a D32_SFLOAT attachment, depth writes on. A's colour
// runs from red (left) to green (right). The expected images are computed from the spec:
// "Primitive Clipping" (which part of A survives: z_m <= z_d <= 1 while depth clipping is on;
// depthClipEnable, or without VkPipelineRasterizationDepthClipStateCreateInfoEXT
// !depthClampEnable), "Controlling the Viewport" (z_f = p_z z_d + o_z, the negativeOneToOne
// form included), "Depth Clamping and Range Adjustment" (clamped to the viewport's range with
// depthClampEnable) and the depth test; they are compared with lavapipe's images too. A depth
// that the spec leaves undefined (outside [0, 1] without VK_EXT_depth_range_unrestricted) is
// not compared; the scene is laid out so that the depth test's outcome is the same for any
// value it could take. The ctest variant api_tests.reference_raster repeats it on the
// reference path.
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

constexpr uint32_t kSize = 32;
constexpr float kBackgroundZ = 0.6f;

enum class ClipStruct { None, Enabled, Disabled };

struct Case {
  const char* name;
  bool clamp;                // depthClampEnable
  ClipStruct clip;           // VkPipelineRasterizationDepthClipStateCreateInfoEXT
  bool negativeOneToOne;     // VkPipelineViewportDepthClipControlCreateInfoEXT
  bool unrestricted;         // VK_EXT_depth_range_unrestricted enabled, viewport/clear outside [0, 1]
  float minDepth, maxDepth;  // the viewport's depth range
  float clearDepth;
};

struct Vertex {
  float pos[3];
  float color[4];
};

struct Images {
  std::vector<uint8_t> color;
  std::vector<float> depth;
};

Images render(VkPhysicalDevice pd, const Case& c) {
  VkPhysicalDeviceDepthClipControlFeaturesEXT control{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_CONTROL_FEATURES_EXT};
  VkPhysicalDeviceDepthClipEnableFeaturesEXT clipEnable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_CLIP_ENABLE_FEATURES_EXT,
                                                        &control};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &clipEnable};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(clipEnable.depthClipEnable);
  EXPECT_TRUE(control.depthClipControl);
  EXPECT_TRUE(supported.features.depthClamp);
  if (!clipEnable.depthClipEnable || !control.depthClipControl) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &clipEnable};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.depthClamp = VK_TRUE;
  std::vector<const char*> extensions = {VK_EXT_DEPTH_CLIP_ENABLE_EXTENSION_NAME, VK_EXT_DEPTH_CLIP_CONTROL_EXTENSION_NAME};
  if (c.unrestricted) extensions.push_back(VK_EXT_DEPTH_RANGE_UNRESTRICTED_EXTENSION_NAME);
  TestDevice device(pd, &features, &v13, extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM, depthFormat = VK_FORMAT_D32_SFLOAT;
  const TestDevice::Attachment color = device.createAttachment(
      colorFormat, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment depth = device.createAttachment(
      depthFormat, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
  const VkImage images[2] = {color.image, depth.image};
  const VkImageView views[2] = {color.view, depth.view};
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(2 * kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  // B: two triangles over the whole viewport at z_d = 0.6, blue. A: two triangles, z_d = 0.5 + x_d.
  const Vertex quads[12] = {
      {{-1, -1, kBackgroundZ}, {0, 0, 1, 1}},  {{1, -1, kBackgroundZ}, {0, 0, 1, 1}},  {{-1, 1, kBackgroundZ}, {0, 0, 1, 1}},
      {{1, -1, kBackgroundZ}, {0, 0, 1, 1}},   {{1, 1, kBackgroundZ}, {0, 0, 1, 1}},   {{-1, 1, kBackgroundZ}, {0, 0, 1, 1}},
      {{-1, -0.8f, -0.5f}, {1, 0, 0, 1}},      {{1, -0.8f, 1.5f}, {0, 1, 0, 1}},       {{-1, 0.8f, -0.5f}, {1, 0, 0, 1}},
      {{1, -0.8f, 1.5f}, {0, 1, 0, 1}},        {{1, 0.8f, 1.5f}, {0, 1, 0, 1}},        {{-1, 0.8f, -0.5f}, {1, 0, 0, 1}}};
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(quads), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, quads, sizeof(quads));

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  const VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                           {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Vertex, color)}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &binding;
  vi.vertexAttributeDescriptionCount = 2;
  vi.pVertexAttributeDescriptions = attributes;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), c.minDepth, c.maxDepth};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportDepthClipControlCreateInfoEXT clipControl{
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT, nullptr, VK_TRUE};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                       c.negativeOneToOne ? &clipControl : nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationDepthClipStateCreateInfoEXT clipState{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT, nullptr, 0,
      c.clip == ClipStruct::Enabled ? VK_TRUE : VK_FALSE};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                            c.clip == ClipStruct::None ? nullptr : &clipState};
  rs.depthClampEnable = c.clamp;
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = VK_TRUE;
  ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat,
                                          depthFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pDepthStencilState = &ds;
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
  VkImageMemoryBarrier b[2] = {{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}, {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER}};
  for (int i = 0; i < 2; ++i) {
    b[i].srcQueueFamilyIndex = b[i].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b[i].image = images[i];
    b[i].subresourceRange = {VkImageAspectFlags(i == 0 ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_DEPTH_BIT), 0, 1, 0, 1};
    b[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b[i].newLayout = i == 0 ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    b[i].dstAccessMask = i == 0 ? VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT
                                : VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, 0, 0,
                       nullptr, 0, nullptr, 2, b);
  VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAttachment.imageView = views[0];
  colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colorAttachment.clearValue.color = {{0, 0, 0, 1}};
  VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depthAttachment.imageView = views[1];
  depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depthAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depthAttachment.clearValue.depthStencil = {c.clearDepth, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  ri.pDepthAttachment = &depthAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  vkCmdDraw(cmd, 12, 1, 0, 0);
  vkCmdEndRendering(cmd);
  b[0].oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b[1].oldLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  b[1].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  for (int i = 0; i < 2; ++i) {
    b[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b[i].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  }
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 2, b);
  for (int i = 0; i < 2; ++i) {
    VkBufferImageCopy region{};
    region.bufferOffset = VkDeviceSize(i) * kSize * kSize * 4;
    region.imageSubresource = {VkImageAspectFlags(i == 0 ? VK_IMAGE_ASPECT_COLOR_BIT : VK_IMAGE_ASPECT_DEPTH_BIT), 0, 0, 1};
    region.imageExtent = {kSize, kSize, 1};
    vkCmdCopyImageToBuffer(cmd, images[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  }
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  Images out;
  out.color.resize(kSize * kSize * 4);
  out.depth.resize(kSize * kSize);
  std::memcpy(out.color.data(), readMap, out.color.size());
  std::memcpy(out.depth.data(), static_cast<uint8_t*>(readMap) + kSize * kSize * 4, out.depth.size() * 4);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return out;
}

uint8_t unorm8(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

// The spec's z_f for z_d ("Controlling the Viewport", "Depth Clamping and Range Adjustment");
// *defined is false where the spec leaves it undefined.
double fragmentDepth(const Case& c, double zd, bool* defined) {
  const double n = c.minDepth, f = c.maxDepth;
  double z = c.negativeOneToOne ? (f - n) / 2 * zd + (f + n) / 2 : (f - n) * zd + n;
  if (c.clamp) z = std::clamp(z, std::min(n, f), std::max(n, f));
  *defined = c.unrestricted || (z >= 0 && z <= 1);
  return z;
}

struct Expected {
  uint8_t color[4];
  bool depthDefined;
  double depth;
};

// Pixel (x, y) of the scene in the header comment, by the spec.
Expected expectedPixel(const Case& c, uint32_t x, uint32_t y) {
  const double xd = (x + 0.5) / (kSize / 2.0) - 1, yd = (y + 0.5) / (kSize / 2.0) - 1;
  bool backgroundDefined;
  const double background = fragmentDepth(c, kBackgroundZ, &backgroundDefined);
  Expected e{{0, 0, 255, 255}, backgroundDefined, background};
  const double zd = 0.5 + xd;
  const bool clips = c.clip == ClipStruct::None ? !c.clamp : c.clip == ClipStruct::Enabled;
  const double zm = c.negativeOneToOne ? -1 : 0;  // z_m / w_c
  if (std::fabs(yd) > 0.8) return e;
  if (clips && (zd < zm || zd > 1)) return e;  // "Primitive Clipping"
  bool defined;
  const double z = fragmentDepth(c, zd, &defined);
  // Where z is undefined it lies beyond [0, 1] on the same side of the background's depth as
  // the defined value would: the test's outcome does not depend on it.
  if (!(z < background)) return e;  // depth test LESS
  const double t = (xd + 1) / 2;    // red at x_d = -1, green at x_d = 1 (w = 1: linear)
  return {{unorm8(1 - t), unorm8(t), 0, 255}, defined, z};
}

TEST(DrawDepthClip, ClipClampAndClipControlMatchTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  const Case cases[] = {
      {"no clip state, no clamp: clipped", false, ClipStruct::None, false, false, 0, 1, 1},
      {"no clip state, clamp: not clipped", true, ClipStruct::None, false, false, 0.25f, 0.75f, 1},
      {"clip enabled, clamp", true, ClipStruct::Enabled, false, false, 0.25f, 0.75f, 1},
      {"clip disabled, no clamp", false, ClipStruct::Disabled, false, false, 0, 1, 1},
      {"clip enabled, no clamp, reversed range", false, ClipStruct::Enabled, false, false, 1, 0, 1},
      {"negativeOneToOne, clipped", false, ClipStruct::None, true, false, 0, 1, 1},
      {"negativeOneToOne, clamp", true, ClipStruct::None, true, false, 0.1f, 0.9f, 1},
      {"negativeOneToOne, clip disabled", false, ClipStruct::Disabled, true, false, 0.2f, 0.8f, 1},
      {"unrestricted range, clipped", false, ClipStruct::None, false, true, -1, 2, 1.5f},
      {"unrestricted range, clip disabled", false, ClipStruct::Disabled, false, true, -1, 2, 3},
      {"unrestricted range, clamp", true, ClipStruct::None, true, true, -2, 2.5f, 2.5f}};
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Images ours = render(drivers.tessera, c);
    ASSERT_EQ(ours.color.size(), size_t(kSize * kSize * 4));
    Images reference;
    if (drivers.lavapipe) {
      reference = render(drivers.lavapipe, c);
      ASSERT_EQ(reference.color.size(), ours.color.size());
    }
    int failures = 0, quadPixels = 0;
    for (uint32_t y = 0; y < kSize && failures < 5; ++y)
      for (uint32_t x = 0; x < kSize && failures < 5; ++x) {
        const Expected want = expectedPixel(c, x, y);
        quadPixels += want.color[2] == 0;
        const size_t at = (y * kSize + x) * 4;
        for (int k = 0; k < 4; ++k) {
          if (std::abs(int(ours.color[at + k]) - int(want.color[k])) > 1) {
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << k << ": Tessera " << int(ours.color[at + k])
                          << ", the spec " << int(want.color[k]);
            ++failures;
          }
          if (!reference.color.empty() && std::abs(int(ours.color[at + k]) - int(reference.color[at + k])) > 1) {
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << k << ": Tessera " << int(ours.color[at + k])
                          << ", lavapipe " << int(reference.color[at + k]);
            ++failures;
          }
        }
        if (!want.depthDefined) continue;
        const float depth = ours.depth[y * kSize + x];
        if (std::fabs(depth - want.depth) > 1e-5) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") depth: Tessera " << depth << ", the spec " << want.depth;
          ++failures;
        }
        if (!reference.depth.empty() && std::fabs(depth - reference.depth[y * kSize + x]) > 1e-5) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") depth: Tessera " << depth << ", lavapipe "
                        << reference.depth[y * kSize + x];
          ++failures;
        }
      }
    EXPECT_GT(quadPixels, 50) << "the scene must show part of quad A";
  }
}

}  // namespace
}  // namespace tessera_test
