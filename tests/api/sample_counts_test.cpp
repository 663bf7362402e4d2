// Every sample count Tessera reports (framebufferColorSampleCounts: 1, 2, 4, 8 and 16) through
// the loader with validation, each image checked against values computed here from the spec
// (lavapipe offers only 1 and 4 samples, so it cannot be the oracle for the others):
// - coverage: triangles drawn white into a multisampled R32G32B32A32_SFLOAT attachment cleared
//   to zero, resolved with VK_RESOLVE_MODE_AVERAGE_BIT: each pixel is the share of its samples
//   the triangles cover ("Multisampling", Table "Standard sample locations"; the coverage rule
//   of "Basic Polygon Rasterization" with its tie-break, written out below; "Multisample
//   resolve operations"), and an occlusion query counts exactly the covered samples
//   ("Occlusion Queries", precise);
// - "Sample Shading": gl_SampleID and gl_SamplePosition of every sample's own invocation;
// - interpolateAtSample ("Interpolation Functions"): an input evaluated at a sample's location;
// - VK_EXT_sample_locations: the same three at the application's own locations, given by the
//   pipeline (VkPipelineSampleLocationsStateCreateInfoEXT) or by vkCmdSetSampleLocationsEXT.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;  // the viewport: x_f = 16 x_d + 16, exact for these corners

// The spec's table in sixteenths of a pixel from the pixel's top-left corner.
struct CountTable {
  VkSampleCountFlagBits samples;
  int location[16][2];
};
constexpr CountTable kTables[] = {
    {VK_SAMPLE_COUNT_1_BIT, {{8, 8}}},
    {VK_SAMPLE_COUNT_2_BIT, {{12, 12}, {4, 4}}},
    {VK_SAMPLE_COUNT_4_BIT, {{6, 2}, {14, 6}, {2, 10}, {10, 14}}},
    {VK_SAMPLE_COUNT_8_BIT, {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}}},
    {VK_SAMPLE_COUNT_16_BIT, {{9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3}, {6, 14}, {8, 1},
                              {4, 2}, {2, 12}, {0, 8}, {15, 4}, {14, 15}, {1, 0}}},
};

// A triangle in framebuffer coordinates, in 1/256 pixel (the sub-pixel precision Tessera
// reports, subPixelPrecisionBits 8, so the corners are exact after the viewport transform).
struct Triangle {
  int64_t x[3], y[3];
};

// "Basic Polygon Rasterization": sample (sx, sy) is covered when it lies inside the triangle, a
// sample on an edge when the triangle's interior is to its right (+x), or below it (+y) for a
// horizontal edge (the tie-break Tessera states, checked here as the limit of a point nudged
// by (e, e^2) for a tiny e > 0).
bool covers(const Triangle& t, int64_t sx, int64_t sy) {
  const int64_t orient = (t.x[1] - t.x[0]) * (t.y[2] - t.y[0]) - (t.y[1] - t.y[0]) * (t.x[2] - t.x[0]);
  if (orient == 0) return false;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const int64_t ex = t.x[j] - t.x[i], ey = t.y[j] - t.y[i];
    const int64_t e0 = ex * (sy - t.y[i]) - ey * (sx - t.x[i]);
    const int sign = e0 != 0 ? (e0 > 0 ? 1 : -1) : ey != 0 ? (ey < 0 ? 1 : -1) : (ex > 0 ? 1 : -1);
    if (sign != (orient > 0 ? 1 : -1)) return false;
  }
  return true;
}

// What differs between these tests' pipelines; the rest is shared: no vertex input, a triangle
// list, one kSize x kSize viewport and scissor, filled and not culled.
struct PipelineParts {
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  const void* next = nullptr;               // VkPipelineRenderingCreateInfo (dynamic rendering)
  VkRenderPass renderPass = VK_NULL_HANDLE;  // or a render pass and subpass
  uint32_t subpass = 0;
  const void* multisampleNext = nullptr;     // VkPipelineSampleLocationsStateCreateInfoEXT
  const VkSpecializationInfo* fragmentSpecialization = nullptr;
  const VkPipelineDepthStencilStateCreateInfo* depthStencil = nullptr;
  const VkPipelineColorBlendStateCreateInfo* colorBlend = nullptr;  // null: no colour attachment
  const VkPipelineDynamicStateCreateInfo* dynamic = nullptr;
};

