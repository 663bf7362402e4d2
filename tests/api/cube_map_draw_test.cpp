// Cube maps sampled in draws, through the loader with validation, on Tessera and on lavapipe in
// the same test: a full-screen triangle (fullscreen.vert, sky_box.frag) samples a mipmapped
// 64x64 RGBA8 cube map with implicit LOD along each pixel's direction through a pinhole camera
// that looks between three faces, so that face selection, face edges and corners ("Cube Map
// Face Selection and Transformations", "Cube Map Edge Handling") and the LOD from the face
// derivatives ("Cube Map Derivative Transformation", "Scale Factor Operation") all decide
// pixels. Fragment kernels sample the common case inline (spirv_jit/inline_sample.cpp) and call
// the cube batches or the reference for the rest; this is the end-to-end check of all three.
//
// Every texel holds f_c(d) = 127.5 + 120 sin(2 a_c . d / |d| + φ_c) of the direction d through
// its centre, at every level: smooth across faces and levels (neighbouring level-0 texels differ
// by at most 8 units), so that what the spec leaves to implementations (filter weight
// precision, the LOD's approximation, the blend at a corner) moves a pixel by a unit or two,
// while a wrong face, a wrong texel or a wrong level of a face moves it by tens. Checked per pixel
// and channel: Tessera against lavapipe, and both against f at the pixel's own direction.
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
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kFaceSize = 64, kLevels = 7;  // 64 .. 1
constexpr uint32_t kTarget = 96;                 // 96x96 pixels
constexpr double kAxis[3][3] = {{0.48, 0.6, 0.64}, {-0.8, 0.36, 0.48}, {0.0, -0.6, 0.8}};
constexpr double kPhase[3] = {0.3, 1.7, 4.1};

double texelFunction(uint32_t c, const double d[3]) {
  const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  return 127.5 + 120.0 * std::sin(2.0 * (kAxis[c][0] * d[0] + kAxis[c][1] * d[1] + kAxis[c][2] * d[2]) / n + kPhase[c]);
}

// The direction through face `face`'s point (s, t): the inverse of the spec's face table (+X:
// sc = -rz, tc = -ry; -X: sc = rz, tc = -ry; +Y: sc = rx, tc = rz; -Y: sc = rx, tc = -rz; +Z:
// sc = rx, tc = -ry; -Z: sc = -rx, tc = -ry; s = (sc / |ma| + 1) / 2).
void faceDirection(uint32_t face, double s, double t, double d[3]) {
  const double sc = 2 * s - 1, tc = 2 * t - 1;
  switch (face) {
    case 0: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
    case 1: d[0] = -1, d[1] = -tc, d[2] = sc; break;
    case 2: d[0] = sc, d[1] = 1, d[2] = tc; break;
    case 3: d[0] = sc, d[1] = -1, d[2] = -tc; break;
    case 4: d[0] = sc, d[1] = -tc, d[2] = 1; break;
    default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
  }
}

// A pinhole camera looking along `forward` with a horizontal and vertical field of view of
// `fovDegrees`: the push constants of sky_box.frag.
struct Camera {
  float origin[4], dx[4], dy[4];
};
Camera camera(const double forward[3], double fovDegrees) {
  double f[3], r[3], u[3];
  const double fn = std::sqrt(forward[0] * forward[0] + forward[1] * forward[1] + forward[2] * forward[2]);
  for (int c = 0; c < 3; ++c) f[c] = forward[c] / fn;
  // right = f x (0, 1, 0), up = right x f
  r[0] = -f[2], r[1] = 0, r[2] = f[0];
  const double rn = std::sqrt(r[0] * r[0] + r[2] * r[2]);
  for (double& v : r) v /= rn;
  u[0] = r[1] * f[2] - r[2] * f[1], u[1] = r[2] * f[0] - r[0] * f[2], u[2] = r[0] * f[1] - r[1] * f[0];
  const double half = std::tan(fovDegrees * 3.14159265358979323846 / 360.0);
  Camera cam{};
  for (int c = 0; c < 3; ++c) {
    cam.origin[c] = float(f[c] - half * r[c] - half * u[c]);
    cam.dx[c] = float(2 * half / kTarget * r[c]);
    cam.dy[c] = float(2 * half / kTarget * u[c]);
  }
  return cam;
}

