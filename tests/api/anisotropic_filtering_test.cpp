// Anisotropic filtering (samplerAnisotropy, maxSamplerAnisotropy 16) through the loader with
// validation, on Tessera and on lavapipe in the same test. A full-screen triangle
// (tests/shaders/fullscreen.vert, tests/shaders/aniso_plane.frag) samples a mipmapped
// 256x256 RGBA8 texture with implicit LOD, trilinear, at texture coordinates that move
// 16 texels a pixel along one screen axis (the major axis) and 1 texel a pixel along the other:
// every pixel's footprint is 16:1 ("Scale Factor Operation": ρ_max = 16, ρ_min = 1).
//
// The texture: horizontal stripes 4 texel rows high (row j is bright when (j / 4) is even),
// bright rows alternating 128 and 255 from texel to texel along u (mean 191.5), dark rows 0;
// the mip levels are box-filtered averages. The pixel line k (a row of pixels, or a column when
// the major axis is y) samples texel row k exactly at its centre.
//
// What the spec fixes, and the test checks ("Texel Anisotropic Filtering" leaves the scheme
// to the implementation, so no pixel values are compared exactly):
//  - anisotropyEnable with maxAnisotropy 16: η = 16, λ = log2(ρ_max / η) = 0, so the stripes
//    (varying across the minor axis, one texel a pixel) stay sharp, and the N = 16 samples
//    averaged along the major axis give each bright line the texture's mean along u, 191.5/255
//    (a single sample at λ = 0 would give 0.625: u lands a quarter texel off the texel centres);
//  - anisotropyEnable VK_FALSE: isotropic, λ = log2(ρ_max) = 4: level 4 averages 16 rows, both
//    stripes: the lines lose their contrast. The anisotropic image must be much sharper (a test
//    that fails when anisotropy is ignored);
//  - Tessera's line means (mean over the line, what the eye sees of the stripes) match lavapipe's
//    (Mesa 22.3 filters an elliptical footprint with Gaussian weights, Tessera takes the spec's
//    N samples): both are weighted averages over the same footprint, which differ in how they
//    weigh the one-texel-wide minor axis. kLineTolerance says how much that allows.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "tessera/cpu_info.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kTexSize = 256, kLevels = 9;  // 256 .. 1
constexpr uint32_t kTarget = 64;                 // 64x64 pixels
constexpr float kMajorTexelsPerPixel = 16.0f;
constexpr float kBrightMean = (128.0f + 255.0f) / 2 / 255;  // a bright row's mean along u

// Texel (x, y) of level 0, all four channels (A = 255).
uint8_t levelZeroTexel(uint32_t x, uint32_t y) {
  if ((y / 4) % 2 != 0) return 0;
  return x % 2 == 0 ? 128 : 255;
}

// Every level, each texel the rounded mean of the 2x2 texels under it (the mip chain a
// program would generate): level l is (kTexSize >> l)^2 bytes of one channel.
std::vector<std::vector<uint8_t>> mipChain() {
  std::vector<std::vector<uint8_t>> levels(kLevels);
  levels[0].resize(kTexSize * kTexSize);
  for (uint32_t y = 0; y < kTexSize; ++y)
    for (uint32_t x = 0; x < kTexSize; ++x) levels[0][y * kTexSize + x] = levelZeroTexel(x, y);
  for (uint32_t l = 1; l < kLevels; ++l) {
    const uint32_t n = kTexSize >> l, p = n * 2;
    levels[l].resize(n * n);
    const std::vector<uint8_t>& prev = levels[l - 1];
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x) {
        const uint32_t sum = prev[2 * y * p + 2 * x] + prev[2 * y * p + 2 * x + 1] + prev[(2 * y + 1) * p + 2 * x] +
                             prev[(2 * y + 1) * p + 2 * x + 1];
        levels[l][y * n + x] = uint8_t((sum + 2) / 4);
      }
  }
  return levels;
}

// The texture-coordinate map of aniso_plane.frag: s = u·(x, y, 1), t = v·(x, y, 1).
struct Mapping {
  float u[4], v[4];
};

