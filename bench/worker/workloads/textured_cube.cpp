// tex_cube: a sky box. One full-screen quad (1920x1080 RGBA8) whose fragment shader samples a
// 1024x1024 mipmapped RGBA8 cube map once per pixel (implicit LOD) along the direction of a
// pinhole camera with a 90 degree horizontal field of view, looking between three faces (so
// every pixel selects its face and several face edges cross the screen); LINEAR filters,
// mipmapMode LINEAR, CLAMP_TO_EDGE (cube maps filter across faces: "Cube Map Edge Handling").
// Reported in Mpixels/s; no roofline limit.
//
// As for the 2D textured workloads, the texture leaves drivers little room to differ: every
// texel holds f_c(d) = 127.5 + 120 sin(K a_c . d + φ_c) of the unit direction d through its
// centre, smooth across faces and levels (a neighbouring texel changes a value by about half a
// unit at level 0). Drivers agree within 3 units per byte ("u8:3"); the CPU checks every 97th
// pixel against f at the pixel's direction within 4 units.
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/textured_cube_frag.h"
#include "shaders/textured_cube_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kFaceSize = 1024;
constexpr uint32_t kLevels = 11;  // 1024 .. 1
constexpr double kPi = 3.14159265358979323846;
constexpr double kFrequency = 2.0;  // K
// a_c (unit vectors) and φ_c.
constexpr double kAxis[4][3] = {{0.48, 0.6, 0.64}, {-0.8, 0.36, 0.48}, {0.0, -0.6, 0.8}, {0.6, 0.8, 0.0}};
constexpr double kPhase[4] = {0.3, 1.7, 4.1, 2.9};

struct Push {
  RectPush rect;
  float origin[4], dx[4], dy[4];
};

double texelFunction(uint32_t c, const double d[3]) {
  const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const double along = (kAxis[c][0] * d[0] + kAxis[c][1] * d[1] + kAxis[c][2] * d[2]) / n;
  return 127.5 + 120.0 * std::sin(kFrequency * along + kPhase[c]);
}

// The direction through face `face`'s point (s, t) in [0, 1]²: the inverse of "Cube Map Face
// Selection" (major axis +X: sc = -rz, tc = -ry; -X: sc = rz, tc = -ry; +Y: sc = rx, tc = rz;
// -Y: sc = rx, tc = -rz; +Z: sc = rx, tc = -ry; -Z: sc = -rx, tc = -ry; s = (sc / |ma| + 1) / 2).
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

