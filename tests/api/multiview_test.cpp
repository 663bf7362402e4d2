// Multiview ("Multiview" in the Render Pass chapter) through the loader with validation, on
// Tessera and on lavapipe in one instance (dual_driver.h). A render pass instance with a view
// mask (VkRenderPassMultiviewCreateInfo, VkSubpassDescription2::viewMask or
// VkRenderingInfo::viewMask) into 2D array colour and depth attachments draws two instances
// of a square whose place, depth and colour depend on ViewIndex and InstanceIndex
// (tests/shaders/multiview.vert/.frag). The oracle is computed from the spec's rules: view v
// renders layer v of every attachment with ViewIndex v in both stages; load-op clears,
// vkCmdClearAttachments and resolves apply to the views' layers and leave the other layers
// alone; an occlusion query uses one query per view whose results add up to the total
// ("Queries"), and a timestamp written inside the instance one per view too. Both
// drivers must give that image layer by layer (and so agree with each other).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// Before the render pass every layer of every image holds these (vkCmdClear*Image); layers
// outside the view mask must keep them.
constexpr std::array<uint8_t, 4> kBeforeColor{10, 20, 30, 40};
constexpr float kBeforeDepth = 0.5f;
// The load-op clears and the vkCmdClearAttachments colour and rectangle.
constexpr std::array<uint8_t, 4> kLoadColor{0, 0, 0, 255};
constexpr std::array<uint8_t, 4> kClearAttachmentsColor{255, 0, 255, 255};
constexpr VkRect2D kClearRect{{24, 0}, {8, 6}};

enum class Api { RenderPass1, RenderPass2, DynamicRendering };

struct Config {
  Api api = Api::RenderPass2;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // 4: the colour is resolved per view
  uint32_t viewMask = 0b101;
  uint32_t layers = 4;                                   // of every image
  bool clearAttachments = false;                         // vkCmdClearAttachments after the draw
  bool occlusionQuery = false;                           // around the draw, then a timestamp
};

struct Result {
  std::vector<std::vector<uint8_t>> color;  // per layer, RGBA8 (the resolve image when multisampled)
  std::vector<std::vector<float>> depth;    // per layer (single-sample only)
  std::vector<uint64_t> queries;            // one per view, when a query was used
  std::vector<uint64_t> available;          // their availability words
  // A timestamp written inside the instance (with an occlusion query): one query per view.
  std::vector<uint64_t> timestamps, timestampsAvailable;
};

bool inSquare(uint32_t x, uint32_t y, uint32_t view, uint32_t instance) {
  const uint32_t x0 = 4 + 8 * instance, y0 = 4 + 4 * view;
  return x >= x0 && x < x0 + 16 && y >= y0 && y < y0 + 16;
}
float squareDepth(uint32_t view, uint32_t instance) { return (instance & 1) == (view & 1) ? 0.25f : 0.75f; }

// The spec's image: what every layer holds after the render pass instance (the multiview.vert
// squares drawn with a LESS depth test over a depth cleared to 1, instance 0 before 1).
Result expected(const Config& c) {
  Result r;
  for (uint32_t layer = 0; layer < c.layers; ++layer) {
    std::vector<uint8_t> color(kSize * kSize * 4);
    std::vector<float> depth(kSize * kSize, kBeforeDepth);
    const bool view = c.viewMask >> layer & 1;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        std::array<uint8_t, 4> texel = view ? kLoadColor : kBeforeColor;
        float& d = depth[y * kSize + x];
        if (view) {
          d = 1.0f;
          for (uint32_t instance = 0; instance < 2; ++instance) {
            if (!inSquare(x, y, layer, instance) || !(squareDepth(layer, instance) < d)) continue;
            d = squareDepth(layer, instance);
            // (n + 1) / 5 as UNORM8: 51 (n + 1) exactly.
            texel = {uint8_t(51 * (layer + 1)), uint8_t(51 * (instance + 1)), uint8_t(51 * (layer + 1)), 255};
          }
          if (c.clearAttachments && x >= uint32_t(kClearRect.offset.x) && x < kClearRect.offset.x + kClearRect.extent.width &&
              y >= uint32_t(kClearRect.offset.y) && y < kClearRect.offset.y + kClearRect.extent.height)
            texel = kClearAttachmentsColor, d = 0.0f;
        }
        std::memcpy(&color[(y * kSize + x) * 4], texel.data(), 4);
      }
    r.color.push_back(std::move(color));
    if (c.samples == VK_SAMPLE_COUNT_1_BIT) r.depth.push_back(std::move(depth));
  }
  return r;
}

