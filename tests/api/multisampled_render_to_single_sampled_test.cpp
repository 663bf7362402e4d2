// VK_EXT_multisampled_render_to_single_sampled (the Render Pass chapter's
// "multisampled-render-to-single-sampled"): with VkMultisampledRenderToSingleSampledInfoEXT
// enabled on a VkSubpassDescription2 or a VkRenderingInfo, single-sampled attachments are
// rendered "to an intermediate multisampled image with rasterizationSamples samples", whose
// samples a LOAD initializes "by replicating the value from the corresponding pixel in the
// attachment", and which is "implicitly resolved prior to storage in the attachment".
//
// Oracles: (1) the spec's equivalence: the same scene rendered into explicit 4-sample
// attachments (LOAD ones pre-cleared to the value the single-sampled ones hold, so replication
// gives the same samples) with resolve attachments gives the same images, bit for bit, on the
// same driver: colour averaged (UNORM and float), depth and stencil by SAMPLE_ZERO; (2) the
// spec's values where it fixes them: pixels inside a triangle hold its colour, pixels its edge
// crosses hold averages (neither colour), pixels outside the render area keep their contents,
// and a subpass input of a multisampled-render-to-single-sampled subpass is multisampled (its
// samples' mean is the resolved value); (3) lavapipe renders the same, within rounding.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "single_image_set.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkRect2D kArea{{2, 3}, {27, 26}};  // a render area smaller than the images
constexpr VkFormat kUnorm = VK_FORMAT_R8G8B8A8_UNORM, kFloat = VK_FORMAT_R32G32B32A32_SFLOAT,
                   kDepthStencil = VK_FORMAT_D32_SFLOAT_S8_UINT;
// What the images hold before rendering (outside the render area, after too), and the clears.
constexpr VkClearColorValue kUnormBefore{{0.6f, 0.6f, 0.6f, 1.0f}}, kUnormClear{{0.1f, 0.2f, 0.3f, 1.0f}};
constexpr VkClearColorValue kFloatBefore{{0.5f, -0.25f, 2.0f, 1.0f}};  // loaded (LOAD)
constexpr VkClearDepthStencilValue kDepthStencilBefore{0.25f, 7};        // stencil loaded (LOAD)
constexpr float kDepthClear = 1.0f;

enum class Api { RenderPass2, DynamicRendering };
enum class Target { Implicit, Explicit };  // single-sampled through the extension, or 4-sample + resolve

struct Images {
  std::vector<uint8_t> unorm, swapped, stencil;
  std::vector<float> floats, depth;
};

// Two triangles, one colour each (position, colour): A in front (z 0.5), B behind (z 0.7)
// where they overlap. Edges cross pixels at odd places so that edge pixels are partly covered.
const float kVertices[6][7] = {
    {-0.83f, -0.91f, 0.5f, 1, 0, 0, 1}, {0.88f, -0.37f, 0.5f, 1, 0, 0, 1}, {-0.21f, 0.93f, 0.5f, 1, 0, 0, 1},
    {-0.95f, 0.15f, 0.7f, 0, 1, 0, 1},  {0.97f, 0.71f, 0.7f, 0, 1, 0, 1},  {0.31f, -0.97f, 0.7f, 0, 1, 0, 1}};

VkImage makeImage(TestDevice& device, VkFormat format, VkSampleCountFlagBits samples, VkImageUsageFlags usage, bool msrtss) {
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.flags = msrtss ? VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT : 0;
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = samples;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = usage;
  VkImage image = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImage(device.dev, &ici, nullptr, &image), VK_SUCCESS);
  device.bindMemory(image);
  return image;
}

VkImageView makeView(VkDevice dev, VkImage image, VkFormat format, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
  return view;
}

// The device with the extension's feature, or none when `pd` lacks it.
struct MsrtssDevice {
  VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT msrtss{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT, nullptr, VK_TRUE};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &msrtss};
  VkPhysicalDeviceFeatures features{};
  std::unique_ptr<TestDevice> device;
  explicit MsrtssDevice(VkPhysicalDevice pd) {
    v13.dynamicRendering = VK_TRUE;
    features.sampleRateShading = VK_TRUE;
    device = std::make_unique<TestDevice>(pd, &features, &v13,
                                          std::vector<const char*>{VK_EXT_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_EXTENSION_NAME});
  }
};

bool supportsMsrtss(VkPhysicalDevice pd) {
  VkPhysicalDeviceMultisampledRenderToSingleSampledFeaturesEXT msrtss{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &msrtss};
  vkGetPhysicalDeviceFeatures2(pd, &f);
  return msrtss.multisampledRenderToSingleSampled == VK_TRUE;
}