VkPipeline createPipeline(VkDevice dev, VkPipelineLayout layout, VkShaderModule vs, VkShaderModule fs, const PipelineParts& p) {
  VkPipelineShaderStageCreateInfo stageInfos[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main",
       p.fragmentSpecialization}};
  VkPipelineVertexInputStateCreateInfo vertexInput{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport fullViewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D fullScissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo viewportState{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1,
                                                  &fullViewport, 1, &fullScissor};
  VkPipelineRasterizationStateCreateInfo rasterization{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rasterization.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, p.multisampleNext};
  multisample.rasterizationSamples = p.samples;
  const VkPipelineColorBlendStateCreateInfo noColor{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, p.next};
  info.stageCount = 2;
  info.pStages = stageInfos;
  info.pVertexInputState = &vertexInput;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewportState;
  info.pRasterizationState = &rasterization;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = p.depthStencil;
  info.pColorBlendState = p.colorBlend ? p.colorBlend : &noColor;
  info.pDynamicState = p.dynamic;
  info.layout = layout;
  info.renderPass = p.renderPass;
  info.subpass = p.subpass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline), VK_SUCCESS);
  return pipeline;
}

enum class Shader { White, PerSample, AtSample };

// VK_EXT_sample_locations for a draw: the locations (one per sample, a 1x1 grid), given by the
// pipeline or, with `dynamic`, by vkCmdSetSampleLocationsEXT.
struct CustomLocations {
  std::vector<VkSampleLocationEXT> locations;
  bool dynamic = false;
};

