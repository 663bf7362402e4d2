// Graphics pipeline libraries (VK_KHR_pipeline_library, VK_EXT_graphics_pipeline_library)
// through the loader with validation, on Tessera and on lavapipe in the same test. One pipeline
// (tests/shaders/draw_basic.vert and draw_basic.frag: a vertex buffer of positions and colours,
// a viewport over the left half of the target, alpha blending over a cleared colour) is created
// monolithically and from its four parts ("Graphics Pipeline Libraries": vertex input
// interface, pre-rasterization shaders, fragment shader, fragment output interface) built as
// separate libraries and linked: plainly, with VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT,
// with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT layouts whose sets are NULL where the
// other library's are ("Pipeline Layouts"), with the fragment output given by the linking create
// info itself, through a library made of two libraries, and with libraries that name other
// parts' state dynamic; with a render pass and with dynamic rendering. The libraries' layouts
// and the shader modules are destroyed before the linked pipeline draws (pipeline creation has
// consumed them); the libraries themselves live until the linked pipeline is destroyed
// ("Pipeline Libraries": "The application must maintain the lifetime of a pipeline library
// based on the pipelines that link with it"; Debian 12's validation layer reads freed memory at
// draw time otherwise). Every linked image must equal the monolithic pipeline's on the same
// driver, and Tessera's must match lavapipe's.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkGraphicsPipelineLibraryFlagsEXT kVertexInput = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kPreRaster = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragment = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
constexpr VkGraphicsPipelineLibraryFlagsEXT kFragmentOutput = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;

enum class Build {
  Monolithic,
  Linked,                   // four libraries, linked
  LinkTimeOptimized,        // the same with LINK_TIME_OPTIMIZATION / RETAIN_LINK_TIME_OPTIMIZATION_INFO
  IndependentSets,          // the libraries' layouts hold only their own set, the others NULL
  OwnFragmentOutput,        // three libraries; the linking create info gives the fragment output
  LibraryOfLibraries,       // vertex input + pre-rasterization linked into a library first
  OtherPartsDynamicState,   // the fragment shader and output libraries name the viewport and
                            // scissor (pre-rasterization state) dynamic, which they must ignore
};

struct Case {
  const char* name;
  Build build;
  bool renderPass;  // else dynamic rendering
};

struct Vertex {
  float pos[3];
  float color[4];
};
// Covers the whole viewport, so that no edge of the triangle crosses the image.
constexpr Vertex kVertices[3] = {{{-1, -1, 0}, {1, 0, 0, 1}}, {{3, -1, 0}, {0, 1, 0, 0.5f}}, {{-1, 3, 0}, {0, 0, 1, 0.25f}}};
constexpr float kClear[4] = {0.1f, 0.2f, 0.3f, 1.0f};