VkPipeline makePipeline(VkDevice dev, VkPipelineLayout layout, VkRenderPass renderPass, uint32_t subpass, const void* pNext,
                        VkShaderModule vert, VkShaderModule frag, uint32_t colorCount, bool vertexInput, bool depthStencil) {
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vert, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, frag, "main", nullptr}};
  VkVertexInputBindingDescription vb{0, sizeof(kVertices[0]), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attrs[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (vertexInput)
    vi.vertexBindingDescriptionCount = 1, vi.pVertexBindingDescriptions = &vb, vi.vertexAttributeDescriptionCount = 2,
    vi.pVertexAttributeDescriptions = attrs;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = ds.depthWriteEnable = depthStencil;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  ds.stencilTestEnable = depthStencil;
  ds.front = ds.back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 0};
  VkPipelineColorBlendAttachmentState blend[3] = {};
  for (auto& b : blend) b.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = colorCount;
  cb.pAttachments = blend;
  const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_STENCIL_REFERENCE};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, dynamic};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, pNext};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pDepthStencilState = &ds;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = &dyn;
  gpci.layout = layout;
  gpci.renderPass = renderPass;
  gpci.subpass = subpass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
  return pipeline;
}

// Pipeline barriers around the render pass: everything before it done, everything after it waits.
void fullBarrier(VkCommandBuffer cmd) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                    VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

void toLayout(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, VK_ACCESS_MEMORY_WRITE_BIT,
                         VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, from, to, VK_QUEUE_FAMILY_IGNORED,
                         VK_QUEUE_FAMILY_IGNORED, image, {aspect, 0, 1, 0, 1}};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
}