// The resolved RGBA float image of `triangles` drawn with `samples` samples (at `custom`'s
// locations when given); `occlusion` receives the precise occlusion count. Empty on failure.
std::vector<float> render(VkPhysicalDevice pd, VkSampleCountFlagBits samples, Shader shader,
                          const std::vector<Triangle>& triangles, uint64_t* occlusion, const CustomLocations* custom = nullptr) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.sampleRateShading = shader != Shader::White;
  features.occlusionQueryPrecise = VK_TRUE;
  std::vector<const char*> extensions;
  if (custom) extensions.push_back(VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME);
  TestDevice device(pd, &features, &v13, extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  const bool multisampled = samples != VK_SAMPLE_COUNT_1_BIT;
  const TestDevice::Attachment resolved = device.createAttachment(
      format, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const TestDevice::Attachment target =
      multisampled ? device.createAttachment(format, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT, samples)
                   : resolved;
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  const char* fragmentName = shader == Shader::White       ? "sample_counts_white_frag"
                             : shader == Shader::PerSample ? "sample_counts_per_sample_frag"
                                                           : "sample_counts_at_sample_frag";
  VkShaderModule vs = device.createShaderModule(loadCorpusShader("sample_counts_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader(fragmentName));
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, 6 * sizeof(float)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  EXPECT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  const int32_t sampleCount = int32_t(samples);
  VkSpecializationMapEntry entry{0, 0, sizeof(int32_t)};
  VkSpecializationInfo specialization{1, &entry, sizeof(sampleCount), &sampleCount};
  VkSampleLocationsInfoEXT locationsInfo{VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT};
  VkPipelineSampleLocationsStateCreateInfoEXT locationsState{VK_STRUCTURE_TYPE_PIPELINE_SAMPLE_LOCATIONS_STATE_CREATE_INFO_EXT};
  const VkDynamicState dynamicLocations = VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT;
  VkPipelineDynamicStateCreateInfo dynamicState{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicLocations};
  if (custom) {
    locationsInfo.sampleLocationsPerPixel = samples;
    locationsInfo.sampleLocationGridSize = {1, 1};
    locationsInfo.sampleLocationsCount = uint32_t(custom->locations.size());
    locationsInfo.pSampleLocations = custom->locations.data();
    locationsState.sampleLocationsEnable = VK_TRUE;
    locationsState.sampleLocationsInfo = locationsInfo;
    if (custom->dynamic) locationsState.sampleLocationsInfo.pSampleLocations = nullptr, locationsState.sampleLocationsInfo.sampleLocationsCount = 0;
  }
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
  PipelineParts parts;
  parts.samples = samples;
  parts.next = &rendering;
  parts.multisampleNext = custom ? &locationsState : nullptr;
  parts.fragmentSpecialization = shader == Shader::White ? nullptr : &specialization;
  parts.colorBlend = &cb;
  parts.dynamic = custom && custom->dynamic ? &dynamicState : nullptr;
  VkPipeline pipeline = createPipeline(dev, layout, vs, fs, parts);
  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
  qpci.queryCount = 1;
  VkQueryPool queries;
  EXPECT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &queries), VK_SUCCESS);

  VkCommandBuffer cmd = device.beginCommands();
  vkCmdResetQueryPool(cmd, queries, 0, 1);
  for (VkImage image : {resolved.image, target.image}) {
    imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                 VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                 VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
    if (!multisampled) break;  // one image, rendered into directly
  }
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = target.view;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  if (multisampled) {
    color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
    color.resolveImageView = resolved.view;
    color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  }
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &color;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (custom && custom->dynamic) {
    auto setLocations = reinterpret_cast<PFN_vkCmdSetSampleLocationsEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetSampleLocationsEXT"));
    EXPECT_NE(setLocations, nullptr);
    if (setLocations) setLocations(cmd, &locationsInfo);
  }
  vkCmdBeginQuery(cmd, queries, 0, VK_QUERY_CONTROL_PRECISE_BIT);
  for (const Triangle& t : triangles) {
    float ndc[6];
    for (int v = 0; v < 3; ++v) {
      ndc[2 * v] = float(double(t.x[v]) / 256.0 / 16.0 - 1.0);  // exact: a multiple of 2^-12
      ndc[2 * v + 1] = float(double(t.y[v]) / 256.0 / 16.0 - 1.0);
    }
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ndc), ndc);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndQuery(cmd, queries, 0);
  vkCmdEndRendering(cmd);
  imageBarrier(cmd, resolved.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT);
  copyImageToBuffer(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kSize, kSize, readback);
  transferToHostBarrier(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<float> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), readMap, pixels.size() * sizeof(float));
  EXPECT_EQ(vkGetQueryPoolResults(dev, queries, 0, 1, sizeof(*occlusion), occlusion, sizeof(*occlusion),
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  vkDestroyQueryPool(dev, queries, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return pixels;
}

// A triangle covering the whole viewport.
const Triangle kFullScreen = {{0, 3 * kSize * 256, 0}, {0, 0, 3 * kSize * 256}};

TEST(SampleCounts, DeviceReportsEveryCountWithStandardLocations) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(drivers.tessera, &props);
  const VkSampleCountFlags all =
      VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT | VK_SAMPLE_COUNT_16_BIT;
  EXPECT_TRUE(props.limits.standardSampleLocations);
  for (const VkSampleCountFlags counts :
       {props.limits.framebufferColorSampleCounts, props.limits.framebufferDepthSampleCounts,
        props.limits.framebufferStencilSampleCounts, props.limits.framebufferNoAttachmentsSampleCounts,
        props.limits.sampledImageColorSampleCounts, props.limits.sampledImageIntegerSampleCounts,
        props.limits.sampledImageDepthSampleCounts, props.limits.sampledImageStencilSampleCounts,
        props.limits.storageImageSampleCounts})
    EXPECT_EQ(counts, all);
  VkImageFormatProperties ifp;
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
    const VkImageUsageFlags usage = format == VK_FORMAT_D32_SFLOAT_S8_UINT ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                                                                           : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(drivers.tessera, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                       usage | VK_IMAGE_USAGE_SAMPLED_BIT, 0, &ifp),
              VK_SUCCESS);
    EXPECT_EQ(ifp.sampleCounts, all) << format;
  }
}

// The expected resolved coverage of `triangles` with n samples at `location` (sixteenths),
// compared with `image`; adds the expected occlusion count and counts partly covered pixels.
// minPartial: fewer partly covered pixels than this means the image tests too little.
void expectCoverage(const std::vector<float>& image, uint32_t n, const int (*location)[2], const std::vector<Triangle>& triangles,
                    uint64_t occlusion, int minPartial) {
  ASSERT_EQ(image.size(), size_t(kSize * kSize * 4));
  uint64_t expectedOcclusion = 0;
  int partial = 0, wrong = 0;
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x) {
      uint32_t covered = 0;
      for (uint32_t k = 0; k < n; ++k) {
        const int64_t sx = int64_t(x) * 256 + location[k][0] * 16, sy = int64_t(y) * 256 + location[k][1] * 16;
        bool any = false;
        for (const Triangle& t : triangles) {
          const bool in = covers(t, sx, sy);
          expectedOcclusion += in;
          any |= in;
        }
        covered += any;
      }
      partial += covered != 0 && covered != n;
      const float expected = float(covered) / float(n);  // exact: n is a power of two
      const float got = image[(y * kSize + x) * 4];
      if (got != expected && ++wrong <= 5)
        ADD_FAILURE() << "pixel (" << x << ", " << y << "): " << got << ", expected " << covered << "/" << n;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(occlusion, expectedOcclusion);
  EXPECT_GE(partial, n == 1 ? 0 : minPartial) << "pixels only partly covered";
}

