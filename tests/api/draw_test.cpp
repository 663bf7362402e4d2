// Draws through the loader with validation, compared with lavapipe in the same test: one
// instance sees both drivers (VK_DRIVER_FILES lists both manifests), the same scene is rendered
// on each and the images must agree. The scene exercises vertex and index buffers, indexed and
// non-indexed draws, dynamic rendering with load-op clears, dynamic viewport and scissor,
// perspective-correct colour interpolation ("Basic Polygon Rasterization", "Interpolation"),
// the depth test with depth varying across a triangle ("Depth Test") and alpha blending
// ("Blending"). With 4 samples the same scene checks multisample rasterization at the standard
// sample locations ("Multisampling"), the resolve at the end of dynamic rendering
// ("Multisample resolve operations") and an occlusion query's sample count ("Occlusion Queries").
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 64;


struct Vertex {
  float pos[3];
  float color[4];
  float pointSize = 1.0f;  // read by draw_point_size.vert only
};

struct Scene {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::vector<Vertex> vertices;
  bool indexedFirstSix = true;  // triangles: the first 6 vertices by index, the rest plainly
  bool blend = true;            // alpha blending (else plain writes: the driver's direct path)
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;  // 4: rendered multisampled, then resolved
  const char* fragmentShader = "draw_basic_frag";
  bool sampleShading = false;  // enables sampleRateShading (the shader may read gl_SampleID)
  // "Polygon Mode" (LINE and POINT need fillModeNonSolid) and "Culling".
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  // "Line Segments": the pipeline's lineWidth, or with dynamicLineWidth vkCmdSetLineWidth's
  // (the pipeline's is then 1). Widths other than 1 need wideLines.
  float lineWidth = 1.0f;
  bool dynamicLineWidth = false;
  // draw_point_size_vert writes Vertex::pointSize to PointSize (largePoints past 1).
  const char* vertexShader = "draw_basic_vert";
  bool largePoints = false;
};