class TexturedCube : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    quads_ = uint32_t(p.size);
    d.require({"vkCreateSampler", "vkCreateDescriptorSetLayout", "vkCreateDescriptorPool", "vkAllocateDescriptorSets",
               "vkUpdateDescriptorSets", "vkCmdBindDescriptorSets", "vkCmdCopyBufferToImage"});
    d.requireFormatFeatures(kColorFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                              VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                              VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    createTexture(d);
    VkDescriptorSetLayout setLayout = createDescriptors(d);
    program_.emplace(d, textured_cube_vert_spv, sizeof textured_cube_vert_spv, textured_cube_frag_spv,
                     sizeof textured_cube_frag_spv, sizeof(Push), setLayout);
    VkPipeline pipeline = program_->pipeline({});
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    // The camera: forward F (towards the corner between +X, +Y and +Z, a little off it), right
    // R and up U orthonormal; dir(x, y) = F + (x - cx) k R + (y - cy) k U with k = tan(45°) / cx.
    double f[3] = {0.62, 0.45, 0.64}, r[3] = {0.72, 0.0, -0.7}, u[3];
    auto normalize = [](double v[3]) {
      const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      for (int i = 0; i < 3; ++i) v[i] /= n;
    };
    normalize(f);
    const double fr = f[0] * r[0] + f[1] * r[1] + f[2] * r[2];
    for (int i = 0; i < 3; ++i) r[i] -= fr * f[i];
    normalize(r);
    u[0] = f[1] * r[2] - f[2] * r[1], u[1] = f[2] * r[0] - f[0] * r[2], u[2] = f[0] * r[1] - f[1] * r[0];
    const double cx = kScreenWidth / 2.0, cy = kScreenHeight / 2.0, k = 1.0 / cx;
    for (int i = 0; i < 3; ++i) {
      dx_[i] = k * r[i], dy_[i] = k * u[i];
      origin_[i] = f[i] - cx * dx_[i] - cy * dy_[i];
    }
    Push push{{0, 0, int32_t(kScreenWidth), int32_t(kScreenHeight)}, {}, {}, {}};
    for (int i = 0; i < 3; ++i) push.origin[i] = float(origin_[i]), push.dx[i] = float(dx_[i]), push.dy[i] = float(dy_[i]);
    const VkClearColorValue clear{};
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      d.vk.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, program_->layout(), 0, 1, &set_, 0, nullptr);
      program_->push(cb, &push);
      d.vk.CmdDraw(cb, 6 * quads_, 1, 0, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size, "u8:3"};
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) {
          const double px = x + 0.5, py = y + 0.5;
          const double dir[3] = {origin_[0] + px * dx_[0] + py * dy_[0], origin_[1] + px * dx_[1] + py * dy_[1],
                                 origin_[2] + px * dx_[2] + py * dy_[2]};
          return texelFunction(c, dir);
        },
        4.0, 97);
    return o;
  }

  Work work() const override {
    const double pixels = double(kScreenWidth) * kScreenHeight * quads_;
    return {pixels, 0, pixels * 4, 0};
  }

 private:
  // Six faces of kLevels levels, each texel f at its centre's direction, rounded; uploaded from
  // one staging buffer and left in SHADER_READ_ONLY_OPTIMAL.
  void createTexture(Device& d) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.flags = VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = kColorFormat;
    ci.extent = {kFaceSize, kFaceSize, 1};
    ci.mipLevels = kLevels;
    ci.arrayLayers = 6;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    texture_ = d.createImage(ci);

    uint64_t bytes = 0;
    for (uint32_t l = 0; l < kLevels; ++l) bytes += uint64_t(kFaceSize >> l) * (kFaceSize >> l) * 4 * 6;
    Buffer staging = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::vector<VkBufferImageCopy> regions;
    uint64_t offset = 0;
    for (uint32_t l = 0; l < kLevels; ++l) {
      const uint32_t n = kFaceSize >> l;
      for (uint32_t face = 0; face < 6; ++face) {
        uint8_t* dst = staging.as<uint8_t>() + offset;
        for (uint32_t j = 0; j < n; ++j)
          for (uint32_t i = 0; i < n; ++i) {
            double dir[3];
            faceDirection(face, (i + 0.5) / n, (j + 0.5) / n, dir);
            for (uint32_t c = 0; c < 4; ++c)
              dst[(uint64_t(j) * n + i) * 4 + c] = uint8_t(std::lround(texelFunction(c, dir)));
          }
        VkBufferImageCopy r{};
        r.bufferOffset = offset;
        r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, face, 1};
        r.imageExtent = {n, n, 1};
        regions.push_back(r);
        offset += uint64_t(n) * n * 4;
      }
    }
    d.oneShot([&](VkCommandBuffer cb) {
      d.imageLayout(cb, texture_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, kLevels, 6);
      d.vk.CmdCopyBufferToImage(cb, staging.buffer, texture_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                uint32_t(regions.size()), regions.data());
      d.imageLayout(cb, texture_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, kLevels, 6);
    });
  }

  VkDescriptorSetLayout createDescriptors(Device& d) {
    auto& vk = d.vk;
    VkDevice dev = d.device;
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = texture_.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_CUBE;
    vci.format = kColorFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 6};
    VkImageView view = VK_NULL_HANDLE;
    BENCH_VK(vk.CreateImageView(dev, &vci, nullptr, &view));
    d.onDestroy([&vk, dev, view] { vk.DestroyImageView(dev, view, nullptr); });

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler sampler = VK_NULL_HANDLE;
    BENCH_VK(vk.CreateSampler(dev, &sci, nullptr, &sampler));
    d.onDestroy([&vk, dev, sampler] { vk.DestroySampler(dev, sampler, nullptr); });

    return createSampledImageSet(d, view, sampler, &set_);
  }

  uint32_t quads_ = 1;
  double origin_[3] = {}, dx_[3] = {}, dy_[3] = {};
  RenderTarget target_;
  Image texture_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::optional<GraphicsProgram> program_;
  Buffer readback_;
};

}  // namespace

BENCH_REGISTER(TexturedCube, (WorkloadInfo{.name = "tex_cube",
                                           .description = "full-screen sky box: a 1024^2 mipmapped RGBA8 cube map sampled "
                                                          "along a 90 deg camera's directions; LINEAR, mipmap LINEAR",
                                           .metric = "Mpixels/s",
                                           .scale = 1e-6,
                                           .group = "graphics",
                                           .defaultSize = 1,
                                           .sizeUnit = "full-screen sky-box quads",
                                           .scalingSizes = {1, 2, 4}}));

}  // namespace bench