// u moves 16 texels a pixel along the screen axis `majorAlongX` names (a quarter texel off the
// texel centres), v one texel a pixel along the other, so that pixel line k samples the centre
// of texel row k.
Mapping anisotropicMapping(bool majorAlongX) {
  const float major = kMajorTexelsPerPixel / kTexSize, minor = 1.0f / kTexSize;
  Mapping m{};
  m.u[majorAlongX ? 0 : 1] = major;
  m.u[2] = 0.25f / kTexSize;
  m.v[majorAlongX ? 1 : 0] = minor;
  return m;
}

struct Scene {
  const char* name;
  bool majorAlongX;
  bool anisotropy;  // VkSamplerCreateInfo::anisotropyEnable (maxAnisotropy 16)
};

// Renders `scene` on `pd`; the R channel of every pixel, row-major (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const Scene& scene) {
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(pd, &properties);
  EXPECT_TRUE(supported.samplerAnisotropy) << properties.deviceName;
  EXPECT_GE(properties.limits.maxSamplerAnisotropy, 16.0f) << properties.deviceName;
  if (!supported.samplerAnisotropy || properties.limits.maxSamplerAnisotropy < 16.0f) return {};
  VkPhysicalDeviceFeatures features{};
  features.samplerAnisotropy = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, &features, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  // The texture, every level uploaded from one staging buffer.
  const std::vector<std::vector<uint8_t>> chain = mipChain();
  VkDeviceSize stagingSize = 0;
  for (const auto& level : chain) stagingSize += level.size() * 4;
  void* stagingMap;
  VkBuffer staging = device.createMappedBuffer(stagingSize, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &stagingMap);
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize offset = 0;
  for (uint32_t l = 0; l < kLevels; ++l) {
    uint8_t* texels = static_cast<uint8_t*>(stagingMap) + offset;
    for (size_t i = 0; i < chain[l].size(); ++i) {
      texels[4 * i] = texels[4 * i + 1] = texels[4 * i + 2] = chain[l][i];
      texels[4 * i + 3] = 255;
    }
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
    region.imageExtent = {kTexSize >> l, kTexSize >> l, 1};
    regions.push_back(region);
    offset += chain[l].size() * 4;
  }
  VkImageCreateInfo tci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  tci.imageType = VK_IMAGE_TYPE_2D;
  tci.format = VK_FORMAT_R8G8B8A8_UNORM;
  tci.extent = {kTexSize, kTexSize, 1};
  tci.mipLevels = kLevels;
  tci.arrayLayers = 1;
  tci.samples = VK_SAMPLE_COUNT_1_BIT;
  tci.tiling = VK_IMAGE_TILING_OPTIMAL;
  tci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage texture;
  vkCreateImage(dev, &tci, nullptr, &texture);
  device.bindMemory(texture);
  VkImageViewCreateInfo tvci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  tvci.image = texture;
  tvci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  tvci.format = tci.format;
  tvci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
  VkImageView textureView;
  vkCreateImageView(dev, &tvci, nullptr, &textureView);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sci.anisotropyEnable = scene.anisotropy ? VK_TRUE : VK_FALSE;
  sci.maxAnisotropy = 16.0f;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);

  // The colour target and its readback.
  VkImageCreateInfo ici = tci;
  ici.extent = {kTarget, kTarget, 1};
  ici.mipLevels = 1;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage target;
  vkCreateImage(dev, &ici, nullptr, &target);
  device.bindMemory(target);
  VkImageViewCreateInfo vci = tvci;
  vci.image = target;
  vci.subresourceRange.levelCount = 1;
  VkImageView targetView;
  vkCreateImageView(dev, &vci, nullptr, &targetView);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kTarget * kTarget * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  // Descriptors and the pipeline.
  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                       nullptr};
  VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dlci, nullptr, &setLayout);
  VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Mapping)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &setLayout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &pool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  VkDescriptorImageInfo imageInfo{sampler, textureView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1,
                             VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &imageInfo};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("aniso_plane_frag"));
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewport{0, 0, float(kTarget), float(kTarget), 0, 1};
  VkRect2D scissor{{0, 0}, {kTarget, kTarget}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1,
                                       &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &ici.format};
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
  VkCommandPool cmdPool;
  vkCreateCommandPool(dev, &cpci, nullptr, &cmdPool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmdPool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier toTransfer{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toTransfer.srcQueueFamilyIndex = toTransfer.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toTransfer.image = texture;
  toTransfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
  toTransfer.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toAttachment.image = target;
  toAttachment.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toAttachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toAttachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  const VkImageMemoryBarrier before[2] = {toTransfer, toAttachment};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 2, before);
  vkCmdCopyBufferToImage(cmd, staging, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()),
                         regions.data());
  VkImageMemoryBarrier toSampled = toTransfer;
  toSampled.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  toSampled.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  toSampled.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  toSampled.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toSampled);
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = targetView;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  const Mapping mapping = anisotropicMapping(scene.majorAlongX);
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(mapping), &mapping);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  VkImageMemoryBarrier toRead = toAttachment;
  toRead.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toRead.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  toRead.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toRead.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toRead);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kTarget, kTarget, 1};
  vkCmdCopyImageToBuffer(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> red(kTarget * kTarget);
  for (size_t i = 0; i < red.size(); ++i) red[i] = static_cast<const uint8_t*>(readMap)[4 * i];

  vkDestroyCommandPool(dev, cmdPool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyDescriptorPool(dev, pool, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, targetView, nullptr);
  vkDestroyImageView(dev, textureView, nullptr);
  vkDestroyImage(dev, target, nullptr);
  vkDestroyImage(dev, texture, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, staging, nullptr);
  return red;
}

// The mean of pixel line k (row k, or column k when the major axis is y), in [0, 1]: the mean
// along the major axis, where the anisotropic filter averages.
std::vector<double> lineMeans(const std::vector<uint8_t>& red, bool majorAlongX) {
  std::vector<double> means(kTarget, 0.0);
  for (uint32_t k = 0; k < kTarget; ++k) {
    for (uint32_t i = 0; i < kTarget; ++i) means[k] += red[majorAlongX ? k * kTarget + i : i * kTarget + k];
    means[k] /= 255.0 * kTarget;
  }
  return means;
}

// Lines that sample the middle two rows of a stripe (texel rows 4n + 1, 4n + 2), whose
// neighbours one texel away belong to the same stripe.
bool interiorLine(uint32_t k) { return k % 4 == 1 || k % 4 == 2; }
bool brightLine(uint32_t k) { return (k / 4) % 2 == 0; }

// The stripes' contrast: the mean of the bright interior lines minus that of the dark ones.
double contrast(const std::vector<double>& means) {
  double bright = 0, dark = 0;
  uint32_t brightCount = 0, darkCount = 0;
  for (uint32_t k = 0; k < kTarget; ++k) {
    if (!interiorLine(k)) continue;
    if (brightLine(k)) bright += means[k], ++brightCount;
    else dark += means[k], ++darkCount;
  }
  return bright / brightCount - dark / darkCount;
}

// What the spec fixes of an anisotropic image, on any driver (see the top of the file): the
// stripes sharp, each bright interior line the texture's mean along u, each dark one black.
// The tolerance: 16 samples spaced 16/17 texel apart over a 2-texel period average to within
// 1/17 of the mean, 8-bit results and the filters' weights add 1/255 each.
void expectSharpAveragedStripes(const std::vector<double>& means, const std::string& what) {
  for (uint32_t k = 0; k < kTarget; ++k) {
    if (!interiorLine(k)) continue;
    const double want = brightLine(k) ? kBrightMean : 0.0;
    EXPECT_NEAR(means[k], want, 0.04) << what << ": line " << k;
  }
}

// Line means of Tessera's and lavapipe's anisotropic images may differ by this much: interior
// lines only by the averaging along u (as above, twice); lines at a stripe's edge also by how
// each weighs the neighbouring texel row across the one-texel minor axis, which Tessera's
// bilinear samples at the row's centre give weight 0 and lavapipe's Gaussian footprint about a
// fifth (measured with Mesa 22.3.6: Tessera 193/255 on every bright line, lavapipe 192/255 inside
// a stripe and 154/255 on its edge rows, 38/255 on a dark stripe's edge rows). The edge
// tolerance allows a neighbour weight up to a third.
constexpr double kInteriorLineTolerance = 0.06;
constexpr double kEdgeLineTolerance = 0.25;

class AnisotropicFiltering : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  }
};

