#include "graphics.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "images.h"
#include "workload.h"

namespace bench {

const std::initializer_list<const char*> kGraphicsCommands = {
    "vkCreateShaderModule",    "vkDestroyShaderModule",     "vkCreatePipelineLayout", "vkDestroyPipelineLayout",
    "vkCreateGraphicsPipelines", "vkDestroyPipeline",       "vkCreateImageView",      "vkDestroyImageView",
    "vkCmdBeginRendering",     "vkCmdEndRendering",         "vkCmdBindPipeline",      "vkCmdPushConstants",
    "vkCmdSetViewport",        "vkCmdSetScissor",           "vkCmdBindVertexBuffers", "vkCmdBindIndexBuffer",
    "vkCmdDraw",               "vkCmdDrawIndexed",          "vkCmdCopyImageToBuffer"};

namespace {

VkImageView createView(Device& d, const Image& image, VkImageAspectFlags aspect) {
  VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  ci.image = image.image;
  ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  ci.format = image.format;
  ci.subresourceRange = {aspect, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  BENCH_VK(d.vk.CreateImageView(d.device, &ci, nullptr, &view));
  auto& vk = d.vk;
  VkDevice dev = d.device;
  d.onDestroy([&vk, dev, view] { vk.DestroyImageView(dev, view, nullptr); });
  return view;
}

Image createAttachment(Device& d, VkFormat format, uint32_t width, uint32_t height, VkSampleCountFlagBits samples,
                       VkImageUsageFlags usage) {
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = format;
  ci.extent = {width, height, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = samples;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = usage;
  ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageFormatProperties ifp;
  VkResult r = vkGetPhysicalDeviceImageFormatProperties(d.physicalDevice, format, ci.imageType, ci.tiling, usage, 0,
                                                        &ifp);
  if (r == VK_ERROR_FORMAT_NOT_SUPPORTED || (r == VK_SUCCESS && !(ifp.sampleCounts & samples)))
    throw Unsupported("VkFormat " + std::to_string(int(format)) + " as an attachment with " +
                      std::to_string(int(samples)) + " sample(s) is not supported");
  return d.createImage(ci);
}

void transition(Device& d, VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, VkImageLayout to) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspect, 0, 1, 0, 1};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = to;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  d.vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr,
                          0, nullptr, 1, &b);
}

VkShaderModule createModule(Device& d, const uint32_t* code, size_t bytes) {
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = bytes;
  ci.pCode = code;
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult r = d.vk.CreateShaderModule(d.device, &ci, nullptr, &module);
  if (r != VK_SUCCESS) throw Unsupported(std::string("vkCreateShaderModule returned ") + resultName(r));
  auto& vk = d.vk;
  VkDevice dev = d.device;
  d.onDestroy([&vk, dev, module] { vk.DestroyShaderModule(dev, module, nullptr); });
  return module;
}

uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Sample positions in 1/16 pixel: the pixel centre, or Vulkan's standard 4-sample pattern.
struct SampleOffsets {
  int count;
  int dx[4], dy[4];
};

SampleOffsets sampleOffsets(VkSampleCountFlagBits samples) {
  if (samples == VK_SAMPLE_COUNT_1_BIT) return {1, {8}, {8}};
  if (samples == VK_SAMPLE_COUNT_4_BIT) return {4, {6, 14, 2, 10}, {2, 6, 10, 14}};
  throw Failure("benchmark bug: only 1 or 4 samples");
}

// Calls covered(pixel index, sample) for every sample strictly inside `t`; returns false as soon
// as a sample lies exactly on its boundary (where drivers' tie-breaking rules may differ).
template <typename F>
bool rasterize(const SmallTriangle& t, uint32_t width, uint32_t height, const SampleOffsets& so, F&& covered) {
  const int64_t x0 = t.x[0], y0 = t.y[0], x1 = t.x[1], y1 = t.y[1], x2 = t.x[2], y2 = t.y[2];
  const int64_t area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
  if (area == 0) return false;
  const int64_t sign = area > 0 ? 1 : -1;
  auto edge = [](int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py) {
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  };
  const int64_t minX = std::max<int64_t>(0, std::min({x0, x1, x2}) / kSubpixel - 1);
  const int64_t maxX = std::min<int64_t>(width - 1, std::max({x0, x1, x2}) / kSubpixel + 1);
  const int64_t minY = std::max<int64_t>(0, std::min({y0, y1, y2}) / kSubpixel - 1);
  const int64_t maxY = std::min<int64_t>(height - 1, std::max({y0, y1, y2}) / kSubpixel + 1);
  for (int64_t py = minY; py <= maxY; ++py)
    for (int64_t px = minX; px <= maxX; ++px)
      for (int s = 0; s < so.count; ++s) {
        const int64_t sx = px * kSubpixel + so.dx[s], sy = py * kSubpixel + so.dy[s];
        const int64_t e0 = sign * edge(x0, y0, x1, y1, sx, sy), e1 = sign * edge(x1, y1, x2, y2, sx, sy),
                      e2 = sign * edge(x2, y2, x0, y0, sx, sy);
        if (e0 < 0 || e1 < 0 || e2 < 0) continue;
        if (e0 == 0 || e1 == 0 || e2 == 0) return false;
        covered(uint64_t(py) * width + uint64_t(px), s);
      }
  return true;
}

}  // namespace