// Renders `scene` on `pd`; returns kSize x kSize RGBA8 pixels (empty on failure). `occlusion`,
// when given, receives the samples an occlusion query around the draws counted.
std::vector<uint8_t> renderScene(VkPhysicalDevice pd, const Scene& scene, uint64_t* occlusion = nullptr) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  // Precise occlusion counts where the driver offers them (Tessera does; both counts are then
  // exact numbers of samples).
  VkPhysicalDeviceFeatures supported{}, enabled{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  enabled.occlusionQueryPrecise = supported.occlusionQueryPrecise;
  enabled.sampleRateShading = scene.sampleShading;
  if (scene.lineWidth != 1.0f) {
    EXPECT_TRUE(supported.wideLines);
    enabled.wideLines = VK_TRUE;
  }
  if (scene.largePoints) {
    EXPECT_TRUE(supported.largePoints);
    enabled.largePoints = VK_TRUE;
  }
  if (scene.polygonMode != VK_POLYGON_MODE_FILL) {
    EXPECT_TRUE(supported.fillModeNonSolid);
    enabled.fillModeNonSolid = VK_TRUE;
  }
  TestDevice device(pd, &enabled, &v13);
  const VkDevice dev = device.dev;
  if (!dev) return {};
  auto bindImage = [&](VkImage image) { device.bindMemory(image); };
  auto makeBuffer = [&](VkDeviceSize size, VkBufferUsageFlags usage, void** mapped) {
    return device.createMappedBuffer(size, usage, mapped);
  };

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  // Multisampled: `color` is the single-sample resolve target, `msColor` the rendered image.
  const bool multisampled = scene.samples != VK_SAMPLE_COUNT_1_BIT;
  VkImage color, depth, msColor = VK_NULL_HANDLE;
  vkCreateImage(dev, &ici, nullptr, &color);
  bindImage(color);
  ici.samples = scene.samples;
  if (multisampled) {
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    vkCreateImage(dev, &ici, nullptr, &msColor);
    bindImage(msColor);
  }
  ici.format = VK_FORMAT_D32_SFLOAT;
  ici.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  vkCreateImage(dev, &ici, nullptr, &depth);
  bindImage(depth);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.image = color;
  vci.format = VK_FORMAT_R8G8B8A8_UNORM;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView colorView, depthView, msColorView = VK_NULL_HANDLE;
  vkCreateImageView(dev, &vci, nullptr, &colorView);
  if (multisampled) {
    vci.image = msColor;
    vkCreateImageView(dev, &vci, nullptr, &msColorView);
  }
  vci.image = depth;
  vci.format = VK_FORMAT_D32_SFLOAT;
  vci.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
  vkCreateImageView(dev, &vci, nullptr, &depthView);

  // Three triangles: A (z 0.5), B (z 0.3 .. 0.6, so it crosses A's plane), C (z 0.1,
  // half-transparent). Vertices at off-grid sub-pixel positions.
  const uint16_t indices[6] = {0, 1, 2, 3, 4, 5};
  const size_t vertexBytes = scene.vertices.size() * sizeof(Vertex);
  void *vbMap, *ibMap, *rbMap;
  VkBuffer vb = makeBuffer(vertexBytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vbMap);
  VkBuffer ib = makeBuffer(sizeof(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &ibMap);
  VkBuffer readback = makeBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &rbMap);
  std::memcpy(vbMap, scene.vertices.data(), vertexBytes);
  std::memcpy(ibMap, indices, sizeof(indices));

  std::vector<uint32_t> vsCode = loadCorpusShader(scene.vertexShader), fsCode = loadCorpusShader(scene.fragmentShader);
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  VkShaderModule vs, fs;
  smci.codeSize = vsCode.size() * 4;
  smci.pCode = vsCode.data();
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
  VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attrs[3] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12},
                                                {2, 0, VK_FORMAT_R32_SFLOAT, 28}};
  const uint32_t attributeCount = std::string(scene.vertexShader) == "draw_point_size_vert" ? 3 : 2;
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 1, &binding,
                                          attributeCount, attrs};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = scene.topology;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = scene.polygonMode;
  rs.cullMode = scene.cullMode;
  rs.lineWidth = scene.dynamicLineWidth ? 1.0f : scene.lineWidth;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = scene.samples;
  ms.sampleShadingEnable = scene.sampleShading;
  ms.minSampleShading = scene.sampleShading ? 1.0f : 0.0f;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.blendEnable = scene.blend;
  blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend.colorBlendOp = VK_BLEND_OP_ADD;
  blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
  blend.alphaBlendOp = VK_BLEND_OP_ADD;
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkDynamicState dynamics[3] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_LINE_WIDTH};
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0,
                                       scene.dynamicLineWidth ? 3u : 2u, dynamics};
  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat,
                                          VK_FORMAT_D32_SFLOAT, VK_FORMAT_UNDEFINED};
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
  gpci.pDynamicState = &dyn;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
  qpci.queryCount = 1;
  VkQueryPool queries;
  vkCreateQueryPool(dev, &qpci, nullptr, &queries);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdResetQueryPool(cmd, queries, 0, 1);
  auto barrier = [&](VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                     VkAccessFlags dstAccess, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage) {
    imageBarrier(cmd, image, from, to, srcAccess, dstAccess, srcStage, dstStage, {aspect, 0, 1, 0, 1});
  };
  barrier(color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  if (multisampled)
    barrier(msColor, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  barrier(depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, 0,
          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
          VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT);
  VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAtt.imageView = multisampled ? msColorView : colorView;
  colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  if (multisampled) {
    colorAtt.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    colorAtt.resolveImageView = colorView;
    colorAtt.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  colorAtt.clearValue.color = {{0.1f, 0.2f, 0.3f, 1.0f}};
  VkRenderingAttachmentInfo depthAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depthAtt.imageView = depthView;
  depthAtt.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depthAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depthAtt.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depthAtt.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  ri.pDepthAttachment = &depthAtt;
  vkCmdBeginRendering(cmd, &ri);
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{2, 3}, {kSize - 5, kSize - 4}};  // the scissor trims every side but the bottom
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (scene.dynamicLineWidth) vkCmdSetLineWidth(cmd, scene.lineWidth);
  VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
  vkCmdBindIndexBuffer(cmd, ib, 0, VK_INDEX_TYPE_UINT16);
  vkCmdBeginQuery(cmd, queries, 0, enabled.occlusionQueryPrecise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
  if (scene.indexedFirstSix) {
    vkCmdDrawIndexed(cmd, 6, 1, 0, 0, 0);
    vkCmdDraw(cmd, uint32_t(scene.vertices.size()) - 6, 1, 6, 0);
  } else {
    vkCmdDraw(cmd, uint32_t(scene.vertices.size()), 1, 0, 0);
  }
  vkCmdEndQuery(cmd, queries, 0);
  vkCmdEndRendering(cmd);
  barrier(color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), rbMap, pixels.size());
  uint64_t samplesPassed = 0;
  EXPECT_EQ(vkGetQueryPoolResults(dev, queries, 0, 1, sizeof(samplesPassed), &samplesPassed, sizeof(samplesPassed),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  if (occlusion) *occlusion = samplesPassed;
  vkDestroyQueryPool(dev, queries, nullptr);

  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, colorView, nullptr);
  vkDestroyImageView(dev, depthView, nullptr);
  if (multisampled) vkDestroyImageView(dev, msColorView, nullptr), vkDestroyImage(dev, msColor, nullptr);
  vkDestroyImage(dev, color, nullptr);
  vkDestroyImage(dev, depth, nullptr);
  for (VkBuffer b : {vb, ib, readback}) vkDestroyBuffer(dev, b, nullptr);
  return pixels;
}

// Renders `scene` on Tessera and on lavapipe (when installed) through one instance with
// validation; compares the images. maxDifferent: pixels allowed to differ by more than 2/255.
// With 4 samples, also counts the pixels a resolve blended from several colours (neither the
// clear colour nor a fully covered pixel), which must be at least minEdgePixels on Tessera, and
// compares the occlusion query's sample count with lavapipe's within maxSampleCountDifference.
void compareWithLavapipe(const Scene& scene, uint32_t minCovered, uint32_t maxDifferent, uint32_t minEdgePixels = 0,
                         uint64_t maxSampleCountDifference = ~0ull) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  const VkPhysicalDevice tessera = drivers.tessera, lavapipe = drivers.lavapipe;
  ASSERT_NE(tessera, VK_NULL_HANDLE);
  uint64_t ourSamples = 0;
  std::vector<uint8_t> ourImage = renderScene(tessera, scene, &ourSamples);
  ASSERT_EQ(ourImage.size(), size_t(kSize * kSize * 4));
  EXPECT_GT(ourSamples, 0u) << "occlusion query: samples that passed";
  if (minEdgePixels) {
    // The resolve averages partly covered pixels: along every edge the multisampled image
    // differs from the same scene rendered with one sample.
    Scene single = scene;
    single.samples = VK_SAMPLE_COUNT_1_BIT;
    std::vector<uint8_t> singleImage = renderScene(tessera, single);
    ASSERT_EQ(singleImage.size(), ourImage.size());
    uint32_t blended = 0;
    for (size_t i = 0; i < ourImage.size(); i += 4) {
      bool same = true;
      for (int c = 0; c < 4; ++c) same &= std::abs(int(ourImage[i + c]) - int(singleImage[i + c])) <= 2;
      blended += !same;
    }
    EXPECT_GE(blended, minEdgePixels) << "pixels the 4-sample resolve changed";
  }
  auto pixel = [&](const std::vector<uint8_t>& img, int x, int y) { return &img[size_t(y * kSize + x) * 4]; };
  const uint8_t* clearPixel = pixel(ourImage, 0, 0);  // outside the scissor: the clear colour
  EXPECT_NEAR(clearPixel[0], 26, 1);
  EXPECT_NEAR(clearPixel[1], 51, 1);
  EXPECT_NEAR(clearPixel[2], 77, 1);
  if (lavapipe) {
    uint64_t referenceSamples = 0;
    std::vector<uint8_t> reference = renderScene(lavapipe, scene, &referenceSamples);
    ASSERT_EQ(reference.size(), ourImage.size());
    if (maxSampleCountDifference != ~0ull) {
      EXPECT_LE(uint64_t(std::llabs(int64_t(ourSamples) - int64_t(referenceSamples))), maxSampleCountDifference)
          << "occlusion query: Tessera " << ourSamples << " samples, lavapipe " << referenceSamples;
    }
    // Rasterizers may round a depth comparison on the line where B crosses A differently
    // (a pixel or two); colours may differ by the 8-bit interpolation precision.
    uint32_t different = 0, covered = 0;
    std::string firstDifferences;  // reported when more than maxDifferent pixels differ
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint8_t* a = pixel(ourImage, x, y);
        const uint8_t* b = pixel(reference, x, y);
        bool same = true;
        for (int c = 0; c < 4; ++c) same &= std::abs(int(a[c]) - int(b[c])) <= 2;
        different += !same;
        bool background = true;
        for (int c = 0; c < 3; ++c) background &= std::abs(int(b[c]) - int(clearPixel[c])) <= 2;
        covered += !background;
        if (!same && different <= 5)
          firstDifferences += "\npixel (" + std::to_string(x) + ", " + std::to_string(y) + "): Tessera " +
                              std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(a[2]) + "," +
                              std::to_string(a[3]) + " lavapipe " + std::to_string(b[0]) + "," + std::to_string(b[1]) +
                              "," + std::to_string(b[2]) + "," + std::to_string(b[3]);
      }
    EXPECT_GE(covered, minCovered) << "pixels the scene covers (lavapipe)";
    EXPECT_LE(different, maxDifferent) << "pixels that differ from lavapipe by more than 2/255; the first:"
                                       << firstDifferences;
  }
}