// Three triangles with corners off the 1/16 grid of the locations and two on it (so that
// samples lie on edges: the tie-break decides), overlapping (a sample covered twice counts
// twice in the query, once in the image).
const std::vector<Triangle> kTriangles = {
    {{3 * 256 + 37, 29 * 256 + 11, 9 * 256 + 200}, {2 * 256 + 91, 7 * 256 + 3, 27 * 256 + 150}},
    {{12 * 256, 30 * 256, 30 * 256 + 128}, {20 * 256 + 64, 13 * 256 + 16, 30 * 256}},
    {{1 * 256 + 5, 18 * 256 + 250, 2 * 256 + 77}, {25 * 256 + 9, 31 * 256 + 100, 31 * 256 + 200}},
};

TEST(SampleCounts, ResolvedCoverageIsTheShareOfEachPixelsStandardSamples) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const CountTable& table : kTables) {
    const uint32_t n = uint32_t(table.samples);
    SCOPED_TRACE(testing::Message() << n << " samples");
    uint64_t occlusion = 0;
    const std::vector<float> image = render(drivers.tessera, table.samples, Shader::White, kTriangles, &occlusion);
    expectCoverage(image, n, table.location, kTriangles, occlusion, 40);
  }
}

// Inside the full-screen triangle every pixel resolves to the mean over samples k of
// (x_k (k + 1) / n, y_k (k + 1) / n, k / n, 1) (sample_counts_per_sample.frag).
void expectPerSampleMeans(const std::vector<float>& image, uint32_t n, const int (*location)[2], uint64_t occlusion) {
  ASSERT_EQ(image.size(), size_t(kSize * kSize * 4));
  double expected[4] = {0, 0, 0, 1};
  for (uint32_t k = 0; k < n; ++k) {
    const double weight = double(k + 1) / n;
    expected[0] += location[k][0] / 16.0 * weight / n;
    expected[1] += location[k][1] / 16.0 * weight / n;
    expected[2] += double(k) / n / n;
  }
  for (const auto& [x, y] : {std::pair{0u, 0u}, std::pair{13u, 21u}, std::pair{kSize - 1, kSize - 1}})
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(image[(y * kSize + x) * 4 + c], expected[c], 1e-6) << "pixel " << x << "," << y << " component " << c;
  EXPECT_EQ(occlusion, uint64_t(kSize) * kSize * n);
}

// interpolateAtSample(windowPos, 1) and (windowPos, n - 1), less the pixel's corner, are
// those samples' locations in the pixel (sample_counts_at_sample.frag).
void expectAtSampleLocations(const std::vector<float>& image, uint32_t n, const int (*location)[2]) {
  ASSERT_EQ(image.size(), size_t(kSize * kSize * 4));
  const double expected[4] = {location[1][0] / 16.0, location[1][1] / 16.0, location[n - 1][0] / 16.0, location[n - 1][1] / 16.0};
  for (const auto& [x, y] : {std::pair{0u, 0u}, std::pair{13u, 21u}, std::pair{kSize - 1, kSize - 1}})
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(image[(y * kSize + x) * 4 + c], expected[c], 1e-5) << "pixel " << x << "," << y << " component " << c;
}

TEST(SampleCounts, PerSampleShadingSeesEachSamplesIdAndPosition) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const CountTable& table : kTables) {
    const uint32_t n = uint32_t(table.samples);
    if (n == 1) continue;
    SCOPED_TRACE(testing::Message() << n << " samples");
    uint64_t occlusion = 0;
    const std::vector<float> image = render(drivers.tessera, table.samples, Shader::PerSample, {kFullScreen}, &occlusion);
    expectPerSampleMeans(image, n, table.location, occlusion);
  }
}