RenderTarget createRenderTarget(Device& d, uint32_t width, uint32_t height, VkSampleCountFlagBits samples,
                                bool depth) {
  d.require(kGraphicsCommands);
  if (!d.dynamicRendering) throw Unsupported("the dynamicRendering feature is not offered");
  d.requireFormatFeatures(kColorFormat, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
                                            VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT |
                                            VK_FORMAT_FEATURE_TRANSFER_SRC_BIT);
  if (depth) d.requireFormatFeatures(kDepthFormat, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
  const VkPhysicalDeviceLimits& limits = d.properties.limits;
  if (!(limits.framebufferColorSampleCounts & samples) || (depth && !(limits.framebufferDepthSampleCounts & samples)))
    throw Unsupported(std::to_string(int(samples)) + " samples are not supported for attachments");
  if (samples != VK_SAMPLE_COUNT_1_BIT && !limits.standardSampleLocations)
    throw Unsupported("no standard sample locations (the CPU reference assumes them)");
  if (limits.maxViewportDimensions[0] < kViewportEdge || limits.maxViewportDimensions[1] < kViewportEdge)
    throw Unsupported("maxViewportDimensions below 2048");

  RenderTarget t;
  t.width = width;
  t.height = height;
  t.samples = samples;
  t.color = createAttachment(d, kColorFormat, width, height, VK_SAMPLE_COUNT_1_BIT,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  t.colorView = createView(d, t.color, VK_IMAGE_ASPECT_COLOR_BIT);
  if (samples != VK_SAMPLE_COUNT_1_BIT) {
    t.msColor = createAttachment(d, kColorFormat, width, height, samples, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    t.msColorView = createView(d, t.msColor, VK_IMAGE_ASPECT_COLOR_BIT);
  }
  if (depth) {
    t.depth = createAttachment(d, kDepthFormat, width, height, samples, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    t.depthView = createView(d, t.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  }
  d.oneShot([&](VkCommandBuffer cb) {
    transition(d, cb, t.color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    if (t.msColorView)
      transition(d, cb, t.msColor.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    if (t.depthView)
      transition(d, cb, t.depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
  });
  return t;
}

void beginRendering(Device& d, VkCommandBuffer cb, const RenderTarget& t, const VkClearColorValue* clear,
                    VkRect2D area) {
  if (area.extent.width == 0) area = {{0, 0}, {t.width, t.height}};
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
  if (clear) color.clearValue.color = *clear;
  if (t.msColorView) {
    // Only the resolved image is read back; the samples need not be stored.
    color.imageView = t.msColorView;
    color.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.resolveImageView = t.colorView;
    color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  } else {
    color.imageView = t.colorView;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = t.depthView;
  depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = area;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &color;
  if (t.depthView) ri.pDepthAttachment = &depth;
  d.vk.CmdBeginRendering(cb, &ri);
  VkViewport viewport{0, 0, kViewportEdge, kViewportEdge, 0, 1};
  d.vk.CmdSetViewport(cb, 0, 1, &viewport);
  d.vk.CmdSetScissor(cb, 0, 1, &area);
}

void endRendering(Device& d, VkCommandBuffer cb) { d.vk.CmdEndRendering(cb); }

void attachmentBarrier(Device& d, VkCommandBuffer cb) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  d.vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 1, &b, 0, nullptr, 0, nullptr);
}

void readbackColor(Device& d, const RenderTarget& t, const Buffer& to) {
  readbackImage(d, t.color, to, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
}

PipelineState colorVertexState() {
  PipelineState s;
  s.vertexStride = sizeof(ColorVertex);
  s.attributes = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R8G8B8A8_UNORM, 12}};
  return s;
}

GraphicsProgram::GraphicsProgram(Device& d, const uint32_t* vs, size_t vsBytes, const uint32_t* fs, size_t fsBytes,
                                 uint32_t pushConstantBytes, VkDescriptorSetLayout setLayout)
    : d_(d), pushBytes_(pushConstantBytes) {
  d.require(kGraphicsCommands);
  vs_ = createModule(d, vs, vsBytes);
  fs_ = createModule(d, fs, fsBytes);
  createLayout(pushConstantBytes, setLayout);
}

GraphicsProgram::GraphicsProgram(Device& d, const uint32_t* vs, size_t vsBytes, std::initializer_list<Stage> middle,
                                 const uint32_t* fs, size_t fsBytes, uint32_t pushConstantBytes)
    : d_(d), pushBytes_(pushConstantBytes) {
  d.require(kGraphicsCommands);
  for (const Stage& m : middle) {
    if (m.stage == VK_SHADER_STAGE_GEOMETRY_BIT)
      d.requireFeature(&VkPhysicalDeviceFeatures::geometryShader, "geometryShader");
    else
      d.requireFeature(&VkPhysicalDeviceFeatures::tessellationShader, "tessellationShader");
    middle_.push_back({m.stage, createModule(d, m.code, m.bytes)});
    pushStages_ |= m.stage;
  }
  vs_ = createModule(d, vs, vsBytes);
  fs_ = createModule(d, fs, fsBytes);
  createLayout(pushConstantBytes, VK_NULL_HANDLE);
}

void GraphicsProgram::createLayout(uint32_t pushConstantBytes, VkDescriptorSetLayout setLayout) {
  Device& d = d_;
  VkPushConstantRange pcr{pushStages_, 0, pushConstantBytes};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = pushConstantBytes ? 1 : 0;
  plci.pPushConstantRanges = &pcr;
  plci.setLayoutCount = setLayout ? 1 : 0;
  plci.pSetLayouts = &setLayout;
  BENCH_VK(d.vk.CreatePipelineLayout(d.device, &plci, nullptr, &layout_));
  auto& vk = d.vk;
  VkDevice dev = d.device;
  VkPipelineLayout layout = layout_;
  d.onDestroy([&vk, dev, layout] { vk.DestroyPipelineLayout(dev, layout, nullptr); });
}

VkPipeline GraphicsProgram::createUntracked(const PipelineState& s, const VkSpecializationInfo* spec,
                                            VkPipelineCache cache) {
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs_});
  for (const auto& [stage, module] : middle_)
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, module});
  stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs_});
  for (auto& st : stages) {
    st.pName = "main";
    st.pSpecializationInfo = spec;
  }
  VkVertexInputBindingDescription binding{0, s.vertexStride, VK_VERTEX_INPUT_RATE_VERTEX};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  if (s.vertexStride) {
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &binding;
    vi.vertexAttributeDescriptionCount = uint32_t(s.attributes.size());
    vi.pVertexAttributeDescriptions = s.attributes.data();
  }
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = s.topology;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  ts.patchControlPoints = s.patchControlPoints;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = s.samples;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = s.depth;
  ds.depthWriteEnable = s.depth;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState att{};
  att.blendEnable = s.blend;
  att.srcColorBlendFactor = att.srcAlphaBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
  att.dstColorBlendFactor = att.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  att.colorBlendOp = att.alphaBlendOp = VK_BLEND_OP_ADD;
  if (s.additive) {
    att.blendEnable = VK_TRUE;
    att.srcColorBlendFactor = att.srcAlphaBlendFactor = att.dstColorBlendFactor = att.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  }
  att.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                       VK_COLOR_COMPONENT_A_BIT;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &att;
  const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dyn.dynamicStateCount = 2;
  dyn.pDynamicStates = dynamic;
  const VkFormat colorFormat = kColorFormat;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = 1;
  rendering.pColorAttachmentFormats = &colorFormat;
  rendering.depthAttachmentFormat = s.depth ? kDepthFormat : VK_FORMAT_UNDEFINED;

  VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  ci.pNext = &rendering;
  ci.stageCount = uint32_t(stages.size());
  ci.pStages = stages.data();
  ci.pVertexInputState = &vi;
  ci.pInputAssemblyState = &ia;
  ci.pTessellationState = s.patchControlPoints ? &ts : nullptr;
  ci.pViewportState = &vp;
  ci.pRasterizationState = &rs;
  ci.pMultisampleState = &ms;
  ci.pDepthStencilState = &ds;
  ci.pColorBlendState = &cb;
  ci.pDynamicState = &dyn;
  ci.layout = layout_;
  VkPipeline p = VK_NULL_HANDLE;
  VkResult r = d_.vk.CreateGraphicsPipelines(d_.device, cache, 1, &ci, nullptr, &p);
  if (r != VK_SUCCESS) throw Unsupported(std::string("vkCreateGraphicsPipelines returned ") + resultName(r));
  return p;
}

