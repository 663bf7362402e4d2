// VK_EXT_extended_dynamic_state2's two optional states through the loader with validation, on
// Tessera and on lavapipe in the same test (tests/api/draw_state_test.cpp covers the three that
// became core in 1.3).
//
// extendedDynamicState2LogicOp: with VK_DYNAMIC_STATE_LOGIC_OP_EXT the pipeline's logicOp is
// ignored and each draw takes vkCmdSetLogicOpEXT's ("Logical Operations"); a pipeline without
// the state keeps its own. Column i of a 17x2 R8G8B8A8_UNORM target cleared to bytes
// (51, 102, 153, 204) is drawn with solid red (255, 0, 0, 255) under VkLogicOp i, set
// dynamically over a pipeline whose static logicOp is COPY, one draw after another in one
// render pass instance (in a shuffled order, COPY's neighbours unlike it); column 16 with a
// second pipeline whose static XOR must win over the last dynamic value. Expected bytes from
// the spec's table.
//
// extendedDynamicState2PatchControlPoints: with VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT each
// draw cuts its vertices into patches of vkCmdSetPatchControlPointsEXT's size ("Patch Lists":
// floor(vertexCount / m) patches of consecutive vertices), and the control stage's
// PatchVertices is that size. eds2_patch.tesc records, per patch, its size, PrimitiveId and the
// sum of its control points' VertexIndex values; eds2_patch.tese draws patch k over cell k of a
// row of four; the expected record of every cell follows from the equation.
//
// api_tests.reference_raster repeats these on the reference draw path.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

// Everything a one-pass scene needs: a device with the extension, a target, a command buffer
// inside dynamic rendering, and the readback after it.
class Eds2Run {
 public:
  Eds2Run(VkPhysicalDevice pd, VkFormat format, uint32_t width, uint32_t height, bool tessellation)
      : format_(format), width_(width), height_(height), device_(pd, features(tessellation), chain(pd, tessellation), {"VK_EXT_extended_dynamic_state2"}) {}

  bool supported() const { return supported_ && device_.dev != VK_NULL_HANDLE; }
  VkDevice dev() const { return device_.dev; }