TEST(SampleCounts, InterpolateAtSampleEvaluatesAtTheStandardLocation) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const CountTable& table : kTables) {
    const uint32_t n = uint32_t(table.samples);
    if (n == 1) continue;  // sample 1 does not exist
    SCOPED_TRACE(testing::Message() << n << " samples");
    uint64_t occlusion = 0;
    expectAtSampleLocations(render(drivers.tessera, table.samples, Shader::AtSample, {kFullScreen}, &occlusion), n, table.location);
  }
}

TEST(SampleCounts, VariableMultisampleRate_SubpassesWithoutAttachmentsDrawAtEachPipelinesCount) {
  // variableMultisampleRate: in a subpass without attachments, pipelines with different
  // rasterizationSamples may be bound one after the other, each drawing at its own count
  // ("Multisampling": the framebuffer without attachments takes the pipeline's samples). A
  // full-screen triangle then passes kSize^2 x n samples: precise occlusion queries around
  // draws at 2 and 16 samples in subpass 0 and at 8 in subpass 1.
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(drivers.tessera, &supported);
  ASSERT_TRUE(supported.variableMultisampleRate);
  VkPhysicalDeviceFeatures features{};
  features.variableMultisampleRate = VK_TRUE;
  features.occlusionQueryPrecise = VK_TRUE;
  TestDevice device(drivers.tessera, &features);
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);

  VkSubpassDescription subpasses[2] = {};
  for (VkSubpassDescription& sp : subpasses) sp.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  VkSubpassDependency dependency{0, 1, VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT, VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT, 0, 0, 0};
  VkRenderPassCreateInfo rpci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
  rpci.subpassCount = 2;
  rpci.pSubpasses = subpasses;
  rpci.dependencyCount = 1;
  rpci.pDependencies = &dependency;
  VkRenderPass renderPass;
  ASSERT_EQ(vkCreateRenderPass(dev, &rpci, nullptr, &renderPass), VK_SUCCESS);
  VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
  fci.renderPass = renderPass;
  fci.width = fci.height = kSize;
  fci.layers = 1;
  VkFramebuffer framebuffer;
  ASSERT_EQ(vkCreateFramebuffer(dev, &fci, nullptr, &framebuffer), VK_SUCCESS);

  VkShaderModule vs = device.createShaderModule(loadCorpusShader("sample_counts_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("no_outputs_frag"));
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, 6 * sizeof(float)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  struct Draw {
    uint32_t subpass;
    VkSampleCountFlagBits samples;
  };
  const Draw draws[3] = {{0, VK_SAMPLE_COUNT_2_BIT}, {0, VK_SAMPLE_COUNT_16_BIT}, {1, VK_SAMPLE_COUNT_8_BIT}};
  VkPipeline pipelines[3] = {};
  for (int i = 0; i < 3; ++i) {
    PipelineParts parts;
    parts.samples = draws[i].samples;
    parts.renderPass = renderPass;
    parts.subpass = draws[i].subpass;
    pipelines[i] = createPipeline(dev, layout, vs, fs, parts);
    ASSERT_NE(pipelines[i], VK_NULL_HANDLE);
  }
  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_OCCLUSION;
  qpci.queryCount = 3;
  VkQueryPool queries;
  ASSERT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &queries), VK_SUCCESS);

  VkCommandBuffer cmd = device.beginCommands();
  vkCmdResetQueryPool(cmd, queries, 0, 3);
  VkRenderPassBeginInfo rpbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  rpbi.renderPass = renderPass;
  rpbi.framebuffer = framebuffer;
  rpbi.renderArea = {{0, 0}, {kSize, kSize}};
  vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  float ndc[6];
  for (int v = 0; v < 3; ++v) {
    ndc[2 * v] = float(double(kFullScreen.x[v]) / 256.0 / 16.0 - 1.0);
    ndc[2 * v + 1] = float(double(kFullScreen.y[v]) / 256.0 / 16.0 - 1.0);
  }
  for (uint32_t i = 0; i < 3; ++i) {
    if (i == 2) vkCmdNextSubpass(cmd, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[i]);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(ndc), ndc);
    vkCmdBeginQuery(cmd, queries, i, VK_QUERY_CONTROL_PRECISE_BIT);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndQuery(cmd, queries, i);
  }
  vkCmdEndRenderPass(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  uint64_t passed[3] = {};
  ASSERT_EQ(vkGetQueryPoolResults(dev, queries, 0, 3, sizeof(passed), passed, sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(passed[i], uint64_t(kSize) * kSize * uint32_t(draws[i].samples)) << "draw " << i;

  vkDestroyQueryPool(dev, queries, nullptr);
  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyFramebuffer(dev, framebuffer, nullptr);
  vkDestroyRenderPass(dev, renderPass, nullptr);
}

// ---- Depth and stencil resolve modes ("Multisample resolve operations").

struct DepthStencilResolved {
  std::vector<float> depth;
  std::vector<uint8_t> stencil;
};

// The left part of the viewport drawn at depth 0.375 with stencil reference 7 (depth test ALWAYS
// with writes, stencil op REPLACE) over a D32_SFLOAT_S8_UINT attachment of `samples` samples
// cleared to depth 1 and stencil 0, resolved at the end of dynamic rendering with `depthMode` and
// `stencilMode` into an image cleared to depth 0.25 and stencil 3 beforehand.
DepthStencilResolved renderDepthStencilResolve(VkPhysicalDevice pd, VkSampleCountFlagBits samples, VkResolveModeFlagBits depthMode,
                                               VkResolveModeFlagBits stencilMode) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const VkFormat format = VK_FORMAT_D32_SFLOAT_S8_UINT;
  const VkImageAspectFlags both = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
  const TestDevice::Attachment ms =
      device.createAttachment(format, kSize, kSize, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, both, samples);
  const TestDevice::Attachment resolved = device.createAttachment(
      format, kSize, kSize,
      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, both);
  void *depthMap, *stencilMap;
  VkBuffer depthBuffer = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &depthMap);
  VkBuffer stencilBuffer = device.createMappedBuffer(kSize * kSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &stencilMap);

  VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_depth_push_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("no_outputs_frag"));
  VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT, 0, 2 * sizeof(float)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  EXPECT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout), VK_SUCCESS);
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_ALWAYS;
  ds.stencilTestEnable = VK_TRUE;
  ds.front = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xFF, 0xFF, 7};
  ds.back = ds.front;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 0, nullptr, format, format};
  PipelineParts parts;
  parts.samples = samples;
  parts.next = &rendering;
  parts.depthStencil = &ds;
  VkPipeline pipeline = createPipeline(dev, layout, vs, fs, parts);

  VkCommandBuffer cmd = device.beginCommands();
  const VkImageSubresourceRange all{both, 0, 1, 0, 1};
  imageBarrier(cmd, resolved.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  const VkClearDepthStencilValue before{0.25f, 3};
  vkCmdClearDepthStencilImage(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &before, 1, &all);
  imageBarrier(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT, all);
  imageBarrier(cmd, ms.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, 0,
               VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
               VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT, all);
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depth.imageView = ms.view;
  depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depth.resolveImageView = resolved.view;
  depth.resolveImageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  depth.clearValue.depthStencil = {1.0f, 0};
  VkRenderingAttachmentInfo stencil = depth;
  depth.resolveMode = depthMode;
  stencil.resolveMode = stencilMode;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.pDepthAttachment = &depth;
  ri.pStencilAttachment = &stencil;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const float push[2] = {0.375f, 0.5f};  // depth, and the left part of the viewport (its diagonal 2x + y = 64)
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push), push);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  imageBarrier(cmd, resolved.image, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
               VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, depthBuffer, 1, &copy);
  copy.imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
  vkCmdCopyImageToBuffer(cmd, resolved.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stencilBuffer, 1, &copy);
  transferToHostBarrier(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  DepthStencilResolved out;
  out.depth.resize(kSize * kSize);
  out.stencil.resize(kSize * kSize);
  std::memcpy(out.depth.data(), depthMap, out.depth.size() * 4);
  std::memcpy(out.stencil.data(), stencilMap, out.stencil.size());
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, depthBuffer, nullptr);
  vkDestroyBuffer(dev, stencilBuffer, nullptr);
  return out;
}