// Everything a pipeline of the test is made of; create infos of parts point into it.
struct PipelineState {
  VkPipelineShaderStageCreateInfo stages[2]{};
  VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attributes[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                     {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  VkViewport viewport{0, 0, float(kSize / 2), float(kSize), 0, 1};  // the left half
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  VkPipelineColorBlendAttachmentState blend{VK_TRUE,
                                            VK_BLEND_FACTOR_SRC_ALPHA,
                                            VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
                                            VK_BLEND_OP_ADD,
                                            VK_BLEND_FACTOR_ONE,
                                            VK_BLEND_FACTOR_ZERO,
                                            VK_BLEND_OP_ADD,
                                            0xF};
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  VkFormat format = kFormat;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkRenderPass renderPass = VK_NULL_HANDLE;

  PipelineState(VkShaderModule vs, VkShaderModule fs, VkRenderPass rp) : renderPass(rp) {
    stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"};
    stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"};
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &binding;
    vi.vertexAttributeDescriptionCount = 2;
    vi.pVertexAttributeDescriptions = attributes;
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    vp.viewportCount = vp.scissorCount = 1;
    vp.pViewports = &viewport;
    vp.pScissors = &scissor;
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachmentFormats = &format;
  }

  // A create info with the state of `parts` (all four for a complete pipeline). `next` is
  // chained after the rendering formats.
  VkGraphicsPipelineCreateInfo createInfo(VkGraphicsPipelineLibraryFlagsEXT parts, VkPipelineLayout layout, const void* next) {
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    const bool rasterParts = parts & (kPreRaster | kFragment | kFragmentOutput);
    if (rasterParts && !renderPass) {
      // Only the fragment output part describes attachments; the others give the view mask.
      rendering.colorAttachmentCount = (parts & kFragmentOutput) ? 1 : 0;
      rendering.pNext = next;
      ci.pNext = &rendering;
    } else {
      ci.pNext = next;
    }
    if (rasterParts) ci.renderPass = renderPass;
    if (parts & kVertexInput) {
      ci.pVertexInputState = &vi;
      ci.pInputAssemblyState = &ia;
    }
    if (parts & kPreRaster) {
      ci.pViewportState = &vp;
      ci.pRasterizationState = &rs;
    }
    ci.pStages = (parts & kPreRaster) ? &stages[0] : &stages[1];
    ci.stageCount = uint32_t(bool(parts & kPreRaster)) + uint32_t(bool(parts & kFragment));
    if (parts & kFragment) {
      ci.pDepthStencilState = &ds;
      ci.pMultisampleState = &ms;
    }
    if (parts & kFragmentOutput) {
      ci.pColorBlendState = &cb;
      ci.pMultisampleState = &ms;
    }
    if (parts & (kPreRaster | kFragment)) ci.layout = layout;
    return ci;
  }
};

VkPipeline createPipeline(VkDevice dev, const VkGraphicsPipelineCreateInfo& ci) {
  VkPipeline p = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &p), VK_SUCCESS);
  return p;
}

// A library of `parts`, or a library linking `libraries` (with no parts of its own).
VkPipeline createLibrary(VkDevice dev, PipelineState& state, VkGraphicsPipelineLibraryFlagsEXT parts, VkPipelineLayout layout,
                         VkPipelineCreateFlags flags, const std::vector<VkPipeline>& libraries = {},
                         const VkPipelineDynamicStateCreateInfo* dynamic = nullptr) {
  VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr,
                                      uint32_t(libraries.size()), libraries.data()};
  VkGraphicsPipelineLibraryCreateInfoEXT gpl{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT,
                                             libraries.empty() ? nullptr : &link, parts};
  // Flags of 0 are not valid: a library with no parts of its own leaves the structure out.
  const void* next = parts ? static_cast<const void*>(&gpl) : libraries.empty() ? nullptr : &link;
  VkGraphicsPipelineCreateInfo ci = state.createInfo(parts, layout, next);
  ci.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR | flags;
  ci.pDynamicState = dynamic;
  return createPipeline(dev, ci);
}