struct Scene {
  const char* name;
  double forward[3];
  double fov;
  VkFilter filter;
  VkSamplerMipmapMode mipmap;
};

// Renders `scene` on `pd`; RGBA8 pixels, row-major (empty on failure).
std::vector<uint8_t> render(VkPhysicalDevice pd, const Scene& scene) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  // The cube, every level's six faces uploaded from one staging buffer (level by level, faces
  // in layer order within a level).
  VkDeviceSize stagingSize = 0;
  for (uint32_t l = 0; l < kLevels; ++l) stagingSize += VkDeviceSize(6) * (kFaceSize >> l) * (kFaceSize >> l) * 4;
  void* stagingMap;
  VkBuffer staging = device.createMappedBuffer(stagingSize, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &stagingMap);
  std::vector<VkBufferImageCopy> regions;
  VkDeviceSize offset = 0;
  for (uint32_t l = 0; l < kLevels; ++l) {
    const uint32_t n = kFaceSize >> l;
    uint8_t* texels = static_cast<uint8_t*>(stagingMap) + offset;
    for (uint32_t face = 0; face < 6; ++face)
      for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i) {
          double d[3];
          faceDirection(face, (i + 0.5) / n, (j + 0.5) / n, d);
          uint8_t* texel = texels + ((face * n + j) * n + i) * 4;
          for (uint32_t c = 0; c < 3; ++c) texel[c] = uint8_t(std::lround(texelFunction(c, d)));
          texel[3] = 255;
        }
    VkBufferImageCopy region{};
    region.bufferOffset = offset;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 6};
    region.imageExtent = {n, n, 1};
    regions.push_back(region);
    offset += VkDeviceSize(6) * n * n * 4;
  }
  VkImageCreateInfo tci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  tci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  tci.imageType = VK_IMAGE_TYPE_2D;
  tci.format = VK_FORMAT_R8G8B8A8_UNORM;
  tci.extent = {kFaceSize, kFaceSize, 1};
  tci.mipLevels = kLevels;
  tci.arrayLayers = 6;
  tci.samples = VK_SAMPLE_COUNT_1_BIT;
  tci.tiling = VK_IMAGE_TILING_OPTIMAL;
  tci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage texture;
  EXPECT_EQ(vkCreateImage(dev, &tci, nullptr, &texture), VK_SUCCESS);
  device.bindMemory(texture);
  VkImageViewCreateInfo tvci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  tvci.image = texture;
  tvci.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
  tvci.format = tci.format;
  tvci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 6};
  VkImageView textureView;
  EXPECT_EQ(vkCreateImageView(dev, &tvci, nullptr, &textureView), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = scene.filter;
  sci.mipmapMode = scene.mipmap;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);

  // The colour target and its readback.
  VkImageCreateInfo ici = tci;
  ici.flags = 0;
  ici.extent = {kTarget, kTarget, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage target;
  vkCreateImage(dev, &ici, nullptr, &target);
  device.bindMemory(target);
  VkImageViewCreateInfo vci = tvci;
  vci.image = target;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
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
  VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Camera)};
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
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("sky_box_frag"));
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
  toTransfer.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 6};
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
  const Camera cam = camera(scene.forward, scene.fov);
  vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(cam), &cam);
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
  std::vector<uint8_t> pixels(static_cast<const uint8_t*>(readMap), static_cast<const uint8_t*>(readMap) + kTarget * kTarget * 4);

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
  return pixels;
}