TEST(SampleCounts, DepthAndStencilResolveModesAtEveryCount) {
  // The device offers SAMPLE_ZERO, AVERAGE, MIN and MAX for depth, SAMPLE_ZERO, MIN and MAX for
  // stencil, independently and with NONE for either (VkPhysicalDeviceDepthStencilResolveProperties).
  // Each pixel's samples hold 0.375 / 7 where the triangle covers them (the standard locations
  // left of the diagonal 2x + y = 64, "Basic Polygon Rasterization"'s rule) and 1.0 / 0 elsewhere;
  // the resolved value is sample 0's, the mean, the least or the greatest of them, and an aspect
  // resolved with NONE keeps what the resolve image held.
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceDepthStencilResolveProperties resolveProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &resolveProps};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &props);
  EXPECT_EQ(resolveProps.supportedDepthResolveModes, VkResolveModeFlags(VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT |
                                                                       VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT));
  EXPECT_EQ(resolveProps.supportedStencilResolveModes,
            VkResolveModeFlags(VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT));
  EXPECT_TRUE(resolveProps.independentResolveNone);
  EXPECT_TRUE(resolveProps.independentResolve);
  const Triangle left = {{0, 32 * 256, 0}, {0, 0, 64 * 256}};
  const std::pair<VkResolveModeFlagBits, VkResolveModeFlagBits> modes[] = {
      {VK_RESOLVE_MODE_AVERAGE_BIT, VK_RESOLVE_MODE_MIN_BIT},
      {VK_RESOLVE_MODE_MAX_BIT, VK_RESOLVE_MODE_NONE},
      {VK_RESOLVE_MODE_MIN_BIT, VK_RESOLVE_MODE_MAX_BIT},
      {VK_RESOLVE_MODE_NONE, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT},
  };
  for (const CountTable& table : kTables) {
    const uint32_t n = uint32_t(table.samples);
    if (n == 1) continue;
    for (const auto& [depthMode, stencilMode] : modes) {
      SCOPED_TRACE(testing::Message() << n << " samples, depth mode " << depthMode << ", stencil mode " << stencilMode);
      const DepthStencilResolved got = renderDepthStencilResolve(drivers.tessera, table.samples, depthMode, stencilMode);
      ASSERT_EQ(got.depth.size(), size_t(kSize) * kSize);
      int partial = 0, wrong = 0;
      for (uint32_t y = 0; y < kSize; ++y)
        for (uint32_t x = 0; x < kSize; ++x) {
          double sum = 0, lo = 1, hi = 0;
          uint8_t slo = 255, shi = 0, s0 = 0;
          double z0 = 1;
          uint32_t covered = 0;
          for (uint32_t k = 0; k < n; ++k) {
            const bool in = covers(left, int64_t(x) * 256 + table.location[k][0] * 16, int64_t(y) * 256 + table.location[k][1] * 16);
            const double z = in ? 0.375 : 1.0;
            const uint8_t st = in ? 7 : 0;
            covered += in;
            sum += z, lo = std::min(lo, z), hi = std::max(hi, z);
            slo = std::min(slo, st), shi = std::max(shi, st);
            if (k == 0) z0 = z, s0 = st;
          }
          partial += covered != 0 && covered != n;
          const double depth = depthMode == VK_RESOLVE_MODE_AVERAGE_BIT ? sum / n
                               : depthMode == VK_RESOLVE_MODE_MIN_BIT   ? lo
                               : depthMode == VK_RESOLVE_MODE_MAX_BIT   ? hi
                               : depthMode == VK_RESOLVE_MODE_NONE      ? 0.25
                                                                        : z0;
          const uint8_t st = stencilMode == VK_RESOLVE_MODE_MIN_BIT   ? slo
                             : stencilMode == VK_RESOLVE_MODE_MAX_BIT ? shi
                             : stencilMode == VK_RESOLVE_MODE_NONE    ? 3
                                                                      : s0;
          const float gotDepth = got.depth[y * kSize + x];
          const uint8_t gotStencil = got.stencil[y * kSize + x];
          if ((std::abs(gotDepth - depth) > 1e-6 || gotStencil != st) && ++wrong <= 5)
            ADD_FAILURE() << "pixel (" << x << ", " << y << "): depth " << gotDepth << " stencil " << int(gotStencil) << ", expected "
                          << depth << " and " << int(st) << " (" << covered << "/" << n << " samples covered)";
        }
      EXPECT_EQ(wrong, 0);
      EXPECT_GE(partial, 20) << "pixels only partly covered";
    }
  }
}