// Renders the case on `pd`: the target's pixels (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const Case& c) {
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gplFeatures{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &gplFeatures};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(gplFeatures.graphicsPipelineLibrary);
  if (!gplFeatures.graphicsPipelineLibrary) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &gplFeatures};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13,
                    {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const TestDevice::Attachment target = device.createAttachment(
      kFormat, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  void* vertexMap;
  VkBuffer vertices = device.createMappedBuffer(sizeof(kVertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memcpy(vertexMap, kVertices, sizeof(kVertices));

  VkRenderPass renderPass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  if (c.renderPass) {
    VkAttachmentDescription a{0, kFormat, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                              VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
                              VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sp{0, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, nullptr, 1, &ref};
    VkSubpassDependency dep{0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT};
    VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, nullptr, 0, 1, &a, 1, &sp, 1, &dep};
    EXPECT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
    VkFramebufferCreateInfo fbci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, nullptr, 0, renderPass, 1, &target.view,
                                 kSize, kSize, 1};
    EXPECT_EQ(vkCreateFramebuffer(dev, &fbci, nullptr, &framebuffer), VK_SUCCESS);
  }

  VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  // Layouts: an empty one, or with independent sets a uniform buffer set each library's layout
  // leaves NULL where the other library's set is ("Pipeline Layouts"); the linking layout holds
  // both. Each set's binding is visible to its own library's stage only
  // (VUID-VkGraphicsPipelineCreateInfo-pLibraries-06758).
  auto makeSetLayout = [&](VkShaderStageFlags stages) {
    VkDescriptorSetLayoutBinding ubo{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages};
    VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &ubo};
    VkDescriptorSetLayout l = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &l), VK_SUCCESS);
    return l;
  };
  const VkDescriptorSetLayout vertexSet = makeSetLayout(VK_SHADER_STAGE_VERTEX_BIT);
  const VkDescriptorSetLayout fragmentSet = makeSetLayout(VK_SHADER_STAGE_FRAGMENT_BIT);
  const bool independent = c.build == Build::IndependentSets;
  auto makeLayout = [&](VkDescriptorSetLayout set0, VkDescriptorSetLayout set1) {
    const VkDescriptorSetLayout sets[2] = {set0, set1};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.flags = independent ? VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT : 0;
    plci.setLayoutCount = independent ? 2 : 0;
    plci.pSetLayouts = sets;
    VkPipelineLayout l = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &l), VK_SUCCESS);
    return l;
  };
  VkPipelineLayout linkLayout = makeLayout(vertexSet, fragmentSet);
  VkPipelineLayout preRasterLayout = makeLayout(vertexSet, VK_NULL_HANDLE);
  VkPipelineLayout fragmentLayout = makeLayout(VK_NULL_HANDLE, fragmentSet);

  PipelineState state(vs, fs, renderPass);
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::vector<VkPipeline> libraries, inner;  // destroyed after the pipelines linked from them
  if (c.build == Build::Monolithic) {
    pipeline = createPipeline(dev, state.createInfo(kVertexInput | kPreRaster | kFragment | kFragmentOutput, linkLayout, nullptr));
  } else {
    const VkPipelineCreateFlags libraryFlags =
        c.build == Build::LinkTimeOptimized ? VK_PIPELINE_CREATE_RETAIN_LINK_TIME_OPTIMIZATION_INFO_BIT_EXT : 0;
    libraries.push_back(createLibrary(dev, state, kVertexInput, VK_NULL_HANDLE, libraryFlags));
    libraries.push_back(createLibrary(dev, state, kPreRaster, preRasterLayout, libraryFlags));
    if (c.build == Build::LibraryOfLibraries) {
      const VkPipeline both = createLibrary(dev, state, 0, VK_NULL_HANDLE, libraryFlags, libraries);
      inner = libraries;  // linked into `both`: they live as long as it
      libraries = {both};
    }
    // "Graphics Pipeline Libraries": a library takes the dynamic states of its own parts only,
    // so the pre-rasterization library's static viewport (the left half) must still hold.
    const VkDynamicState viewportStates[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    const VkPipelineDynamicStateCreateInfo viewportDynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 2,
                                                           viewportStates};
    const VkPipelineDynamicStateCreateInfo* otherParts = c.build == Build::OtherPartsDynamicState ? &viewportDynamic : nullptr;
    libraries.push_back(createLibrary(dev, state, kFragment, fragmentLayout, libraryFlags, {}, otherParts));
    VkGraphicsPipelineLibraryFlagsEXT ownParts = 0;
    if (c.build == Build::OwnFragmentOutput) ownParts = kFragmentOutput;
    else libraries.push_back(createLibrary(dev, state, kFragmentOutput, VK_NULL_HANDLE, libraryFlags, {}, otherParts));
    VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr,
                                        uint32_t(libraries.size()), libraries.data()};
    VkGraphicsPipelineLibraryCreateInfoEXT gpl{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT, &link, ownParts};
    VkGraphicsPipelineCreateInfo ci = state.createInfo(ownParts, VK_NULL_HANDLE, ownParts ? static_cast<const void*>(&gpl) : &link);
    ci.layout = linkLayout;
    if (c.build == Build::LinkTimeOptimized) ci.flags |= VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT;
    pipeline = createPipeline(dev, ci);
  }
  vkDestroyPipelineLayout(dev, preRasterLayout, nullptr);
  vkDestroyPipelineLayout(dev, fragmentLayout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  if (!pipeline) return {};

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkClearValue clear{};
  std::memcpy(clear.color.float32, kClear, sizeof(kClear));
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = target.image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  if (c.renderPass) {
    VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, nullptr, renderPass, framebuffer, state.scissor, 1, &clear};
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  } else {
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &b);
    VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    attachment.imageView = target.view;
    attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.clearValue = clear;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = state.scissor;
    ri.layerCount = 1;
    ri.colorAttachmentCount = 1;
    ri.pColorAttachments = &attachment;
    vkCmdBeginRendering(cmd, &ri);
  }
  if (c.build == Build::OtherPartsDynamicState) {
    // A full-target viewport and scissor, set before the pipeline is bound: binding it replaces
    // them with its static ones ("Pipeline Dynamic State"), unless a link wrongly took the other
    // parts' dynamic states. (Debian 12's validation layer counts those states as the linked
    // pipeline's own and wants them set; set before the bind, they satisfy it either way.)
    const VkViewport full{0, 0, float(kSize), float(kSize), 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &full);
    vkCmdSetScissor(cmd, 0, 1, &state.scissor);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  if (c.renderPass) {
    vkCmdEndRenderPass(cmd);
  } else {
    vkCmdEndRendering(cmd);
    b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
  }
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), readMap, pixels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  for (VkPipeline l : libraries) vkDestroyPipeline(dev, l, nullptr);
  for (VkPipeline l : inner) vkDestroyPipeline(dev, l, nullptr);
  vkDestroyPipelineLayout(dev, linkLayout, nullptr);
  vkDestroyDescriptorSetLayout(dev, vertexSet, nullptr);
  vkDestroyDescriptorSetLayout(dev, fragmentSet, nullptr);
  if (framebuffer) vkDestroyFramebuffer(dev, framebuffer, nullptr);
  if (renderPass) vkDestroyRenderPass(dev, renderPass, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  return pixels;
}