// f at pixel (x, y)'s own direction (its centre, as gl_FragCoord gives it).
double expectedAt(const Scene& scene, uint32_t x, uint32_t y, uint32_t c) {
  const Camera cam = camera(scene.forward, scene.fov);
  double d[3];
  for (int k = 0; k < 3; ++k) d[k] = double(cam.origin[k]) + (x + 0.5) * double(cam.dx[k]) + (y + 0.5) * double(cam.dy[k]);
  return texelFunction(c, d);
}

// Looking between three faces (+X, +Y, +Z meet at the corner (1, 1, 1)) with a field of view
// that magnifies the 64-texel faces about 1.6 times (40 degrees), keeps them near one texel a
// pixel (90), or minifies them (150, where the sides of the image see the faces obliquely).
const Scene kScenes[] = {
    {"trilinear, magnified", {1.0, 0.9, 0.8}, 40.0, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR},
    {"trilinear, one texel a pixel", {1.0, 0.9, 0.8}, 90.0, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR},
    {"trilinear, minified", {1.0, 0.9, 0.8}, 150.0, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR},
    {"bilinear, nearest level", {-0.7, -0.6, 1.0}, 90.0, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST},
    {"nearest", {-0.7, 1.0, -0.5}, 60.0, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST},
};

TEST(CubeMapDraw, SkyBoxesMatchTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const Scene& scene : kScenes) {
    SCOPED_TRACE(scene.name);
    const std::vector<uint8_t> tessera = render(drivers.tessera, scene);
    ASSERT_EQ(tessera.size(), size_t(kTarget * kTarget * 4));
    // Against f: LINEAR interpolates f between texel centres (about a unit off a sine this
    // smooth) from texels rounded to bytes, and a level further down holds f at its own texel
    // centres; NEAREST takes a texel up to half a texel diagonal away (up to 6 units). A wrong
    // face or texel is tens of units off. (Measured with Tessera: at most 2.0 units LINEAR,
    // 4.5 NEAREST.)
    const double tolerance = scene.filter == VK_FILTER_NEAREST ? 6.0 : 3.5;
    uint32_t badPixels = 0;
    for (uint32_t y = 0; y < kTarget; ++y)
      for (uint32_t x = 0; x < kTarget; ++x)
        for (uint32_t c = 0; c < 3; ++c) {
          const double want = expectedAt(scene, x, y, c);
          const int got = tessera[(y * kTarget + x) * 4 + c];
          if (std::fabs(got - want) > tolerance && badPixels++ < 5)
            ADD_FAILURE() << "pixel (" << x << ", " << y << ") channel " << c << ": " << got << ", f gives " << want;
        }
    EXPECT_EQ(badPixels, 0u);

    if (!drivers.lavapipe) continue;
    const std::vector<uint8_t> lavapipe = render(drivers.lavapipe, scene);
    ASSERT_EQ(lavapipe.size(), tessera.size());
    // The drivers' filters differ in weight precision and the LOD approximation: a unit on this
    // texture (measured with Mesa 22.3.6: at most 1); NEAREST may pick the neighbouring texel
    // where a pixel's direction falls within rounding of a texel edge (up to 8 units, on few
    // pixels; none measured).
    uint32_t differ = 0, farApart = 0;
    for (size_t i = 0; i < tessera.size(); ++i) {
      if (i % 4 == 3) continue;
      const int diff = std::abs(int(tessera[i]) - int(lavapipe[i]));
      differ += diff > 2;
      if (diff > 8 && farApart++ < 5)
        ADD_FAILURE() << "pixel " << i / 4 % kTarget << ", " << i / 4 / kTarget << " channel " << i % 4 << ": Tessera "
                      << int(tessera[i]) << ", lavapipe " << int(lavapipe[i]);
    }
    EXPECT_EQ(farApart, 0u);
    EXPECT_LE(differ, scene.filter == VK_FILTER_NEAREST ? kTarget * kTarget * 3 / 100 : 0u)
        << "channels more than 2 units from lavapipe's";
  }
}

}  // namespace
}  // namespace tessera_test