VkPipeline GraphicsProgram::pipeline(const PipelineState& s, const VkSpecializationInfo* spec, VkPipelineCache cache) {
  VkPipeline p = createUntracked(s, spec, cache);
  auto& vk = d_.vk;
  VkDevice dev = d_.device;
  d_.onDestroy([&vk, dev, p] { vk.DestroyPipeline(dev, p, nullptr); });
  return p;
}

void GraphicsProgram::push(VkCommandBuffer cb, const void* data) const {
  d_.vk.CmdPushConstants(cb, layout_, pushStages_, 0, pushBytes_, data);
}

VkDescriptorSetLayout createSampledImageSet(Device& d, VkImageView view, VkSampler sampler, VkDescriptorSet* set) {
  auto& vk = d.vk;
  VkDevice dev = d.device;
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                       nullptr};
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  lci.bindingCount = 1;
  lci.pBindings = &binding;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  BENCH_VK(vk.CreateDescriptorSetLayout(dev, &lci, nullptr, &layout));
  d.onDestroy([&vk, dev, layout] { vk.DestroyDescriptorSetLayout(dev, layout, nullptr); });

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pci.maxSets = 1;
  pci.poolSizeCount = 1;
  pci.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  BENCH_VK(vk.CreateDescriptorPool(dev, &pci, nullptr, &pool));
  d.onDestroy([&vk, dev, pool] { vk.DestroyDescriptorPool(dev, pool, nullptr); });
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &layout;
  BENCH_VK(vk.AllocateDescriptorSets(dev, &ai, set));
  VkDescriptorImageInfo info{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  w.dstSet = *set;
  w.descriptorCount = 1;
  w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  w.pImageInfo = &info;
  vk.UpdateDescriptorSets(dev, 1, &w, 0, nullptr);
  return layout;
}