TEST(Draw, TrianglesWithDepthAndBlendingMatchLavapipe) {
  // A (z 0.5), B (z 0.3 .. 0.6, so it crosses A's plane), C (z 0.1, half-transparent);
  // vertices at off-grid sub-pixel positions.
  Scene scene;
  scene.vertices = {{{-0.91f, -0.87f, 0.5f}, {1, 0, 0, 1}},   {{0.93f, -0.79f, 0.5f}, {0, 1, 0, 1}},
                    {{0.02f, 0.91f, 0.5f}, {0, 0, 1, 1}},     {{-0.53f, 0.71f, 0.3f}, {1, 1, 0, 1}},
                    {{0.81f, 0.57f, 0.3f}, {0, 1, 1, 1}},     {{0.13f, -0.73f, 0.6f}, {1, 0, 1, 1}},
                    {{-0.79f, 0.23f, 0.1f}, {1, 1, 1, 0.5f}}, {{0.31f, 0.89f, 0.1f}, {1, 1, 1, 0.5f}},
                    {{0.62f, -0.21f, 0.1f}, {0.2f, 0.4f, 1, 0.5f}}};
  compareWithLavapipe(scene, kSize * kSize / 3, 8, 0, 16);
}

TEST(Draw, PointsAndAxisAlignedLinesMatchLavapipe) {
  // "Basic Point Rasterization": 1x1 squares; horizontal and vertical width-1 lines cover the
  // same pixels under the parallelogram (Tessera) and rectangle (lavapipe) rules, with
  // endpoints off the pixel grid so that no tie decides.
  Scene points;
  points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  points.indexedFirstSix = false;
  for (int i = 0; i < 24; ++i) {
    const float x = -0.9f + 0.077f * float(i), y = -0.8f + 0.061f * float((i * 7) % 24);
    points.vertices.push_back({{x, y, 0.4f}, {float(i % 3) * 0.5f, 1.0f - float(i % 5) * 0.2f, 0.3f, 1}});
  }
  compareWithLavapipe(points, 20, 0, 0, 0);
  Scene lines;
  lines.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines.indexedFirstSix = false;
  lines.blend = false;
  for (int i = 0; i < 6; ++i) {
    const float c = -0.83f + 0.29f * float(i);
    lines.vertices.push_back({{-0.87f, c, 0.5f}, {1, 0, 0, 1}});  // horizontal: red to green
    lines.vertices.push_back({{0.79f, c, 0.5f}, {0, 1, 0, 1}});
    lines.vertices.push_back({{c + 0.011f, -0.91f, 0.5f}, {0, 0, 1, 1}});  // vertical, crossing them
    lines.vertices.push_back({{c + 0.011f, 0.88f, 0.3f}, {1, 1, 1, 1}});
  }
  compareWithLavapipe(lines, 300, 6, 0, 8);
}