TEST_F(AnisotropicFiltering, SixteenToOneFootprintsStaySharpAndMatchLavapipe) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (bool majorAlongX : {true, false}) {
    const std::string axis = majorAlongX ? "major axis x" : "major axis y";
    SCOPED_TRACE(axis);
    const std::vector<uint8_t> aniso = render(drivers.tessera, {"anisotropic", majorAlongX, true});
    const std::vector<uint8_t> iso = render(drivers.tessera, {"isotropic", majorAlongX, false});
    ASSERT_EQ(aniso.size(), size_t(kTarget * kTarget));
    ASSERT_EQ(iso.size(), size_t(kTarget * kTarget));
    const std::vector<double> anisoMeans = lineMeans(aniso, majorAlongX), isoMeans = lineMeans(iso, majorAlongX);
    expectSharpAveragedStripes(anisoMeans, "Tessera, anisotropic");
    // Isotropic: λ = 4, level 4 blends 16 texel rows, two bright and two dark stripes: no
    // contrast left. Anisotropic: λ = 0, full contrast (191.5/255). A driver that ignored
    // anisotropyEnable would draw the isotropic image twice.
    const double sharp = contrast(anisoMeans), blurred = contrast(isoMeans);
    EXPECT_GT(sharp, 0.6) << "anisotropic contrast";
    EXPECT_LT(std::fabs(blurred), 0.1) << "isotropic contrast";
    EXPECT_GT(sharp - blurred, 0.5) << "the anisotropic image is not sharper than the isotropic one";

    if (!drivers.lavapipe) continue;
    const std::vector<uint8_t> reference = render(drivers.lavapipe, {"anisotropic", majorAlongX, true});
    ASSERT_EQ(reference.size(), aniso.size());
    const std::vector<double> referenceMeans = lineMeans(reference, majorAlongX);
    expectSharpAveragedStripes(referenceMeans, "lavapipe, anisotropic");  // the expectations are not Tessera's
    for (uint32_t k = 0; k < kTarget; ++k)
      EXPECT_NEAR(anisoMeans[k], referenceMeans[k], interiorLine(k) ? kInteriorLineTolerance : kEdgeLineTolerance)
          << "line " << k << ": Tessera " << anisoMeans[k] << ", lavapipe " << referenceMeans[k];
  }
}

// Issue 12: "the same commands give the same pixels at any thread count and SIMD width". On
// hosts where texturing fragment stages run 16 lanes wide while the device's width is 8
// (tessera/cpu_info.h wideFragmentSimdWidth), both widths draw both scenes bit for bit alike
// (anisotropic footprints of one batch may take different sample counts: no lane's result may
// depend on its batch-mates).
TEST_F(AnisotropicFiltering, WideFragmentBatchesDrawTheSamePixels) {
  if (tessera::wideFragmentSimdWidth() == 0) GTEST_SKIP() << "fragment stages run at the device's width on this host";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (bool anisotropy : {true, false}) {
    const Scene scene{anisotropy ? "anisotropic" : "isotropic", true, anisotropy};
    setenv("TESSERA_WIDE_FRAGMENTS", "0", 1);
    const std::vector<uint8_t> narrow = render(drivers.tessera, scene);
    unsetenv("TESSERA_WIDE_FRAGMENTS");
    const std::vector<uint8_t> wide = render(drivers.tessera, scene);
    ASSERT_EQ(narrow.size(), size_t(kTarget * kTarget));
    EXPECT_TRUE(narrow == wide) << scene.name;
  }
}

}  // namespace
}  // namespace tessera_test