// The samples that pass the depth test in one view ("Occlusion Queries"): instance 0's square
// always, instance 1's where it is nearer or does not overlap instance 0.
uint64_t expectedSamples(const Config& c) {
  uint64_t total = 0;
  for (uint32_t view = 0; view < 32; ++view) {
    if (!(c.viewMask >> view & 1)) continue;
    const uint64_t overlap = 8 * 16, square = 16 * 16;
    total += square + (squareDepth(view, 1) < squareDepth(view, 0) ? square : square - overlap);
  }
  return total * uint32_t(c.samples);
}

struct Image {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

Result render(VkPhysicalDevice pd, const Config& c) {
  Result result;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
  v11.multiview = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.occlusionQueryPrecise = VK_TRUE;
  TestDevice device(pd, &features, &v11);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with multiview";
  if (!dev) return result;
  const bool multisampled = c.samples != VK_SAMPLE_COUNT_1_BIT;
  const uint32_t views = uint32_t(std::popcount(c.viewMask));

  auto makeImage = [&](VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    Image img;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {kSize, kSize, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = c.layers;
    ici.samples = samples;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    vkCreateImage(dev, &ici, nullptr, &img.image);
    device.bindMemory(img.image);
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    vci.format = format;
    vci.subresourceRange = {aspect, 0, 1, 0, c.layers};
    vkCreateImageView(dev, &vci, nullptr, &img.view);
    return img;
  };
  const Image color = makeImage(kColorFormat, c.samples,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (multisampled ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
                                VK_IMAGE_ASPECT_COLOR_BIT);
  const Image depth = makeImage(kDepthFormat, c.samples,
                                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | (multisampled ? 0 : VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
                                VK_IMAGE_ASPECT_DEPTH_BIT);
  Image resolve;
  if (multisampled)
    resolve = makeImage(kColorFormat, VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        VK_IMAGE_ASPECT_COLOR_BIT);

  // Render pass 1 or 2 (unused with dynamic rendering): colour, depth, resolve.
  VkRenderPass renderPass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  const uint32_t attachmentCount = multisampled ? 3 : 2;
  if (c.api != Api::DynamicRendering) {
    VkAttachmentDescription2 attachments[3] = {};
    for (uint32_t a = 0; a < attachmentCount; ++a) {
      VkAttachmentDescription2& d = attachments[a];
      d.sType = VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2;
      d.format = a == 1 ? kDepthFormat : kColorFormat;
      d.samples = a == 2 ? VK_SAMPLE_COUNT_1_BIT : c.samples;
      d.loadOp = a == 2 ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
      d.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
      d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
      d.initialLayout = d.finalLayout =
          a == 1 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    VkAttachmentReference2 colorRef{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                    VK_IMAGE_ASPECT_COLOR_BIT};
    VkAttachmentReference2 depthRef{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1,
                                    VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT};
    VkAttachmentReference2 resolveRef{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 2,
                                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_COLOR_BIT};
    if (c.api == Api::RenderPass2) {
      VkSubpassDescription2 subpass{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.viewMask = c.viewMask;
      subpass.colorAttachmentCount = 1;
      subpass.pColorAttachments = &colorRef;
      subpass.pResolveAttachments = multisampled ? &resolveRef : nullptr;
      subpass.pDepthStencilAttachment = &depthRef;
      VkRenderPassCreateInfo2 rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
      rpci.attachmentCount = attachmentCount;
      rpci.pAttachments = attachments;
      rpci.subpassCount = 1;
      rpci.pSubpasses = &subpass;
      rpci.correlatedViewMaskCount = 1;  // a hint
      rpci.pCorrelatedViewMasks = &c.viewMask;
      EXPECT_EQ(vkCreateRenderPass2(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
    } else {
      VkAttachmentDescription attachments1[3] = {};
      for (uint32_t a = 0; a < attachmentCount; ++a) {
        const VkAttachmentDescription2& d = attachments[a];
        attachments1[a] = {0, d.format, d.samples, d.loadOp, d.storeOp, d.stencilLoadOp, d.stencilStoreOp, d.initialLayout,
                           d.finalLayout};
      }
      VkAttachmentReference colorRef1{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkAttachmentReference depthRef1{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
      VkAttachmentReference resolveRef1{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
      VkSubpassDescription subpass{};
      subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
      subpass.colorAttachmentCount = 1;
      subpass.pColorAttachments = &colorRef1;
      subpass.pResolveAttachments = multisampled ? &resolveRef1 : nullptr;
      subpass.pDepthStencilAttachment = &depthRef1;
      VkRenderPassMultiviewCreateInfo multiview{VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO};
      multiview.subpassCount = 1;
      multiview.pViewMasks = &c.viewMask;
      multiview.correlationMaskCount = 1;
      multiview.pCorrelationMasks = &c.viewMask;
      VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, &multiview};
      rpci.attachmentCount = attachmentCount;
      rpci.pAttachments = attachments1;
      rpci.subpassCount = 1;
      rpci.pSubpasses = &subpass;
      EXPECT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
    }
    const VkImageView fbViews[3] = {color.view, depth.view, resolve.view};
    VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = renderPass;
    fci.attachmentCount = attachmentCount;
    fci.pAttachments = fbViews;
    fci.width = fci.height = kSize;
    fci.layers = 1;  // multiview: the views name the layers
    vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);
  }

  auto module = [&](const char* name) {
    std::vector<uint32_t> code = loadCorpusShader(name);
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, code.size() * 4, code.data()};
    VkShaderModule m = VK_NULL_HANDLE;
    vkCreateShaderModule(dev, &smci, nullptr, &m);
    return m;
  };
  const VkShaderModule vs = module("multiview_vert"), fs = module("multiview_frag");
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
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = c.samples;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, c.viewMask, 1, &kColorFormat,
                                          kDepthFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  if (c.api == Api::DynamicRendering) gpci.pNext = &rendering;
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
  gpci.renderPass = renderPass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkQueryPool queryPool = VK_NULL_HANDLE;
  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
  qpci.queryCount = views + 1;  // the query uses one per view, from query 1
  VkQueryPool timestampPool = VK_NULL_HANDLE;
  if (c.occlusionQuery) {
    vkCreateQueryPool(dev, &qpci, nullptr, &queryPool);
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    vkCreateQueryPool(dev, &qpci, nullptr, &timestampPool);
  }

  const VkDeviceSize layerBytes = kSize * kSize * 4;
  uint8_t* mapped = nullptr;
  const VkBuffer readback = device.createMappedBuffer(2 * layerBytes * c.layers, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                      reinterpret_cast<void**>(&mapped));

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  if (queryPool) vkCmdResetQueryPool(cmd, queryPool, 0, qpci.queryCount);
  if (timestampPool) vkCmdResetQueryPool(cmd, timestampPool, 0, qpci.queryCount);

  // Every layer of every image gets the "before" values, then the attachment layouts.
  auto barrier = [&](VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                     VkAccessFlags dst) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = src;
    b.dstAccessMask = dst;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, 1, 0, c.layers};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1,
                         &b);
  };
  const VkImageSubresourceRange colorRange{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, c.layers};
  const VkImageSubresourceRange depthRange{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, c.layers};
  VkClearColorValue before{};
  for (int i = 0; i < 4; ++i) before.float32[i] = kBeforeColor[i] / 255.0f;
  const VkClearDepthStencilValue beforeDepth{kBeforeDepth, 0};
  for (VkImage img : {color.image, resolve.image}) {
    if (!img) continue;
    barrier(img, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
            VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdClearColorImage(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &before, 1, &colorRange);
    barrier(img, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT);
  }
  barrier(depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
          VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdClearDepthStencilImage(cmd, depth.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &beforeDepth, 1, &depthRange);
  barrier(depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
          VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT);

  VkClearValue clears[3] = {};
  for (int i = 0; i < 4; ++i) clears[0].color.float32[i] = kLoadColor[i] / 255.0f;
  clears[1].depthStencil = {1.0f, 0};
  if (c.api == Api::DynamicRendering) {
    VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    colorAtt.imageView = color.view;
    colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    colorAtt.clearValue = clears[0];
    if (multisampled) {
      colorAtt.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      colorAtt.resolveImageView = resolve.view;
      colorAtt.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    VkRenderingAttachmentInfo depthAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depthAtt.imageView = depth.view;
    depthAtt.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depthAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depthAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depthAtt.clearValue = clears[1];
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, {kSize, kSize}};
    ri.layerCount = 1;  // ignored with a view mask
    ri.viewMask = c.viewMask;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &colorAtt;
    ri.pDepthAttachment = &depthAtt;
    vkCmdBeginRendering(cmd, &ri);
  } else {
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}},
                               attachmentCount, clears};
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (queryPool) vkCmdBeginQuery(cmd, queryPool, 1, VK_QUERY_CONTROL_PRECISE_BIT);
  vkCmdDraw(cmd, 6, 2, 0, 0);
  if (queryPool) vkCmdEndQuery(cmd, queryPool, 1);
  if (timestampPool) vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestampPool, 1);
  if (c.clearAttachments) {
    // In a multiview subpass the rectangle must be layer 0 of 1 and is cleared in every view.
    VkClearAttachment attachments[2] = {{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}}, {VK_IMAGE_ASPECT_DEPTH_BIT, 0, {}}};
    for (int i = 0; i < 4; ++i) attachments[0].clearValue.color.float32[i] = kClearAttachmentsColor[i] / 255.0f;
    attachments[1].clearValue.depthStencil = {0.0f, 0};
    const VkClearRect rect{kClearRect, 0, 1};
    vkCmdClearAttachments(cmd, 2, attachments, 1, &rect);
  }
  if (c.api == Api::DynamicRendering) vkCmdEndRendering(cmd);
  else vkCmdEndRenderPass(cmd);

  // Read back every layer: the colour (or its resolve) and, single-sampled, the depth.
  const VkImage colorOut = multisampled ? resolve.image : color.image;
  barrier(colorOut, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, c.layers};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, colorOut, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  if (!multisampled) {
    barrier(depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    copy.bufferOffset = layerBytes * c.layers;
    vkCmdCopyImageToBuffer(cmd, depth.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  }
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  for (uint32_t layer = 0; layer < c.layers; ++layer) {
    const uint8_t* at = mapped + layer * layerBytes;
    result.color.emplace_back(at, at + layerBytes);
    if (multisampled) continue;
    std::vector<float> d(kSize * kSize);
    std::memcpy(d.data(), mapped + (c.layers + layer) * layerBytes, layerBytes);
    result.depth.push_back(std::move(d));
  }
  if (queryPool) {
    // The N queries from query 1 hold the per-view split the implementation chose (the queue
    // is idle: every query that will become available is).
    std::vector<uint64_t> words(2 * views);
    vkGetQueryPoolResults(dev, queryPool, 1, views, words.size() * 8, words.data(), 16,
                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    for (uint32_t v = 0; v < views; ++v) result.queries.push_back(words[2 * v]), result.available.push_back(words[2 * v + 1]);
    vkGetQueryPoolResults(dev, timestampPool, 1, views, words.size() * 8, words.data(), 16,
                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
    for (uint32_t v = 0; v < views; ++v)
      result.timestamps.push_back(words[2 * v]), result.timestampsAvailable.push_back(words[2 * v + 1]);
    vkDestroyQueryPool(dev, timestampPool, nullptr);
    vkDestroyQueryPool(dev, queryPool, nullptr);
  }

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  if (framebuffer) vkDestroyFramebuffer(dev, framebuffer, nullptr);
  if (renderPass) vkDestroyRenderPass(dev, renderPass, nullptr);
  for (const Image& img : {color, depth, resolve}) {
    if (img.view) vkDestroyImageView(dev, img.view, nullptr);
    if (img.image) vkDestroyImage(dev, img.image, nullptr);
  }
  vkDestroyBuffer(dev, readback, nullptr);
  return result;
}

// Fails with the first differing texels of each layer of `got` against `want`.
void expectSameLayers(const char* what, const Result& got, const Result& want) {
  ASSERT_EQ(got.color.size(), want.color.size()) << what;
  ASSERT_EQ(got.depth.size(), want.depth.size()) << what;
  for (size_t layer = 0; layer < want.color.size(); ++layer) {
    uint32_t different = 0;
    for (uint32_t p = 0; p < kSize * kSize; ++p) {
      const uint8_t* a = &got.color[layer][p * 4];
      const uint8_t* b = &want.color[layer][p * 4];
      const bool depthDiffers = layer < want.depth.size() && got.depth[layer][p] != want.depth[layer][p];
      if (std::memcmp(a, b, 4) == 0 && !depthDiffers) continue;
      if (++different <= 4)
        ADD_FAILURE() << what << ": layer " << layer << " pixel (" << p % kSize << ", " << p / kSize << ") is " << int(a[0]) << ","
                      << int(a[1]) << "," << int(a[2]) << "," << int(a[3])
                      << (layer < want.depth.size() ? " depth " + std::to_string(got.depth[layer][p]) : std::string())
                      << ", expected " << int(b[0]) << "," << int(b[1]) << "," << int(b[2]) << "," << int(b[3])
                      << (layer < want.depth.size() ? " depth " + std::to_string(want.depth[layer][p]) : std::string());
    }
    EXPECT_EQ(different, 0u) << what << ": pixels of layer " << layer << " that differ";
  }
}

// "Queries": inside a multiview render pass instance a query uses N consecutive queries, one
// per view, all of which become available, and their results add up to the total. lavapipe
// 22.3.6 makes only the first available (it fails dEQP-VK.multiview.queries.* likewise), so
// for it only the available ones are added up.
void checkQueries(const char* what, const Config& c, const Result& r, bool requireAllAvailable) {
  if (!c.occlusionQuery) return;
  uint64_t sum = 0;
  for (size_t v = 0; v < r.queries.size(); ++v) {
    if (requireAllAvailable) {
      EXPECT_NE(r.available[v], 0u) << what << ": the query of view " << v << " is available";
    }
    if (r.available[v]) sum += r.queries[v];
  }
  EXPECT_EQ(sum, expectedSamples(c)) << what << ": the views' queries add up to the samples that passed";
  // "Timestamp Queries": N queries as well; either the first is the timestamp and the others
  // are zero, or all are timestamps. Either way the first is one.
  ASSERT_FALSE(r.timestamps.empty()) << what;
  EXPECT_NE(r.timestampsAvailable[0], 0u) << what << ": the first timestamp query is available";
  EXPECT_NE(r.timestamps[0], 0u) << what << ": the first timestamp query holds a timestamp";
  for (size_t v = 1; requireAllAvailable && v < r.timestamps.size(); ++v)
    EXPECT_NE(r.timestampsAvailable[v], 0u) << what << ": the timestamp query of view " << v << " is available";
}

// Renders on Tessera and on lavapipe (when installed); both must give the spec's layers.
void checkBothDrivers(const Config& c) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  const Result want = expected(c);
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Result ours = render(drivers.tessera, c);
  expectSameLayers("Tessera against the spec", ours, want);
  checkQueries("Tessera", c, ours, true);
  if (!drivers.lavapipe) return;
  const Result theirs = render(drivers.lavapipe, c);
  expectSameLayers("lavapipe against the spec", theirs, want);
  checkQueries("lavapipe", c, theirs, false);
}

// "Multiview" with render pass 1 (VkRenderPassMultiviewCreateInfo): views 0 and 2 of four
// layers; load-op clears apply to those layers only, the draw runs once per view into the
// view's layer with ViewIndex in both stages and per-layer depth; vkCmdClearAttachments
// clears the rectangle in each view's layer; an occlusion query uses two queries whose sum is
// the samples of both views ("Queries").
TEST(Multiview, RenderPass1ViewMaskClearsQueriesAndDepthPerLayer) {
  Config c;
  c.api = Api::RenderPass1;
  c.clearAttachments = true;
  c.occlusionQuery = true;
  checkBothDrivers(c);
}

// VkSubpassDescription2::viewMask with three views (0, 1, 2) of four layers, and a query.
TEST(Multiview, RenderPass2ThreeViews) {
  Config c;
  c.viewMask = 0b0111;
  c.occlusionQuery = true;
  checkBothDrivers(c);
}

// "Multisample resolve operations" in a multiview subpass: the resolve attachment's layers of
// the views are resolved (4 samples), its other layers keep their contents.
TEST(Multiview, RenderPass2ResolvesEveryViewAt4Samples) {
  Config c;
  c.samples = VK_SAMPLE_COUNT_4_BIT;
  c.viewMask = 0b1010;
  c.clearAttachments = true;
  c.occlusionQuery = true;
  checkBothDrivers(c);
}

// Dynamic rendering: VkRenderingInfo::viewMask (layerCount ignored) with a pipeline whose
// VkPipelineRenderingCreateInfo::viewMask matches; with and without a 4-sample resolve.
TEST(Multiview, DynamicRenderingViewMask) {
  Config c;
  c.api = Api::DynamicRendering;
  c.viewMask = 0b0110;
  c.clearAttachments = true;
  c.occlusionQuery = true;
  checkBothDrivers(c);
  c.samples = VK_SAMPLE_COUNT_4_BIT;
  c.viewMask = 0b1001;
  checkBothDrivers(c);
}

// VkPhysicalDeviceMultiviewFeatures/Properties ("Limits": maxMultiviewViewCount at least 6,
// maxMultiviewInstanceIndex at least 2^27 - 1) agree with VkPhysicalDeviceVulkan11Features /
// Properties, and VK_KHR_multiview (promoted to 1.1) is listed once multiview is supported.
TEST(Multiview, FeaturesLimitsAndExtensionAgree) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's own report";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceMultiviewFeatures mvFeatures{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &mvFeatures};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(drivers.tessera, &features);
  EXPECT_TRUE(v11.multiview);
  EXPECT_TRUE(mvFeatures.multiview);
  // The geometry and tessellation stages run per view (geometry_shader_test.cpp,
  // tessellation_test.cpp).
  EXPECT_TRUE(v11.multiviewGeometryShader && mvFeatures.multiviewGeometryShader);
  EXPECT_TRUE(v11.multiviewTessellationShader && mvFeatures.multiviewTessellationShader);
  VkPhysicalDeviceMultiviewProperties mvProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES};
  VkPhysicalDeviceVulkan11Properties v11Props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &mvProps};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v11Props};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &props);
  EXPECT_GE(mvProps.maxMultiviewViewCount, 6u);
  EXPECT_GE(mvProps.maxMultiviewInstanceIndex, (1u << 27) - 1);
  EXPECT_EQ(mvProps.maxMultiviewViewCount, v11Props.maxMultiviewViewCount);
  EXPECT_EQ(mvProps.maxMultiviewInstanceIndex, v11Props.maxMultiviewInstanceIndex);
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, extensions.data());
  bool listed = false;
  for (const VkExtensionProperties& e : extensions) listed |= std::strcmp(e.extensionName, VK_KHR_MULTIVIEW_EXTENSION_NAME) == 0;
  EXPECT_TRUE(listed) << VK_KHR_MULTIVIEW_EXTENSION_NAME;
}

}  // namespace
}  // namespace tessera_test