TEST(Draw, FourSamplesResolvedMatchLavapipe) {
  // The first scene at 4 samples: coverage per sample at the standard locations
  // ("Multisampling"), per-sample depth where B crosses A, blending per sample, then the
  // AVERAGE resolve of dynamic rendering ("Multisample resolve operations").
  Scene scene;
  scene.samples = VK_SAMPLE_COUNT_4_BIT;
  scene.vertices = {{{-0.91f, -0.87f, 0.5f}, {1, 0, 0, 1}},   {{0.93f, -0.79f, 0.5f}, {0, 1, 0, 1}},
                    {{0.02f, 0.91f, 0.5f}, {0, 0, 1, 1}},     {{-0.53f, 0.71f, 0.3f}, {1, 1, 0, 1}},
                    {{0.81f, 0.57f, 0.3f}, {0, 1, 1, 1}},     {{0.13f, -0.73f, 0.6f}, {1, 0, 1, 1}},
                    {{-0.79f, 0.23f, 0.1f}, {1, 1, 1, 0.5f}}, {{0.31f, 0.89f, 0.1f}, {1, 1, 1, 0.5f}},
                    {{0.62f, -0.21f, 0.1f}, {0.2f, 0.4f, 1, 0.5f}}};
  // Every triangle has edges across the image: over 200 partly covered pixels (275 today). The sample
  // counts may differ where B crosses A's plane (depth rounding on a few samples).
  compareWithLavapipe(scene, kSize * kSize / 3, 4, 200, 8);
}