  // A pipeline of `stages` (corpus names, in stage order) with dynamic viewport and scissor plus
  // `dynamic`; topology, logic op and patch control points as given.
  VkPipeline pipeline(const std::vector<std::pair<VkShaderStageFlagBits, const char*>>& stageNames, VkPrimitiveTopology topology,
                      const std::vector<VkDynamicState>& dynamic, const VkLogicOp* logicOp, uint32_t patchControlPoints) {
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    for (const auto& [stage, name] : stageNames) {
      modules_.push_back(device_.createShaderModule(loadCorpusShader(name)));
      stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules_.back(), "main", nullptr});
    }
    if (!layout_) {
      VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      vkCreatePipelineLayout(dev(), &plci, nullptr, &layout_);
    }
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = topology;
    VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0,
                                             patchControlPoints};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, nullptr, 1, nullptr};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.logicOpEnable = logicOp != nullptr;
    cb.logicOp = logicOp ? *logicOp : VK_LOGIC_OP_COPY;
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    std::vector<VkDynamicState> states = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    states.insert(states.end(), dynamic.begin(), dynamic.end());
    VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, uint32_t(states.size()),
                                         states.data()};
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format_};
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = uint32_t(stages.size());
    gpci.pStages = stages.data();
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pTessellationState = patchControlPoints ? &ts : nullptr;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.pDynamicState = &dyn;
    gpci.layout = layout_;
    VkPipeline p = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev(), VK_NULL_HANDLE, 1, &gpci, nullptr, &p), VK_SUCCESS);
    pipelines_.push_back(p);
    return p;
  }

  // Begins the command buffer and rendering into the target cleared to `clear`, with the
  // viewport over the whole target.
  VkCommandBuffer begin(const VkClearColorValue& clear) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format_;
    ici.extent = {width_, height_, 1};
    ici.mipLevels = ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    vkCreateImage(dev(), &ici, nullptr, &image_);
    device_.bindMemory(image_);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image_;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format_;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCreateImageView(dev(), &vci, nullptr, &view_);
    readback_ = device_.createMappedBuffer(VkDeviceSize(width_) * height_ * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap_);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    vkCreateCommandPool(dev(), &cpci, nullptr, &pool_);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    vkAllocateCommandBuffers(dev(), &cbai, &cmd_);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd_, &bi);
    barrier_ = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier_.srcQueueFamilyIndex = barrier_.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier_.image = image_;
    barrier_.subresourceRange = vci.subresourceRange;
    barrier_.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier_.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier_.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier_);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view_;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = clear;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, {width_, height_}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &color;
    vkCmdBeginRendering(cmd_, &ri);
    const VkViewport viewport{0, 0, float(width_), float(height_), 0, 1};
    vkCmdSetViewport(cmd_, 0, 1, &viewport);
    return cmd_;
  }

  // Ends rendering, submits, and returns the target's bytes.
  std::vector<uint8_t> finish(uint32_t texelBytes) {
    vkCmdEndRendering(cmd_);
    barrier_.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    barrier_.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    barrier_.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    barrier_.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &barrier_);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width_, height_, 1};
    vkCmdCopyImageToBuffer(cmd_, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_, 1, &region);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
    vkEndCommandBuffer(cmd_);
    device_.submitAndWait(cmd_);
    std::vector<uint8_t> bytes(size_t(width_) * height_ * texelBytes);
    std::memcpy(bytes.data(), readMap_, bytes.size());
    return bytes;
  }

  ~Eds2Run() {
    if (!dev()) return;
    if (pool_) vkDestroyCommandPool(dev(), pool_, nullptr);
    for (VkPipeline p : pipelines_) vkDestroyPipeline(dev(), p, nullptr);
    if (layout_) vkDestroyPipelineLayout(dev(), layout_, nullptr);
    for (VkShaderModule m : modules_) vkDestroyShaderModule(dev(), m, nullptr);
    if (readback_) vkDestroyBuffer(dev(), readback_, nullptr);
    if (view_) vkDestroyImageView(dev(), view_, nullptr);
    if (image_) vkDestroyImage(dev(), image_, nullptr);
  }

 private:
  const VkPhysicalDeviceFeatures* features(bool tessellation) {
    features_.logicOp = !tessellation;
    features_.tessellationShader = tessellation;
    return &features_;
  }
  // Queries the optional features and asks for the ones the scene needs.
  const void* chain(VkPhysicalDevice pd, bool tessellation) {
    VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &eds2_};
    vkGetPhysicalDeviceFeatures2(pd, &query);
    supported_ = eds2_.extendedDynamicState2 &&
                 (tessellation ? eds2_.extendedDynamicState2PatchControlPoints : eds2_.extendedDynamicState2LogicOp);
    EXPECT_TRUE(supported_) << (tessellation ? "extendedDynamicState2PatchControlPoints" : "extendedDynamicState2LogicOp");
    eds2_.extendedDynamicState2LogicOp = !tessellation && supported_;
    eds2_.extendedDynamicState2PatchControlPoints = tessellation && supported_;
    eds2_.pNext = nullptr;
    v13_.pNext = &eds2_;
    v13_.dynamicRendering = VK_TRUE;
    return &v13_;
  }

  VkFormat format_;
  uint32_t width_, height_;
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features v13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  bool supported_ = false;
  TestDevice device_;
  std::vector<VkShaderModule> modules_;
  std::vector<VkPipeline> pipelines_;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkBuffer readback_ = VK_NULL_HANDLE;
  void* readMap_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkImageMemoryBarrier barrier_{};
};

constexpr std::array<uint8_t, 4> kClearBytes = {51, 102, 153, 204};
constexpr std::array<uint8_t, 4> kRedBytes = {255, 0, 0, 255};
constexpr uint32_t kColumns = 17;  // VkLogicOp 0..15, then the static XOR pipeline