uint32_t colorOf(uint32_t i) { return (mix32(i * 0x9e3779b9u + 0x632be5abu) & 0x00FFFFFFu) | 0xFF000000u; }

VkClearColorValue clearColorOf(uint32_t rgba) {
  VkClearColorValue v{};
  for (int c = 0; c < 4; ++c) v.float32[c] = float((rgba >> (8 * c)) & 0xFF) / 255.0f;
  return v;
}

namespace {
std::string pixelMismatch(uint32_t x, uint32_t y, uint32_t c, int got, double want) {
  return "pixel (" + std::to_string(x) + "," + std::to_string(y) + ") channel " + std::to_string(c) + " is " +
         std::to_string(got) + ", expected " + std::to_string(want);
}
}  // namespace

std::string checkUniform(const Buffer& image, uint32_t width, uint32_t height, uint32_t rgba, int tolerance) {
  const auto* p = image.as<const uint8_t>();
  for (uint64_t i = 0; i < uint64_t(width) * height; ++i)
    for (uint32_t c = 0; c < 4; ++c) {
      int want = int((rgba >> (8 * c)) & 0xFF);
      if (std::abs(int(p[i * 4 + c]) - want) > tolerance)
        return pixelMismatch(uint32_t(i % width), uint32_t(i / width), c, p[i * 4 + c], want);
    }
  return "";
}