TEST(GraphicsPipelineLibrary, LinkedLibrariesDrawAsTheMonolithicPipelineAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Build builds[] = {Build::Linked, Build::LinkTimeOptimized, Build::IndependentSets, Build::OwnFragmentOutput,
                          Build::LibraryOfLibraries, Build::OtherPartsDynamicState};
  const char* names[] = {"linked",       "link-time optimized",  "independent sets",
                         "own fragment output", "library of libraries", "other parts' dynamic state"};
  for (bool renderPass : {false, true}) {
    SCOPED_TRACE(renderPass ? "render pass" : "dynamic rendering");
    const std::vector<uint8_t> monolithic = render(drivers.tessera, {"monolithic", Build::Monolithic, renderPass});
    ASSERT_EQ(monolithic.size(), size_t(kSize * kSize * 4));
    // The viewport is the left half: the right half keeps the clear colour, the left is blended.
    EXPECT_EQ(monolithic[(kSize - 1) * 4], uint8_t(kClear[0] * 255 + 0.5f));
    EXPECT_NE(std::memcmp(&monolithic[0], &monolithic[(kSize - 1) * 4], 4), 0);
    for (int b = 0; b < int(std::size(builds)); ++b) {
      SCOPED_TRACE(names[b]);
      const std::vector<uint8_t> ours = render(drivers.tessera, {names[b], builds[b], renderPass});
      ASSERT_EQ(ours.size(), monolithic.size());
      EXPECT_EQ(ours, monolithic) << "the linked pipeline's image differs from the monolithic pipeline's";
      if (!drivers.lavapipe) continue;
      const std::vector<uint8_t> reference = render(drivers.lavapipe, {names[b], builds[b], renderPass});
      ASSERT_EQ(reference.size(), ours.size());
      int failures = 0;
      for (size_t i = 0; i < ours.size() && failures < 5; ++i)
        if (std::abs(int(ours[i]) - int(reference[i])) > 1) {
          ADD_FAILURE() << "pixel " << i / 4 % kSize << ", " << i / 4 / kSize << " component " << i % 4 << ": Tessera "
                        << int(ours[i]) << ", lavapipe " << int(reference[i]);
          ++failures;
        }
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// "Graphics Pipeline Libraries": a pipeline that is not a library must get all four parts from
// its libraries and itself. Linking only the fragment output part is invalid usage; Tessera
// answers it with an error and no pipeline, never a crash (no layers: the validation layer
// would stop the call).
TEST(GraphicsPipelineLibrary, LinkingWithoutEveryPartIsAnErrorNotACrash) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's answer to invalid usage";
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateInstance(&ici, nullptr, &instance), VK_SUCCESS);
  uint32_t count = 1;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  vkEnumeratePhysicalDevices(instance, &count, &pd);
  ASSERT_NE(pd, VK_NULL_HANDLE);
  {
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
    gpl.graphicsPipelineLibrary = VK_TRUE;
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &gpl};
    v13.dynamicRendering = VK_TRUE;
    TestDevice device(pd, nullptr, &v13, {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME});
    ASSERT_NE(device.dev, VK_NULL_HANDLE);
    PipelineState state(VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    VkPipeline output = createLibrary(device.dev, state, kFragmentOutput, VK_NULL_HANDLE, 0);
    ASSERT_NE(output, VK_NULL_HANDLE);
    VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr, 1, &output};
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &link};
    VkPipeline pipeline = reinterpret_cast<VkPipeline>(uintptr_t(1));  // must come back VK_NULL_HANDLE
    EXPECT_NE(vkCreateGraphicsPipelines(device.dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);
    EXPECT_EQ(pipeline, VK_NULL_HANDLE);
    vkDestroyPipeline(device.dev, output, nullptr);
  }
  vkDestroyInstance(instance, nullptr);
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// "Graphics Pipeline Libraries", graphicsPipelineLibraryFastLinking: the libraries' stages are
// compiled when the libraries are created, so linking them without
// VK_PIPELINE_CREATE_LINK_TIME_OPTIMIZATION_BIT_EXT compiles nothing: with
// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT ("Pipeline Cache Control": fail where
// a compile would be needed) the link succeeds. The stages carry a specialization entry of a
// random value for a constant the shaders do not have (valid, and without effect), so no cache
// of an earlier run can hold them: before fast linking this link returned
// VK_PIPELINE_COMPILE_REQUIRED. (That such a link draws what the monolithic pipeline draws is
// LinkedLibrariesDrawAsTheMonolithicPipelineAndLavapipe's "linked" case.)
TEST(GraphicsPipelineLibrary, FastLinkingNeedsNoCompile) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's fast linking";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const VkPhysicalDevice pd = drivers.tessera;
  VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT gplProps{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &gplProps};
  vkGetPhysicalDeviceProperties2(pd, &props);
  ASSERT_TRUE(gplProps.graphicsPipelineLibraryFastLinking);
  VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
  gpl.graphicsPipelineLibrary = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &gpl};
  v13.dynamicRendering = VK_TRUE;
  v13.pipelineCreationCacheControl = VK_TRUE;
  TestDevice device(pd, nullptr, &v13, {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);

  std::random_device random;
  const uint32_t token = random();
  const VkSpecializationMapEntry entry{77, 0, 4};  // no such constant in draw_basic.*
  const VkSpecializationInfo specialization{1, &entry, 4, &token};
  VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  PipelineState state(vs, fs, VK_NULL_HANDLE);
  state.stages[0].pSpecializationInfo = state.stages[1].pSpecializationInfo = &specialization;

  std::vector<VkPipeline> libraries = {createLibrary(dev, state, kVertexInput, VK_NULL_HANDLE, 0),
                                       createLibrary(dev, state, kPreRaster, layout, 0),
                                       createLibrary(dev, state, kFragment, layout, 0),
                                       createLibrary(dev, state, kFragmentOutput, VK_NULL_HANDLE, 0)};
  for (VkPipeline l : libraries) ASSERT_NE(l, VK_NULL_HANDLE);
  VkPipelineLibraryCreateInfoKHR link{VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR, nullptr, uint32_t(libraries.size()),
                                      libraries.data()};
  VkGraphicsPipelineCreateInfo ci = state.createInfo(0, VK_NULL_HANDLE, &link);
  ci.layout = layout;
  ci.flags = VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
  VkPipeline linked = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &linked), VK_SUCCESS)
      << "the link needed a compile";
  EXPECT_NE(linked, VK_NULL_HANDLE);
  if (linked) vkDestroyPipeline(dev, linked, nullptr);
  for (VkPipeline l : libraries) vkDestroyPipeline(dev, l, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : {vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
}

}  // namespace
}  // namespace tessera_test