TEST(Draw, PerSampleShadingMatchesLavapipe) {
  // "Sample Shading": sampleShadingEnable with minSampleShading 1 and a shader reading
  // gl_SampleID and gl_SamplePosition: every sample runs its own invocation, so the resolve
  // averages four different colours (red and blue 0.5 inside the triangles).
  Scene scene;
  scene.samples = VK_SAMPLE_COUNT_4_BIT;
  scene.sampleShading = true;
  scene.blend = false;
  scene.fragmentShader = "draw_sample_id_frag";
  scene.vertices = {{{-0.91f, -0.87f, 0.5f}, {1, 0, 0, 1}}, {{0.93f, -0.79f, 0.5f}, {0, 1, 0, 1}},
                    {{0.02f, 0.91f, 0.5f}, {0, 0, 1, 1}},   {{-0.53f, 0.71f, 0.3f}, {1, 1, 0, 1}},
                    {{0.81f, 0.57f, 0.3f}, {0, 1, 1, 1}},   {{0.13f, -0.73f, 0.6f}, {1, 0, 1, 1}}};
  compareWithLavapipe(scene, kSize * kSize / 3, 4, 0, 8);
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) return;
  // Independently of lavapipe: a pixel well inside the first triangle has red and blue 0.5
  // (128 of 255) after the resolve.
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<uint8_t> image = renderScene(drivers.tessera, scene);
  ASSERT_EQ(image.size(), size_t(kSize * kSize * 4));
  const uint8_t* inside = &image[size_t(20 * kSize + 32) * 4];
  EXPECT_NEAR(inside[0], 128, 1) << "red: mean of SampleId / 3";
  EXPECT_NEAR(inside[2], 128, 1) << "blue: mean of the samples' x positions";
}