// ---- VK_EXT_sample_locations.

TEST(SampleLocations, ExtensionAndPropertiesOfferEveryMultisampledCount) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, extensions.data());
  bool listed = false;
  for (const VkExtensionProperties& e : extensions) listed |= std::string(e.extensionName) == VK_EXT_SAMPLE_LOCATIONS_EXTENSION_NAME;
  EXPECT_TRUE(listed);
  VkPhysicalDeviceSampleLocationsPropertiesEXT locations{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &locations};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &props);
  EXPECT_EQ(locations.sampleLocationSampleCounts,
            VkSampleCountFlags(VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT | VK_SAMPLE_COUNT_16_BIT));
  EXPECT_EQ(locations.maxSampleLocationGridSize.width, 1u);
  EXPECT_EQ(locations.maxSampleLocationGridSize.height, 1u);
  EXPECT_EQ(locations.sampleLocationCoordinateRange[0], 0.0f);
  EXPECT_EQ(locations.sampleLocationCoordinateRange[1], 0.9375f);
  EXPECT_EQ(locations.sampleLocationSubPixelBits, 4u);
  auto multisample = reinterpret_cast<PFN_vkGetPhysicalDeviceMultisamplePropertiesEXT>(
      vkGetInstanceProcAddr(drivers.instance, "vkGetPhysicalDeviceMultisamplePropertiesEXT"));
  ASSERT_NE(multisample, nullptr);
  for (const CountTable& table : kTables) {
    VkMultisamplePropertiesEXT mp{VK_STRUCTURE_TYPE_MULTISAMPLE_PROPERTIES_EXT};
    multisample(drivers.tessera, table.samples, &mp);
    EXPECT_EQ(mp.maxSampleLocationGridSize.width, table.samples == VK_SAMPLE_COUNT_1_BIT ? 0u : 1u) << table.samples;
  }
}

