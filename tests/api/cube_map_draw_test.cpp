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
#include "simple_pipeline.h"
#include "single_image_set.h"
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
  const VkImageSubresourceRange allFaces{VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 6};
  VkImageViewCreateInfo tvci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  tvci.image = texture;
  tvci.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
  tvci.format = tci.format;
  tvci.subresourceRange = allFaces;
  VkImageView textureView;
  EXPECT_EQ(vkCreateImageView(dev, &tvci, nullptr, &textureView), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = scene.filter;
  sci.mipmapMode = scene.mipmap;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);

  // The target, the descriptor set, and the pipeline with the camera as push constants.
  const TestDevice::Attachment target =
      device.createAttachment(VK_FORMAT_R8G8B8A8_UNORM, kTarget, kTarget,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kTarget * kTarget * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  const SingleImageSet set = makeSingleImageSet(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, textureView,
                                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  const VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Camera)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set.layout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("sky_box_frag"));
  const VkPipeline pipeline = createSimplePipeline(dev, SimplePipeline{vs, fs, layout, kTarget, kTarget});

  VkCommandBuffer cmd = device.beginCommands();
  imageBarrier(cmd, texture, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, allFaces);
  vkCmdCopyBufferToImage(cmd, staging, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()),
                         regions.data());
  imageBarrier(cmd, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, allFaces);
  recordDrawAndReadback(cmd, target, kTarget, kTarget, readback, [&](VkCommandBuffer c) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set.set, 0, nullptr);
    const Camera cam = camera(scene.forward, scene.fov);
    vkCmdPushConstants(c, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(cam), &cam);
    vkCmdDraw(c, 3, 1, 0, 0);
  });
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(static_cast<const uint8_t*>(readMap), static_cast<const uint8_t*>(readMap) + kTarget * kTarget * 4);

  vkDestroyPipeline(dev, pipeline, nullptr);
  for (VkShaderModule m : {vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, set.pool, nullptr);
  vkDestroyDescriptorSetLayout(dev, set.layout, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, textureView, nullptr);
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