// The first scene's triangles, which overlap in depth and blend.
std::vector<Vertex> overlappingTriangles() {
  return {{{-0.91f, -0.87f, 0.5f}, {1, 0, 0, 1}},   {{0.93f, -0.79f, 0.5f}, {0, 1, 0, 1}},
          {{0.02f, 0.91f, 0.5f}, {0, 0, 1, 1}},     {{-0.53f, 0.71f, 0.3f}, {1, 1, 0, 1}},
          {{0.81f, 0.57f, 0.3f}, {0, 1, 1, 1}},     {{0.13f, -0.73f, 0.6f}, {1, 0, 1, 1}},
          {{-0.79f, 0.23f, 0.1f}, {1, 1, 1, 0.5f}}, {{0.31f, 0.89f, 0.1f}, {1, 1, 1, 0.5f}},
          {{0.62f, -0.21f, 0.1f}, {0.2f, 0.4f, 1, 0.5f}}};
}

TEST(Draw, PolygonModeLineMatchesLavapipe) {
  // "Polygon Mode": LINE draws the edges of each (clipped, not culled) triangle as width-1 lines
  // with the triangle's interpolated colours, depth-tested and blended. Tessera draws them as
  // non-strict parallelograms and lavapipe as rectangles ("Basic Line Segment Rasterization"
  // allows both); on a slanted edge a width-1 rectangle reaches up to sqrt(2) pixels along
  // the minor axis, so lavapipe draws some pixels beside Tessera's: 36 of ~700 edge pixels
  // here (seen side by side; the colours of the pixels both draw agree).
  Scene scene;
  scene.polygonMode = VK_POLYGON_MODE_LINE;
  scene.vertices = overlappingTriangles();
  compareWithLavapipe(scene, 250, 50, 0, 60);
  // A second triangle list whose odd triangles are clockwise, with back faces culled before
  // the mode applies ("Culling"); gl_FrontFacing is the polygon's (draw_facing.frag inverts the
  // colour of back faces), so with no culling both kinds are drawn, told apart by colour.
  Scene facing;
  facing.polygonMode = VK_POLYGON_MODE_LINE;
  facing.blend = false;
  facing.indexedFirstSix = false;
  facing.fragmentShader = "draw_facing_frag";
  for (int i = 0; i < 4; ++i) {
    const float x = -0.93f + 0.47f * float(i), y = i % 2 ? 0.13f : -0.81f;
    Vertex a{{x, y, 0.4f}, {1, 0.2f, 0, 1}}, b{{x + 0.41f, y + 0.05f, 0.4f}, {0, 1, 0.3f, 1}},
        c{{x + 0.17f, y + 0.63f, 0.4f}, {0.1f, 0, 1, 1}};
    if (i % 2) std::swap(b, c);
    facing.vertices.insert(facing.vertices.end(), {a, b, c});
  }
  compareWithLavapipe(facing, 150, 20, 0, 30);
  facing.cullMode = VK_CULL_MODE_BACK_BIT;
  compareWithLavapipe(facing, 70, 10, 0, 20);
}