// "Logical Operations", the spec's table for one byte.
uint8_t specOp(VkLogicOp op, uint8_t s, uint8_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return s & ~d;
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return ~s & d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return ~(s | d);
    case VK_LOGIC_OP_EQUIVALENT: return ~(s ^ d);
    case VK_LOGIC_OP_INVERT: return ~d;
    case VK_LOGIC_OP_OR_REVERSE: return s | ~d;
    case VK_LOGIC_OP_COPY_INVERTED: return ~s;
    case VK_LOGIC_OP_OR_INVERTED: return ~s | d;
    case VK_LOGIC_OP_NAND: return ~(s & d);
    default: return 0xFF;  // SET
  }
}

// Column x < 16 drawn with VkLogicOp x when `ops` holds it (else left as cleared), one draw per
// op in that order, then column 16 with the static XOR pipeline.
std::vector<uint8_t> drawLogicOps(VkPhysicalDevice pd, const std::vector<uint32_t>& ops) {
  Eds2Run run(pd, VK_FORMAT_R8G8B8A8_UNORM, kColumns, 2, false);
  if (!run.supported()) return {};
  const std::vector<std::pair<VkShaderStageFlagBits, const char*>> stages = {{VK_SHADER_STAGE_VERTEX_BIT, "fullscreen_vert"},
                                                                             {VK_SHADER_STAGE_FRAGMENT_BIT, "solid_red_frag"}};
  const VkLogicOp copy = VK_LOGIC_OP_COPY, xorOp = VK_LOGIC_OP_XOR;
  const VkPipeline dynamicOp = run.pipeline(stages, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {VK_DYNAMIC_STATE_LOGIC_OP_EXT}, &copy, 0);
  const VkPipeline staticXor = run.pipeline(stages, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, {}, &xorOp, 0);
  auto setLogicOp = reinterpret_cast<PFN_vkCmdSetLogicOpEXT>(vkGetDeviceProcAddr(run.dev(), "vkCmdSetLogicOpEXT"));
  EXPECT_NE(setLogicOp, nullptr);
  if (!setLogicOp || !dynamicOp || !staticXor) return {};
  const VkCommandBuffer cmd =
      run.begin({{kClearBytes[0] / 255.0f, kClearBytes[1] / 255.0f, kClearBytes[2] / 255.0f, kClearBytes[3] / 255.0f}});
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, dynamicOp);
  for (uint32_t op : ops) {
    const VkRect2D column{{int32_t(op), 0}, {1, 2}};
    vkCmdSetScissor(cmd, 0, 1, &column);
    setLogicOp(cmd, VkLogicOp(op));
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, staticXor);
  const VkRect2D last{{16, 0}, {1, 2}};
  vkCmdSetScissor(cmd, 0, 1, &last);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  return run.finish(4);
}

TEST(ExtendedDynamicState2, LogicOpIsTakenPerDrawFromTheCommandBuffer) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* driver = pd == drivers.tessera ? "Tessera" : "lavapipe";
    // lavapipe 22.3 deviates: after the first vkCmdSetLogicOpEXT, later ones in the same
    // render pass instance with the same pipeline bound do not change what it draws (all 16
    // in one command buffer give CLEAR's zeros in every column; seen side by side). So on
    // lavapipe each operation is drawn in a command buffer of its own; Tessera draws all 16
    // in one, with the spec's result in every column.
    std::vector<std::vector<uint32_t>> runs;
    if (pd == drivers.tessera) runs.push_back({15, 3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});
    else
      for (uint32_t op = 0; op < 16; ++op) runs.push_back({op});
    for (const std::vector<uint32_t>& ops : runs) {
      const std::vector<uint8_t> bytes = drawLogicOps(pd, ops);
      ASSERT_EQ(bytes.size(), size_t(kColumns) * 2 * 4) << driver;
      for (uint32_t x = 0; x < kColumns; ++x) {
        const bool drawn = x == 16 || std::find(ops.begin(), ops.end(), x) != ops.end();
        const VkLogicOp op = x < 16 ? VkLogicOp(x) : VK_LOGIC_OP_XOR;
        for (uint32_t y = 0; y < 2; ++y)
          for (uint32_t c = 0; c < 4; ++c)
            EXPECT_EQ(bytes[(y * kColumns + x) * 4 + c], drawn ? specOp(op, kRedBytes[c], kClearBytes[c]) : kClearBytes[c])
                << driver << ": column " << x << " (VkLogicOp " << op << "), row " << y << ", component " << c;
      }
    }
  }
}