// One render pass instance: clear the UNORM attachment, load the float one, leave the third
// (DONT_CARE); clear depth, load stencil; draw A then B, each writing its stencil reference (1, 2).
Images renderScene(VkPhysicalDevice pd, Api api, Target target) {
  Images out;
  MsrtssDevice md(pd);
  TestDevice& device = *md.device;
  const VkDevice dev = device.dev;
  if (!dev) {
    ADD_FAILURE() << "no device with multisampledRenderToSingleSampled";
    return out;
  }
  const bool implicit = target == Target::Implicit;
  const VkSampleCountFlagBits renderSamples = implicit ? VK_SAMPLE_COUNT_1_BIT : VK_SAMPLE_COUNT_4_BIT;
  const VkImageAspectFlags dsAspects = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  const VkFormat formats[4] = {kUnorm, kFloat, kUnorm, kDepthStencil};
  const VkImageUsageFlags colorUsage =
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  const VkImageUsageFlags dsUsage =
      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  // rendered[i]: what the pass renders into; single[i]: the single-sampled image read back
  // (the same image when implicit, the resolve attachment when explicit).
  VkImage rendered[4], single[4];
  VkImageView renderedViews[4], singleViews[4];
  for (uint32_t i = 0; i < 4; ++i) {
    const VkImageUsageFlags usage = i == 3 ? dsUsage : colorUsage;
    const VkImageAspectFlags aspect = i == 3 ? dsAspects : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT);
    rendered[i] = makeImage(device, formats[i], renderSamples, usage, implicit);
    renderedViews[i] = makeView(dev, rendered[i], formats[i], aspect);
    single[i] = implicit ? rendered[i] : makeImage(device, formats[i], VK_SAMPLE_COUNT_1_BIT, usage, false);
    singleViews[i] = implicit ? renderedViews[i] : makeView(dev, single[i], formats[i], aspect);
  }

  VkShaderModule modules[2];
  const char* names[2] = {"draw_basic_vert", "msrtss_two_frag"};
  for (int m = 0; m < 2; ++m) modules[m] = device.createShaderModule(loadCorpusShader(names[m]));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);

  // Render pass 2 objects.
  VkMultisampledRenderToSingleSampledInfoEXT msrtss{VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, nullptr,
                                                    VK_TRUE, VK_SAMPLE_COUNT_4_BIT};
  VkRenderPass renderPass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkFormat colorFormats[3] = {kUnorm, kFloat, kUnorm};
  if (api == Api::RenderPass2) {
    std::vector<VkAttachmentDescription2> attachments;
    const VkAttachmentLoadOp loads[4] = {VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                         VK_ATTACHMENT_LOAD_OP_CLEAR};
    for (uint32_t i = 0; i < 4; ++i) {
      VkAttachmentDescription2 d{VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
      d.format = formats[i];
      d.samples = renderSamples;
      d.loadOp = loads[i];
      d.storeOp = d.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
      d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
      d.initialLayout = i == 3 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      d.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      attachments.push_back(d);
    }
    if (!implicit)
      for (uint32_t i = 0; i < 4; ++i) {
        VkAttachmentDescription2 d = attachments[i];
        d.samples = VK_SAMPLE_COUNT_1_BIT;
        d.loadOp = d.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        d.initialLayout = i == 3 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        attachments.push_back(d);
      }
    VkAttachmentReference2 colors[3], resolves[3];
    for (uint32_t i = 0; i < 3; ++i) {
      colors[i] = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   VK_IMAGE_ASPECT_COLOR_BIT};
      resolves[i] = {VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 4 + i, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_ASPECT_COLOR_BIT};
    }
    VkAttachmentReference2 depth{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 3,
                                 VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, dsAspects};
    VkAttachmentReference2 depthResolve = depth;
    depthResolve.attachment = 7;
    // Implicit: the depth/stencil resolve modes without an attachment
    // (VUID-VkSubpassDescription2-pNext-06871); explicit: with the resolve attachment.
    VkSubpassDescriptionDepthStencilResolve dsResolve{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE,
                                                      implicit ? &msrtss : nullptr, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
                                                      VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, implicit ? nullptr : &depthResolve};
    VkSubpassDescription2 sp{VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &dsResolve};
    sp.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    sp.colorAttachmentCount = 3;
    sp.pColorAttachments = colors;
    sp.pResolveAttachments = implicit ? nullptr : resolves;
    sp.pDepthStencilAttachment = &depth;
    VkRenderPassCreateInfo2 rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
    rpci.attachmentCount = uint32_t(attachments.size());
    rpci.pAttachments = attachments.data();
    rpci.subpassCount = 1;
    rpci.pSubpasses = &sp;
    EXPECT_EQ(vkCreateRenderPass2(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
    VkImageView fbViews[8] = {renderedViews[0], renderedViews[1], renderedViews[2], renderedViews[3],
                              singleViews[0],   singleViews[1],   singleViews[2],   singleViews[3]};
    VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = renderPass;
    fci.attachmentCount = uint32_t(attachments.size());
    fci.pAttachments = fbViews;
    fci.width = fci.height = kSize;
    fci.layers = 1;
    EXPECT_EQ(vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer), VK_SUCCESS);
    pipeline = makePipeline(dev, layout, renderPass, 0, nullptr, modules[0], modules[1], 3, true, true);
  } else {
    VkPipelineRenderingCreateInfo prci{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 3, colorFormats, kDepthStencil,
                                       kDepthStencil};
    pipeline = makePipeline(dev, layout, VK_NULL_HANDLE, 0, &prci, modules[0], modules[1], 3, true, true);
  }

  const VkDeviceSize unormBytes = kSize * kSize * 4, floatBytes = kSize * kSize * 16, texels = kSize * kSize;
  const VkDeviceSize offUnorm = 256, offFloat = offUnorm + unormBytes, offSwapped = offFloat + floatBytes,
                     offDepth = offSwapped + unormBytes, offStencil = offDepth + texels * 4;
  uint8_t* mapped = nullptr;
  VkBuffer buffer = device.createMappedBuffer(offStencil + texels, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              reinterpret_cast<void**>(&mapped));
  std::memcpy(mapped, kVertices, sizeof(kVertices));

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  // The contents before: every image, rendered and single-sampled alike, holds the same values
  // (so a LOAD of a 4-sample image sees what replication of the single-sampled one gives).
  std::vector<VkImage> all(rendered, rendered + 4);
  if (!implicit) all.insert(all.end(), single, single + 4);
  for (size_t k = 0; k < all.size(); ++k) {
    const uint32_t i = uint32_t(k % 4);
    const VkImageAspectFlags aspect = i == 3 ? dsAspects : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT);
    toLayout(cmd, all[k], aspect, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    const VkImageSubresourceRange range{aspect, 0, 1, 0, 1};
    if (i == 3) vkCmdClearDepthStencilImage(cmd, all[k], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &kDepthStencilBefore, 1, &range);
    else vkCmdClearColorImage(cmd, all[k], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, i == 1 ? &kFloatBefore : &kUnormBefore, 1, &range);
    toLayout(cmd, all[k], aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
             i == 3 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
  }
  VkClearValue clears[8] = {};
  clears[0].color = kUnormClear;
  clears[3].depthStencil = {kDepthClear, 0};
  if (api == Api::RenderPass2) {
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, kArea, 8, clears};
    VkSubpassBeginInfo sbi{VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO, nullptr, VK_SUBPASS_CONTENTS_INLINE};
    vkCmdBeginRenderPass2(cmd, &rpbi, &sbi);
  } else {
    VkRenderingAttachmentInfo colors[3];
    const VkAttachmentLoadOp loads[3] = {VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_DONT_CARE};
    for (uint32_t i = 0; i < 3; ++i) {
      colors[i] = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
      colors[i].imageView = renderedViews[i];
      colors[i].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      colors[i].resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
      colors[i].resolveImageView = implicit ? VK_NULL_HANDLE : singleViews[i];
      colors[i].resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
      colors[i].loadOp = loads[i];
      colors[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
      colors[i].clearValue = clears[i];
    }
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = renderedViews[3];
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depth.resolveMode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    depth.resolveImageView = implicit ? VK_NULL_HANDLE : singleViews[3];
    depth.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    depth.clearValue = clears[3];
    VkRenderingAttachmentInfo stencil = depth;
    stencil.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO, implicit ? &msrtss : nullptr};
    ri.renderArea = kArea;
    ri.layerCount = 1;
    ri.colorAttachmentCount = 3;
    ri.pColorAttachments = colors;
    ri.pDepthAttachment = &depth;
    ri.pStencilAttachment = &stencil;
    vkCmdBeginRendering(cmd, &ri);
  }
  VkDeviceSize zero = 0;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &zero);
  vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 1);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 2);
  vkCmdDraw(cmd, 3, 1, 3, 0);
  if (api == Api::RenderPass2) {
    VkSubpassEndInfo sei{VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
    vkCmdEndRenderPass2(cmd, &sei);
  } else {
    vkCmdEndRendering(cmd);
    for (uint32_t i = 0; i < 4; ++i)
      toLayout(cmd, single[i], i == 3 ? dsAspects : VkImageAspectFlags(VK_IMAGE_ASPECT_COLOR_BIT),
               i == 3 ? VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  }
  fullBarrier(cmd);
  auto copyOut = [&](VkImage image, VkImageAspectFlags aspect, VkDeviceSize offset) {
    VkBufferImageCopy copy{offset, 0, 0, {aspect, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  };
  copyOut(single[0], VK_IMAGE_ASPECT_COLOR_BIT, offUnorm);
  copyOut(single[1], VK_IMAGE_ASPECT_COLOR_BIT, offFloat);
  copyOut(single[2], VK_IMAGE_ASPECT_COLOR_BIT, offSwapped);
  copyOut(single[3], VK_IMAGE_ASPECT_DEPTH_BIT, offDepth);
  copyOut(single[3], VK_IMAGE_ASPECT_STENCIL_BIT, offStencil);
  fullBarrier(cmd);
  EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
  device.submitAndWait(cmd);
  out.unorm.assign(mapped + offUnorm, mapped + offUnorm + unormBytes);
  out.swapped.assign(mapped + offSwapped, mapped + offSwapped + unormBytes);
  out.floats.resize(texels * 4);
  std::memcpy(out.floats.data(), mapped + offFloat, floatBytes);
  out.depth.resize(texels);
  std::memcpy(out.depth.data(), mapped + offDepth, texels * 4);
  out.stencil.assign(mapped + offStencil, mapped + offStencil + texels);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  if (framebuffer) vkDestroyFramebuffer(dev, framebuffer, nullptr);
  if (renderPass) vkDestroyRenderPass(dev, renderPass, nullptr);
  for (uint32_t i = 0; i < 4; ++i) {
    if (!implicit) vkDestroyImageView(dev, singleViews[i], nullptr), vkDestroyImage(dev, single[i], nullptr);
    vkDestroyImageView(dev, renderedViews[i], nullptr), vkDestroyImage(dev, rendered[i], nullptr);
  }
  vkDestroyBuffer(dev, buffer, nullptr);
  return out;
}

bool inArea(uint32_t x, uint32_t y) {
  return int32_t(x) >= kArea.offset.x && x < kArea.offset.x + kArea.extent.width && int32_t(y) >= kArea.offset.y &&
         y < kArea.offset.y + kArea.extent.height;
}

// The spec's values where it fixes them, on the implicit rendering: outside the render area
// nothing changes; inside, a pixel whose UNORM value is exactly A's red or B's green was wholly
// covered by that triangle, so the DONT_CARE attachment holds the swapped colour there and the
// depth/stencil sample 0 holds the triangle's; edge pixels hold averages.
void checkSpecValues(const Images& r, const char* what) {
  ASSERT_EQ(r.unorm.size(), size_t(kSize * kSize * 4)) << what;
  uint32_t wrong = 0, insideA = 0, insideB = 0, edges = 0;
  // The clear colour as the driver converted it: a render area corner no triangle reaches.
  const uint8_t* clear = &r.unorm[(uint32_t(kArea.offset.y) * kSize + uint32_t(kArea.offset.x)) * 4];
  EXPECT_TRUE(clear[2] > 60 && clear[2] < 90 && clear[0] < 40) << what << ": the clear colour (0.1, 0.2, 0.3)";
  auto fail = [&](uint32_t x, uint32_t y, const char* msg) {
    if (wrong++ < 8) ADD_FAILURE() << what << ": pixel (" << x << ", " << y << "): " << msg;
  };
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t p = y * kSize + x;
      const uint8_t* u = &r.unorm[p * 4];
      const uint8_t* s = &r.swapped[p * 4];
      if (!inArea(x, y)) {
        if (u[0] != 153 || u[1] != 153 || u[2] != 153) fail(x, y, "outside the render area, UNORM attachment changed");
        if (r.floats[p * 4] != kFloatBefore.float32[0] || r.floats[p * 4 + 2] != kFloatBefore.float32[2])
          fail(x, y, "outside the render area, float attachment changed");
        if (r.depth[p] != kDepthStencilBefore.depth || r.stencil[p] != kDepthStencilBefore.stencil)
          fail(x, y, "outside the render area, depth/stencil changed");
        continue;
      }
      const bool isA = u[0] == 255 && u[1] == 0 && u[2] == 0, isB = u[0] == 0 && u[1] == 255 && u[2] == 0;
      const bool isClear = std::memcmp(u, clear, 4) == 0;
      if (isA) {
        ++insideA;
        if (s[0] != 0 || s[2] != 255) fail(x, y, "inside A, the DONT_CARE attachment is not A's swapped colour");
        if (r.floats[p * 4] != 3.0f || r.floats[p * 4 + 1] != -1.0f) fail(x, y, "inside A, float attachment is not (3, -1, ...)");
        if (r.depth[p] != 0.5f || r.stencil[p] != 1) fail(x, y, "inside A, depth/stencil is not (0.5, 1)");
      } else if (isB) {
        ++insideB;
        if (s[1] != 255 || s[0] != 0 || s[2] != 0) fail(x, y, "inside B, the DONT_CARE attachment is not B's colour");
        if (r.depth[p] != 0.7f || r.stencil[p] != 2) fail(x, y, "inside B, depth/stencil is not (0.7, 2)");
      } else if (isClear) {
        // Loaded attachments keep their values where nothing was drawn.
        if (r.floats[p * 4] != kFloatBefore.float32[0] || r.floats[p * 4 + 1] != kFloatBefore.float32[1])
          fail(x, y, "not drawn, the loaded float attachment changed");
        if (r.depth[p] != kDepthClear || r.stencil[p] != kDepthStencilBefore.stencil)
          fail(x, y, "not drawn, depth is not the clear value or stencil not the loaded one");
      } else {
        ++edges;  // an average of some samples of A, B and the clear colour: blue only from the clear
        if (u[2] > clear[2] || u[0] + u[1] + u[2] < clear[0] + clear[1] + clear[2] - 3)
          fail(x, y, "an edge pixel that is no average of the colours around it");
      }
    }
  EXPECT_EQ(wrong, 0u) << what;
  EXPECT_GT(insideA, 20u) << what;
  EXPECT_GT(insideB, 20u) << what;
  EXPECT_GT(edges, 20u) << what << ": edge pixels averaged from partly covered samples";
}

void expectIdentical(const Images& a, const Images& b, const char* what) {
  ASSERT_EQ(a.unorm.size(), b.unorm.size()) << what;
  uint32_t different = 0;
  for (size_t i = 0; i < a.unorm.size(); ++i) different += a.unorm[i] != b.unorm[i];
  EXPECT_EQ(different, 0u) << what << ": UNORM channels";
  different = 0;
  for (size_t i = 0; i < a.floats.size(); ++i) different += a.floats[i] != b.floats[i];
  EXPECT_EQ(different, 0u) << what << ": float channels";
  different = 0;
  for (size_t i = 0; i < a.depth.size(); ++i) different += a.depth[i] != b.depth[i] || a.stencil[i] != b.stencil[i];
  EXPECT_EQ(different, 0u) << what << ": depth/stencil texels";
}

void expectClose(const Images& ours, const Images& theirs, const char* what) {
  ASSERT_EQ(ours.unorm.size(), theirs.unorm.size()) << what;
  uint32_t different = 0;
  for (size_t i = 0; i < ours.unorm.size(); ++i) different += std::abs(int(ours.unorm[i]) - int(theirs.unorm[i])) > 2;
  EXPECT_EQ(different, 0u) << what << ": UNORM channels differing from lavapipe's by more than 2";
  different = 0;
  for (size_t i = 0; i < ours.floats.size(); ++i) different += std::fabs(ours.floats[i] - theirs.floats[i]) > 1e-3f;
  EXPECT_EQ(different, 0u) << what << ": float channels differing from lavapipe's";
  different = 0;
  for (size_t i = 0; i < ours.depth.size(); ++i)
    different += std::fabs(ours.depth[i] - theirs.depth[i]) > 1e-6f || ours.stencil[i] != theirs.stencil[i];
  EXPECT_EQ(different, 0u) << what << ": depth/stencil texels differing from lavapipe's";
}

void checkApi(Api api, const char* name) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  ASSERT_TRUE(supportsMsrtss(drivers.tessera));
  const Images implicit = renderScene(drivers.tessera, api, Target::Implicit);
  const Images explicitMs = renderScene(drivers.tessera, api, Target::Explicit);
  checkSpecValues(implicit, name);
  expectIdentical(implicit, explicitMs, name);
  if (drivers.lavapipe && supportsMsrtss(drivers.lavapipe))
    expectClose(implicit, renderScene(drivers.lavapipe, api, Target::Implicit), name);
}

// "Multisampled Render to Single-sampled", VkSubpassDescription2 (render pass 2).
TEST(MultisampledRenderToSingleSampled, RenderPass2IsAnImplicitResolve) { checkApi(Api::RenderPass2, "render pass 2"); }

// The same through VkRenderingInfo (dynamic rendering), VkRenderingAttachmentInfo::resolveMode.
TEST(MultisampledRenderToSingleSampled, DynamicRenderingIsAnImplicitResolve) {
  checkApi(Api::DynamicRendering, "dynamic rendering");
}

// Several subpasses: subpass 0 draws A into attachment 0 (CLEAR), subpass 1 draws B into it
// (its contents carried over: the implementation may split at the subpass boundary, resolving
// and replicating, which changes nothing where B does not reach), subpass 2 reads it as a
// multisampled input attachment (subpassInputMS, every sample) and writes the inverse of the
// samples' mean into attachment 1 with a full-screen triangle.
struct SubpassImages {
  std::vector<uint8_t> first, inverse;
};

// With `secondary`, subpass 2's draw is recorded in a secondary command buffer (its input
// attachment then reads the implicit image of a render pass instance its recording never saw).
SubpassImages renderSubpasses(VkPhysicalDevice pd, bool secondary) {
  SubpassImages out;
  MsrtssDevice md(pd);
  TestDevice& device = *md.device;
  const VkDevice dev = device.dev;
  if (!dev) return out;
  VkImage images[2];
  VkImageView views[2];
  for (int i = 0; i < 2; ++i) {
    images[i] = makeImage(device, kUnorm, VK_SAMPLE_COUNT_1_BIT,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                          true);
    views[i] = makeView(dev, images[i], kUnorm, VK_IMAGE_ASPECT_COLOR_BIT);
  }
  VkAttachmentDescription2 attachments[2] = {};
  for (int i = 0; i < 2; ++i) {
    attachments[i] = {VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_2};
    attachments[i].format = kUnorm;
    attachments[i].samples = VK_SAMPLE_COUNT_1_BIT;
    attachments[i].loadOp = i == 0 ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachments[i].stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachments[i].stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachments[i].initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachments[i].finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  }
  const VkAttachmentReference2 color0{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      VK_IMAGE_ASPECT_COLOR_BIT};
  const VkAttachmentReference2 input0{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 0, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                      VK_IMAGE_ASPECT_COLOR_BIT};
  const VkAttachmentReference2 color1{VK_STRUCTURE_TYPE_ATTACHMENT_REFERENCE_2, nullptr, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      VK_IMAGE_ASPECT_COLOR_BIT};
  VkMultisampledRenderToSingleSampledInfoEXT msrtss[3];
  VkSubpassDescription2 subpasses[3];
  for (int s = 0; s < 3; ++s) {
    msrtss[s] = {VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, nullptr, VK_TRUE, VK_SAMPLE_COUNT_4_BIT};
    subpasses[s] = {VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2, &msrtss[s]};
    subpasses[s].pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpasses[s].colorAttachmentCount = 1;
    subpasses[s].pColorAttachments = s < 2 ? &color0 : &color1;
  }
  subpasses[2].inputAttachmentCount = 1;
  subpasses[2].pInputAttachments = &input0;
  VkSubpassDependency2 deps[2];
  for (uint32_t d = 0; d < 2; ++d)
    deps[d] = {VK_STRUCTURE_TYPE_SUBPASS_DEPENDENCY_2, nullptr, d, d + 1, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_INPUT_ATTACHMENT_READ_BIT,
               VK_DEPENDENCY_BY_REGION_BIT, 0};
  VkRenderPassCreateInfo2 rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2};
  rpci.attachmentCount = 2;
  rpci.pAttachments = attachments;
  rpci.subpassCount = 3;
  rpci.pSubpasses = subpasses;
  rpci.dependencyCount = 2;
  rpci.pDependencies = deps;
  VkRenderPass renderPass;
  EXPECT_EQ(vkCreateRenderPass2(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.attachmentCount = 2;
  fci.pAttachments = views;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer);

  const SingleImageSet inputSet = makeSingleImageSet(dev, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, views[0], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  const VkDescriptorSetLayout setLayout = inputSet.layout;
  const VkDescriptorPool descriptorPool = inputSet.pool;
  const VkDescriptorSet set = inputSet.set;
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layouts[2];
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[1]);
  plci.setLayoutCount = 0;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layouts[0]);
  VkShaderModule modules[4];
  const char* names[4] = {"draw_basic_vert", "draw_basic_frag", "fullscreen_vert", "input_invert_ms_frag"};
  for (int m = 0; m < 4; ++m) modules[m] = device.createShaderModule(loadCorpusShader(names[m]));
  VkPipeline pipelines[3];
  for (uint32_t s = 0; s < 3; ++s)
    pipelines[s] = makePipeline(dev, layouts[s == 2], renderPass, s, nullptr, modules[s == 2 ? 2 : 0], modules[s == 2 ? 3 : 1], 1,
                                s < 2, false);

  uint8_t* mapped = nullptr;
  const VkDeviceSize bytes = kSize * kSize * 4;
  VkBuffer buffer = device.createMappedBuffer(sizeof(kVertices) + 2 * bytes,
                                              VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              reinterpret_cast<void**>(&mapped));
  std::memcpy(mapped, kVertices, sizeof(kVertices));
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkClearValue clears[2] = {};
  clears[0].color = kUnormClear;
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, {{0, 0}, {kSize, kSize}}, 2,
                             clears};
  VkSubpassBeginInfo sbi{VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO, nullptr, VK_SUBPASS_CONTENTS_INLINE};
  VkSubpassEndInfo sei{VK_STRUCTURE_TYPE_SUBPASS_END_INFO};
  vkCmdBeginRenderPass2(cmd, &rpbi, &sbi);
  VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &zero);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[0]);
  vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdNextSubpass2(cmd, &sbi, &sei);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[1]);
  vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
  vkCmdDraw(cmd, 3, 1, 3, 0);
  VkSubpassBeginInfo lastBegin{VK_STRUCTURE_TYPE_SUBPASS_BEGIN_INFO, nullptr,
                               secondary ? VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS : VK_SUBPASS_CONTENTS_INLINE};
  vkCmdNextSubpass2(cmd, &lastBegin, &sei);
  VkCommandBuffer inner = cmd;
  if (secondary) {
    VkCommandBufferAllocateInfo sai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, 1};
    vkAllocateCommandBuffers(dev, &sai, &inner);
    VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, nullptr, renderPass, 2, framebuffer};
    VkCommandBufferBeginInfo sbegin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                    VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT, &inherit};
    vkBeginCommandBuffer(inner, &sbegin);
  }
  vkCmdBindPipeline(inner, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[2]);
  vkCmdSetStencilReference(inner, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
  vkCmdBindDescriptorSets(inner, VK_PIPELINE_BIND_POINT_GRAPHICS, layouts[1], 0, 1, &set, 0, nullptr);
  vkCmdDraw(inner, 3, 1, 0, 0);
  if (secondary) {
    EXPECT_EQ(vkEndCommandBuffer(inner), VK_SUCCESS);
    vkCmdExecuteCommands(cmd, 1, &inner);
  }
  vkCmdEndRenderPass2(cmd, &sei);
  fullBarrier(cmd);
  for (uint32_t i = 0; i < 2; ++i) {
    VkBufferImageCopy copy{sizeof(kVertices) + i * bytes, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
    vkCmdCopyImageToBuffer(cmd, images[i], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
  }
  fullBarrier(cmd);
  EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
  device.submitAndWait(cmd);
  out.first.assign(mapped + sizeof(kVertices), mapped + sizeof(kVertices) + bytes);
  out.inverse.assign(mapped + sizeof(kVertices) + bytes, mapped + sizeof(kVertices) + 2 * bytes);

  vkDestroyCommandPool(dev, pool, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  for (VkPipelineLayout l : layouts) vkDestroyPipelineLayout(dev, l, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
  for (int i = 0; i < 2; ++i) vkDestroyImageView(dev, views[i], nullptr), vkDestroyImage(dev, images[i], nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return out;
}

void checkSubpasses(bool secondary) {
  DualDriverInstance drivers;
  // The installed validation layer (1.3.239) does not know that a multisampled-render-to-single-
  // sampled subpass's input attachments are multisampled ("Fragment Input Attachment
  // Interface": the MS operand is 1 when it is enabled), so it reports the subpassInputMS
  // bound to a single-sampled view.
  drivers.tolerate("VUID-vkCmdDraw-None-02699");
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const SubpassImages ours = renderSubpasses(drivers.tessera, secondary);
  ASSERT_EQ(ours.first.size(), size_t(kSize * kSize * 4));
  // Attachment 0: B (drawn second, no depth test) over A over the clear colour; inside each
  // triangle its colour exactly, edge pixels averaged.
  uint32_t a = 0, b = 0, edges = 0, wrong = 0;
  for (size_t p = 0; p < kSize * kSize; ++p) {
    const uint8_t* u = &ours.first[p * 4];
    if (u[0] == 255 && u[1] == 0) ++a;
    else if (u[0] == 0 && u[1] == 255) ++b;
    else if (std::memcmp(u, &ours.first[0], 4) != 0) ++edges;  // pixel (0, 0) is the clear colour
    // Attachment 1: the inverse of the input's samples' mean, which is attachment 0's resolve
    // (split or not, within the rounding of one average).
    for (int c = 0; c < 4; ++c)
      if (std::abs(int(ours.inverse[p * 4 + c]) - (255 - int(u[c]))) > 1 && wrong++ < 5)
        ADD_FAILURE() << "pixel " << p << " channel " << c << ": attachment 0 " << int(u[c]) << ", inverse " << int(ours.inverse[p * 4 + c]);
  }
  EXPECT_EQ(wrong, 0u);
  EXPECT_GT(a, 20u);
  EXPECT_GT(b, 20u);
  EXPECT_GT(edges, 20u);
  // Attachment 0 against lavapipe. Not attachment 1: lavapipe (Mesa 22.3) reads such an
  // input attachment as the single-sampled image, samples 1-3 as zero (its inverse of a
  // texel c is 255 - c / 4), where the spec makes the subpass input multisampled.
  if (drivers.lavapipe && supportsMsrtss(drivers.lavapipe)) {
    const SubpassImages theirs = renderSubpasses(drivers.lavapipe, secondary);
    ASSERT_EQ(theirs.first.size(), ours.first.size());
    uint32_t different = 0;
    for (size_t i = 0; i < ours.first.size(); ++i) different += std::abs(int(ours.first[i]) - int(theirs.first[i])) > 2;
    EXPECT_EQ(different, 0u) << "attachment 0 channels that differ from lavapipe's";
  }
}

TEST(MultisampledRenderToSingleSampled, SubpassesCarryContentsAndReadMultisampledInputs) { checkSubpasses(false); }

// The input attachment's draw in a secondary command buffer.
TEST(MultisampledRenderToSingleSampled, SecondaryCommandBufferReadsMultisampledInputs) { checkSubpasses(true); }

// The format query and image creation rules: VkSubpassResolvePerformanceQueryEXT is answered
// (VK_TRUE or VK_FALSE), a 2D optimal colour format offers the flag with 4 samples, and a
// format that cannot be a multisampled attachment does not offer it.
TEST(MultisampledRenderToSingleSampled, FormatQueries) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkSubpassResolvePerformanceQueryEXT perf{VK_STRUCTURE_TYPE_SUBPASS_RESOLVE_PERFORMANCE_QUERY_EXT};
  perf.optimal = 0xDEADBEEF;
  VkFormatProperties2 fp{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &perf};
  vkGetPhysicalDeviceFormatProperties2(drivers.tessera, kUnorm, &fp);
  EXPECT_TRUE(perf.optimal == VK_TRUE || perf.optimal == VK_FALSE);
  VkImageFormatProperties props;
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(drivers.tessera, kUnorm, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                                     VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT, &props),
            VK_SUCCESS);
  EXPECT_TRUE(props.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
  // A 3D image is a colour attachment (a 2D view of a slice) but never multisampled, so it
  // cannot render through an implicit multisampled image of itself.
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(drivers.tessera, kUnorm, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL,
                                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &props),
            VK_SUCCESS);
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties(drivers.tessera, kUnorm, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL,
                                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                                     VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT, &props),
            VK_ERROR_FORMAT_NOT_SUPPORTED);
}

// The implicit image is host memory the command buffer allocates when the begin is recorded:
// when the host allocator refuses it, vkEndCommandBuffer returns VK_ERROR_OUT_OF_HOST_MEMORY
// and a debug-utils error says why ("Bad input gets a clear VkResult"), and nothing crashes.
// An instance without the validation layer: the driver's own error message is the point.
struct RefusingAllocator {
  static constexpr size_t kLimit = size_t(4) << 20;  // refuses blocks above 4 MiB
  uint32_t refused = 0;
  static void* VKAPI_CALL allocate(void* user, size_t size, size_t alignment, VkSystemAllocationScope) {
    if (size > kLimit) {
      ++static_cast<RefusingAllocator*>(user)->refused;
      return nullptr;
    }
    return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
  }
  static void* VKAPI_CALL reallocate(void*, void* old, size_t size, size_t alignment, VkSystemAllocationScope) {
    void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
    if (p && old) std::memcpy(p, old, size), std::free(old);  // never asked for by Tessera's arena
    return p;
  }
  static void VKAPI_CALL release(void*, void* p) { std::free(p); }
};

VKAPI_ATTR VkBool32 VKAPI_CALL countImplicitErrors(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) && data->pMessage && std::strstr(data->pMessage, "implicit"))
    ++*static_cast<uint32_t*>(user);
  return VK_FALSE;
}