std::string checkImage(const Buffer& image, uint32_t width, uint32_t height,
                       const std::function<double(uint32_t, uint32_t, uint32_t)>& expected, double tolerance,
                       uint32_t step) {
  const auto* p = image.as<const uint8_t>();
  for (uint64_t i = 0; i < uint64_t(width) * height; i += step) {
    uint32_t x = uint32_t(i % width), y = uint32_t(i / width);
    for (uint32_t c = 0; c < 4; ++c) {
      double want = expected(x, y, c);
      if (std::fabs(double(p[i * 4 + c]) - want) > tolerance) return pixelMismatch(x, y, c, p[i * 4 + c], want);
    }
  }
  return "";
}

std::vector<SmallTriangle> smallTriangles(uint32_t count, uint32_t width, uint32_t height,
                                          VkSampleCountFlagBits samples, uint64_t seed, TriangleSizes sizes) {
  const SampleOffsets so = sampleOffsets(samples);
  const int reach = sizes.reach * kSubpixel;
  const int64_t minArea2 = int64_t(2) * sizes.minArea * kSubpixel * kSubpixel;
  const int64_t maxArea2 = int64_t(2) * sizes.maxArea * kSubpixel * kSubpixel;
  std::vector<SmallTriangle> tris;
  tris.reserve(count);
  Rng rng(seed);
  while (tris.size() < count) {
    SmallTriangle t;
    // Centres at least reach + 4 px inside the target: the whole triangle is on it.
    const int margin = reach + 4 * kSubpixel;
    const int cx = rng.range(margin, int(width) * kSubpixel - margin);
    const int cy = rng.range(margin, int(height) * kSubpixel - margin);
    for (int k = 0; k < 3; ++k) {
      t.x[k] = cx + rng.range(-reach, reach);
      t.y[k] = cy + rng.range(-reach, reach);
    }
    const int64_t area2 = std::llabs(int64_t(t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) -
                                     int64_t(t.y[1] - t.y[0]) * (t.x[2] - t.x[0]));
    if (area2 < minArea2 || area2 > maxArea2) continue;
    if (!rasterize(t, width, height, so, [](uint64_t, int) {})) continue;  // a sample on an edge
    t.rgba = colorOf(uint32_t(tris.size()));
    tris.push_back(t);
  }
  return tris;
}

float smallTriangleDepth(uint32_t i, uint32_t count) {
  int k = 1;
  while ((uint64_t(1) << k) < uint64_t(count) + 2) ++k;
  return std::ldexp(float(i + 1), -k);  // (i + 1) / 2^k < 1 (the clear value), exact
}

std::vector<ColorVertex> smallTriangleVertices(const std::vector<SmallTriangle>& tris, bool frontToBack) {
  const uint32_t n = uint32_t(tris.size());
  std::vector<ColorVertex> v;
  v.reserve(size_t(n) * 3);
  for (uint32_t j = 0; j < n; ++j) {
    const uint32_t i = frontToBack ? j : n - 1 - j;
    const float z = smallTriangleDepth(i, n);
    for (int k = 0; k < 3; ++k)
      v.push_back({ndc(float(tris[i].x[k]) / kSubpixel), ndc(float(tris[i].y[k]) / kSubpixel), z, tris[i].rgba});
  }
  return v;
}

std::vector<uint16_t> smallTriangleReference(const std::vector<SmallTriangle>& tris, uint32_t width,
                                             uint32_t height, VkSampleCountFlagBits samples, uint32_t clearRgba) {
  const SampleOffsets so = sampleOffsets(samples);
  const uint64_t pixels = uint64_t(width) * height;
  // Triangle 0 is nearest and depths are distinct: a sample shows the first triangle covering it.
  std::vector<uint32_t> owner(pixels * so.count, UINT32_MAX);
  for (uint32_t i = 0; i < tris.size(); ++i)
    rasterize(tris[i], width, height, so, [&](uint64_t pixel, int s) {
      uint32_t& o = owner[pixel * so.count + s];
      if (o == UINT32_MAX) o = i;
    });
  std::vector<uint16_t> sums(pixels * 4, 0);
  for (uint64_t p = 0; p < pixels; ++p)
    for (int s = 0; s < so.count; ++s) {
      const uint32_t o = owner[p * so.count + s];
      const uint32_t rgba = o == UINT32_MAX ? clearRgba : tris[o].rgba;
      for (int c = 0; c < 4; ++c) sums[p * 4 + c] += uint16_t((rgba >> (8 * c)) & 0xFF);
    }
  return sums;
}

}  // namespace bench