// ---- Patch control points ----

constexpr uint32_t kPatchWidth = 32, kPatchHeight = 8, kPatchVertices = 12;

// The record of each of the four cells (eds2_patch.*): patch k of m control points is vertices
// m k .. m k + m - 1 ("Patch Lists"); cells past the last complete patch keep the clear (0).
std::array<std::array<uint32_t, 4>, 4> expectedCells(uint32_t m) {
  std::array<std::array<uint32_t, 4>, 4> cells{};
  for (uint32_t k = 0; k < 4 && (k + 1) * m <= kPatchVertices; ++k) {
    uint32_t sum = 0;
    for (uint32_t j = 0; j < m; ++j) sum += m * k + j;
    cells[k] = {m, k, sum, 1};
  }
  return cells;
}

// Draws 12 vertices as patches: with the dynamic state set to `dynamicValue` (after an earlier
// different value), or, when `dynamicValue` is 0, with a pipeline whose static value is
// `staticValue` bound after the command buffer set another value.
std::array<std::array<uint32_t, 4>, 4> drawPatches(VkPhysicalDevice pd, uint32_t dynamicValue, uint32_t staticValue) {
  Eds2Run run(pd, VK_FORMAT_R32G32B32A32_UINT, kPatchWidth, kPatchHeight, true);
  if (!run.supported()) return {};
  const std::vector<std::pair<VkShaderStageFlagBits, const char*>> stages = {
      {VK_SHADER_STAGE_VERTEX_BIT, "eds2_patch_vert"},
      {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "eds2_patch_tesc"},
      {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "eds2_patch_tese"},
      {VK_SHADER_STAGE_FRAGMENT_BIT, "gs_words_frag"}};
  const bool dynamic = dynamicValue != 0;
  // The dynamic pipeline's static value (5) must be ignored.
  const VkPipeline pipeline =
      run.pipeline(stages, VK_PRIMITIVE_TOPOLOGY_PATCH_LIST,
                   dynamic ? std::vector<VkDynamicState>{VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT} : std::vector<VkDynamicState>{},
                   nullptr, dynamic ? 5 : staticValue);
  auto setPatchControlPoints =
      reinterpret_cast<PFN_vkCmdSetPatchControlPointsEXT>(vkGetDeviceProcAddr(run.dev(), "vkCmdSetPatchControlPointsEXT"));
  EXPECT_NE(setPatchControlPoints, nullptr);
  if (!setPatchControlPoints || !pipeline) return {};
  const VkCommandBuffer cmd = run.begin({});
  const VkRect2D all{{0, 0}, {kPatchWidth, kPatchHeight}};
  vkCmdSetScissor(cmd, 0, 1, &all);
  setPatchControlPoints(cmd, dynamic ? 2 : 3);  // replaced below, or not the bound pipeline's state
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (dynamic) setPatchControlPoints(cmd, dynamicValue);
  vkCmdDraw(cmd, kPatchVertices, 1, 0, 0);
  const std::vector<uint8_t> bytes = run.finish(16);
  std::array<std::array<uint32_t, 4>, 4> cells{};
  for (uint32_t k = 0; k < 4; ++k)  // the centre pixel of cell k (eds2_patch.tese's triangle covers it)
    std::memcpy(cells[k].data(), &bytes[(size_t(kPatchHeight / 2) * kPatchWidth + 8 * k + 4) * 16], 16);
  return cells;
}

TEST(ExtendedDynamicState2, PatchControlPointsAreTakenPerDrawFromTheCommandBuffer) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* driver = pd == drivers.tessera ? "Tessera" : "lavapipe";
    for (uint32_t m : {3u, 4u, 6u}) {
      const auto got = drawPatches(pd, m, 0);
      const auto want = expectedCells(m);
      for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(got[k], want[k]) << driver << ": dynamic " << m << " control points, cell " << k;
    }
    // A pipeline without the dynamic state keeps its static value (4), whatever was set before.
    const auto got = drawPatches(pd, 0, 4);
    const auto want = expectedCells(4);
    for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(got[k], want[k]) << driver << ": static 4 control points, cell " << k;
  }
}

}  // namespace
}  // namespace tessera_test