TEST(MultisampledRenderToSingleSampled, ImplicitImageAllocationFailureIsReported) {
  uint32_t errors = 0;
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  mci.pfnUserCallback = countImplicitErrors;
  mci.pUserData = &errors;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = 1;
  ici.ppEnabledExtensionNames = extensions;
  VkInstance instance;
  ASSERT_EQ(vkCreateInstance(&ici, nullptr, &instance), VK_SUCCESS);
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  VkDebugUtilsMessengerEXT messenger;
  ASSERT_EQ(createMessenger(instance, &mci, nullptr, &messenger), VK_SUCCESS);
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  uint32_t n = 1;
  vkEnumeratePhysicalDevices(instance, &n, &pd);
  ASSERT_NE(pd, VK_NULL_HANDLE);
  {
    MsrtssDevice md(pd);
    TestDevice& device = *md.device;
    ASSERT_NE(device.dev, VK_NULL_HANDLE);
    constexpr uint32_t kBig = 512;  // 512 x 512 x 4 samples x 16 bytes: a 16 MiB implicit image
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.flags = VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT;
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = kFloat;
    ci.extent = {kBig, kBig, 1};
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    VkImage image;
    ASSERT_EQ(vkCreateImage(device.dev, &ci, nullptr, &image), VK_SUCCESS);
    device.bindMemory(image);
    VkImageView view = makeView(device.dev, image, kFloat, VK_IMAGE_ASPECT_COLOR_BIT);
    RefusingAllocator refusing;
    const VkAllocationCallbacks callbacks{&refusing, RefusingAllocator::allocate, RefusingAllocator::reallocate,
                                          RefusingAllocator::release, nullptr, nullptr};
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                 VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT};
    VkCommandPool pool;
    ASSERT_EQ(vkCreateCommandPool(device.dev, &cpci, &callbacks, &pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    ASSERT_EQ(vkAllocateCommandBuffers(device.dev, &cbai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkMultisampledRenderToSingleSampledInfoEXT msrtss{VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT, nullptr,
                                                      VK_TRUE, VK_SAMPLE_COUNT_4_BIT};
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO, &msrtss};
    ri.renderArea = {{0, 0}, {kBig, kBig}};
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &color;
    vkCmdBeginRendering(cmd, &ri);
    vkCmdEndRendering(cmd);
    EXPECT_EQ(vkEndCommandBuffer(cmd), VK_ERROR_OUT_OF_HOST_MEMORY);
    EXPECT_GE(refusing.refused, 1u) << "the implicit image was asked of the command pool's allocator";
    EXPECT_EQ(errors, 1u) << "one debug-utils error naming the implicit image";
    // A reset frees what was recorded; a render pass that fits records again.
    EXPECT_EQ(vkResetCommandBuffer(cmd, 0), VK_SUCCESS);
    vkBeginCommandBuffer(cmd, &bi);
    ri.renderArea = {{0, 0}, {64, 64}};  // 256 KiB
    vkCmdBeginRendering(cmd, &ri);
    vkCmdEndRendering(cmd);
    EXPECT_EQ(vkEndCommandBuffer(cmd), VK_SUCCESS);
    device.submitAndWait(cmd);
    vkDestroyCommandPool(device.dev, pool, &callbacks);
    vkDestroyImageView(device.dev, view, nullptr);
    vkDestroyImage(device.dev, image, nullptr);
  }
  destroyMessenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
}

}  // namespace
}  // namespace tessera_test