// Random locations in sixteenths for every multisampled count (index 0 of kTables is 1 sample).
struct RandomLocations {
  CountTable table;
  CustomLocations custom;
};
RandomLocations randomLocations(const CountTable& standard, std::mt19937& rng, bool dynamic) {
  RandomLocations r{standard, {}};
  r.custom.dynamic = dynamic;
  for (uint32_t k = 0; k < uint32_t(standard.samples); ++k) {
    r.table.location[k][0] = int(rng() % 16), r.table.location[k][1] = int(rng() % 16);
    r.custom.locations.push_back({r.table.location[k][0] / 16.0f, r.table.location[k][1] / 16.0f});
  }
  return r;
}

TEST(SampleLocations, CoverageIdAndPositionAndInterpolationFollowTheGivenLocations) {
  // Each multisampled count at random locations on the 1/16 grid (samples may share a
  // location, and lie on the pixel's left and top edges), once from the pipeline and once from
  // vkCmdSetSampleLocationsEXT: coverage and occlusion, SamplePosition, interpolateAtSample as
  // the tests above, at those locations ("Sample Locations": they replace the standard ones
  // for rasterization and for the shader's sample positions).
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::mt19937 rng(20261203);
  for (const CountTable& standard : kTables) {
    if (standard.samples == VK_SAMPLE_COUNT_1_BIT) continue;
    for (const bool dynamic : {false, true}) {
      const RandomLocations r = randomLocations(standard, rng, dynamic);
      const uint32_t n = uint32_t(standard.samples);
      SCOPED_TRACE(testing::Message() << n << " samples, " << (dynamic ? "dynamic" : "pipeline") << " locations");
      uint64_t occlusion = 0;
      const std::vector<float> coverage = render(drivers.tessera, standard.samples, Shader::White, kTriangles, &occlusion, &r.custom);
      expectCoverage(coverage, n, r.table.location, kTriangles, occlusion, 10);  // random locations may lie close
      const std::vector<float> perSample = render(drivers.tessera, standard.samples, Shader::PerSample, {kFullScreen}, &occlusion, &r.custom);
      expectPerSampleMeans(perSample, n, r.table.location, occlusion);
      expectAtSampleLocations(render(drivers.tessera, standard.samples, Shader::AtSample, {kFullScreen}, &occlusion, &r.custom), n,
                              r.table.location);
    }
  }
}

}  // namespace
}  // namespace tessera_test