TEST(Draw, PolygonModePointMatchesLavapipe) {
  // "Polygon Mode": POINT draws each vertex of the (clipped, not culled) triangles as a point
  // ("Basic Point Rasterization": 1x1 with the PointSize 1.0 the vertex shader writes, which is
  // what both drivers use), with that vertex's colour. No ties: every vertex is off the pixel
  // grid, so the two drivers agree on every pixel.
  Scene scene;
  scene.polygonMode = VK_POLYGON_MODE_POINT;
  scene.blend = false;
  scene.indexedFirstSix = false;
  for (int i = 0; i < 12; ++i) {
    const float x = -0.9f + 0.143f * float(i), y = -0.8f + 0.111f * float((i * 5) % 12);
    Vertex a{{x, y, 0.4f}, {float(i % 3) * 0.5f, 1.0f - float(i % 4) * 0.25f, 0.3f, 1}},
        b{{x + 0.213f, y + 0.071f, 0.4f}, {0.9f, 0.1f, float(i % 2), 1}}, c{{x + 0.052f, y + 0.337f, 0.4f}, {0.2f, 0.6f, 0.9f, 1}};
    if (i % 2) std::swap(b, c);  // odd triangles front-facing, even ones back-facing
    scene.vertices.insert(scene.vertices.end(), {a, b, c});
  }
  compareWithLavapipe(scene, 30, 0, 0, 0);
  scene.cullMode = VK_CULL_MODE_BACK_BIT;  // culled before the mode applies: half the points
  compareWithLavapipe(scene, 15, 0, 0, 0);
}

TEST(Draw, LargePointsWithPointSizeAndPointCoordMatchLavapipe) {
  // "Basic Point Rasterization" with largePoints: each point is a square of the PointSize the
  // vertex stage writes (draw_point_size.vert), centred on the vertex, and PointCoord runs from
  // 0 to 1 across it (draw_point_coord.frag writes it as red and green). Centres and sizes keep
  // the squares' edges off the pixel centres, so both drivers cover the same pixels; PointCoord
  // may differ by the 8-bit rounding.
  Scene scene;
  scene.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  scene.indexedFirstSix = false;
  scene.blend = false;
  scene.largePoints = true;
  scene.vertexShader = "draw_point_size_vert";
  scene.fragmentShader = "draw_point_coord_frag";
  const float sizes[] = {1.0f, 2.5f, 3.0f, 4.75f, 7.0f, 9.5f, 12.25f, 16.0f};
  for (int i = 0; i < 8; ++i) {
    const float x = -0.8f + 0.21f * float(i) + 0.0031f, y = -0.7f + 0.17f * float((i * 3) % 8) + 0.0047f;
    scene.vertices.push_back({{x, y, 0.4f}, {0, 0, 1, 1}, sizes[i]});
  }
  compareWithLavapipe(scene, 300, 0, 0, 0);
  // One 40-pixel point, 1600 pixels of PointCoord.
  Scene big = scene;
  big.vertices = {{{0.03f, -0.02f, 0.4f}, {0, 0, 1, 1}, 40.0f}};
  compareWithLavapipe(big, 1500, 0, 0, 0);
}

TEST(Draw, WideLinesStaticAndDynamicMatchLavapipe) {
  // "Basic Line Segment Rasterization" with wideLines: horizontal and vertical lines of widths
  // 1 to 7.5, where Tessera's non-strict parallelogram and lavapipe's rectangle are the same
  // region; endpoints and edges off the pixel centres, so no tie decides.
  Scene lines;
  lines.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines.indexedFirstSix = false;
  lines.blend = false;
  for (int i = 0; i < 4; ++i) {
    const float c = -0.71f + 0.43f * float(i) + 0.003f;
    lines.vertices.push_back({{-0.87f, c, 0.5f}, {1, 0, 0, 1}});  // horizontal: red to green
    lines.vertices.push_back({{0.79f, c, 0.5f}, {0, 1, 0, 1}});
    lines.vertices.push_back({{c + 0.011f, -0.91f, 0.5f}, {0, 0, 1, 1}});  // vertical, crossing them
    lines.vertices.push_back({{c + 0.011f, 0.88f, 0.3f}, {1, 1, 1, 1}});
  }
  for (const float width : {3.0f, 5.5f, 7.5f}) {
    SCOPED_TRACE(width);
    lines.lineWidth = width;
    lines.dynamicLineWidth = false;
    compareWithLavapipe(lines, uint32_t(250 * width), 0, 0, 0);
    lines.dynamicLineWidth = true;  // vkCmdSetLineWidth, the pipeline's lineWidth 1
    compareWithLavapipe(lines, uint32_t(250 * width), 0, 0, 0);
  }
}

}  // namespace
}  // namespace tessera_test
