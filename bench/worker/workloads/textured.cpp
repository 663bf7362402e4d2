// Texturing: one full-screen quad (1920x1080 RGBA8) whose fragment shader samples a 2048x2048
// mipmapped RGBA8 texture once per pixel (implicit LOD) at a minification of 1.5, rotated
// 30 degrees about the screen centre, REPEAT addressing (the screen spans ~2.9 texture widths).
// Reported in Mpixels/s (one sample per pixel); no roofline limit (sampling is neither
// bandwidth- nor FMA-bound).
//
// tex_nearest:   magFilter = minFilter = NEAREST, mipmapMode NEAREST (level 1: λ = log2 1.5)
// tex_bilinear:  LINEAR filters, mipmapMode NEAREST
// tex_trilinear: LINEAR filters, mipmapMode LINEAR (levels 0 and 1, δ ~ 0.58)
// tex_aniso16:   tex_trilinear with anisotropyEnable, maxAnisotropy 16 (the footprint is
//                isotropic here: what enabling anisotropy costs an ordinary minified texture)
// tex_bc1:       tex_bilinear from the same texture compressed to BC1 (RGB, alpha 1)
// tex_fetch:     texelFetch of level 0 at the texel under the coordinate (no filtering, no LOD)
//
// Drivers may differ in the LOD they compute (the spec allows approximations of ρ and of
// log2), in sub-texel precision (lavapipe weights with 8 bits) and in how a coordinate on a
// texel edge rounds, so the texture is built to leave little room for it: every level holds
// the same smooth periodic function, f_c(x, y) = 127.5 + 120 sin(2π (a_c x + b_c y) / 2048 + φ_c)
// with small integer a_c, b_c, sampled at the level's texel centres (in level-0 texel units),
// so a neighbouring texel or level changes a value by about a unit. Drivers agree within 3
// units per byte ("u8:3"); the CPU checks every 97th pixel against f at the pixel's texture
// coordinate within 4 units (BC1: 8, for the 5- and 6-bit endpoints and the 4-colour palette).
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/textured_fetch_frag.h"
#include "shaders/textured_frag.h"
#include "shaders/textured_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kTextureSize = 2048;
constexpr uint32_t kLevels = 12;  // 2048 .. 1
constexpr double kPi = 3.14159265358979323846;
constexpr double kMinification = 1.5;
constexpr double kRotationDegrees = 30.0;

struct Push {
  RectPush rect;
  float origin[2], du[2], dv[2];
};

// f_c's frequencies (periods dividing the texture, so REPEAT tiles it seamlessly) and phases.
constexpr int kA[4] = {2, 1, 1, 2}, kB[4] = {1, -2, 1, -1};
constexpr double kPhase[4] = {0.3, 1.7, 4.1, 2.9};

double texelFunction(uint32_t c, double x, double y) {
  return 127.5 + 120.0 * std::sin(2 * kPi * (kA[c] * x + kB[c] * y) / kTextureSize + kPhase[c]);
}

enum class Filter { Nearest, Bilinear, Trilinear, Anisotropic };
enum class Source { Rgba8, Bc1 };       // the texture's format
enum class Access { Sample, Fetch };    // texture() with the sampler, or texelFetch of level 0

// BC1 (RGB, "BC1 with no alpha" in the Khronos Data Format Specification) of one 4x4 block of an
// n x n RGBA8 level whose top-left texel is (x0, y0); texels past the level's edge repeat its
// last row or column. Endpoints: the block's per-channel maximum and minimum in RGB565, colour0
// > colour1 (the four-colour mode); each texel takes the nearest of the four palette colours.
void encodeBc1Block(const uint8_t* level, uint32_t n, uint32_t x0, uint32_t y0, uint8_t out[8]) {
  int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
  auto texel = [&](uint32_t i, uint32_t j) { return level + (uint64_t(std::min(y0 + j, n - 1)) * n + std::min(x0 + i, n - 1)) * 4; };
  for (uint32_t j = 0; j < 4; ++j)
    for (uint32_t i = 0; i < 4; ++i)
      for (int c = 0; c < 3; ++c) lo[c] = std::min(lo[c], int(texel(i, j)[c])), hi[c] = std::max(hi[c], int(texel(i, j)[c]));
  auto pack = [](const int rgb[3]) {
    return uint16_t((std::lround(rgb[0] * 31 / 255.0) << 11) | (std::lround(rgb[1] * 63 / 255.0) << 5) |
                    std::lround(rgb[2] * 31 / 255.0));
  };
  auto unpack = [](uint16_t v, int rgb[3]) {
    const int r = v >> 11, g = v >> 5 & 63, b = v & 31;
    rgb[0] = r << 3 | r >> 2, rgb[1] = g << 2 | g >> 4, rgb[2] = b << 3 | b >> 2;
  };
  uint16_t c0 = pack(hi), c1 = pack(lo);
  if (c0 < c1) std::swap(c0, c1);
  int palette[4][3];
  unpack(c0, palette[0]);
  unpack(c1, palette[1]);
  for (int c = 0; c < 3; ++c) {
    palette[2][c] = (2 * palette[0][c] + palette[1][c]) / 3;
    palette[3][c] = (palette[0][c] + 2 * palette[1][c]) / 3;
  }
  uint32_t indices = 0;
  for (uint32_t j = 0; j < 4; ++j)
    for (uint32_t i = 0; i < 4; ++i) {
      // (colour0 == colour1 selects the three-colour mode, where index 0 is still colour0.)
      uint32_t best = 0;
      int bestError = INT32_MAX;
      for (uint32_t k = 0; k < (c0 > c1 ? 4u : 1u); ++k) {
        int error = 0;
        for (int c = 0; c < 3; ++c) error += (palette[k][c] - texel(i, j)[c]) * (palette[k][c] - texel(i, j)[c]);
        if (error < bestError) best = k, bestError = error;
      }
      indices |= best << (2 * (4 * j + i));
    }
  std::memcpy(out, &c0, 2);
  std::memcpy(out + 2, &c1, 2);
  std::memcpy(out + 4, &indices, 4);
}

template <Filter kFilter, Source kSource = Source::Rgba8, Access kAccess = Access::Sample>
class TexturedQuad : public Workload {
  static constexpr VkFormat kTextureFormat = kSource == Source::Bc1 ? VK_FORMAT_BC1_RGB_UNORM_BLOCK : kColorFormat;

 public:
  void setup(Device& d, const Params& p) override {
    quads_ = uint32_t(p.size);
    d.require({"vkCreateSampler", "vkCreateDescriptorSetLayout", "vkCreateDescriptorPool", "vkAllocateDescriptorSets",
               "vkUpdateDescriptorSets", "vkCmdBindDescriptorSets", "vkCmdCopyBufferToImage"});
    if (kFilter == Filter::Anisotropic) d.requireFeature(&VkPhysicalDeviceFeatures::samplerAnisotropy, "samplerAnisotropy");
    if (kSource == Source::Bc1) d.requireFeature(&VkPhysicalDeviceFeatures::textureCompressionBC, "textureCompressionBC");
    d.requireFormatFeatures(kTextureFormat, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                                VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    createTexture(d);
    VkDescriptorSetLayout setLayout = createDescriptors(d);
    if (kAccess == Access::Fetch)
      program_.emplace(d, textured_vert_spv, sizeof textured_vert_spv, textured_fetch_frag_spv,
                       sizeof textured_fetch_frag_spv, sizeof(Push), setLayout);
    else
      program_.emplace(d, textured_vert_spv, sizeof textured_vert_spv, textured_frag_spv, sizeof textured_frag_spv,
                       sizeof(Push), setLayout);
    VkPipeline pipeline = program_->pipeline({});
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    // uv(x, y) = centre + R(30°) (p - screen centre) × 1.5 / 2048: one pixel step is 1.5 texels.
    const double angle = kRotationDegrees * kPi / 180.0, step = kMinification / kTextureSize;
    const double cx = kScreenWidth / 2.0, cy = kScreenHeight / 2.0;
    du_[0] = std::cos(angle) * step, du_[1] = std::sin(angle) * step;
    dv_[0] = -std::sin(angle) * step, dv_[1] = std::cos(angle) * step;
    origin_[0] = 0.25 - cx * du_[0] - cy * dv_[0];
    origin_[1] = 0.25 - cx * du_[1] - cy * dv_[1];
    Push push{{0, 0, int32_t(kScreenWidth), int32_t(kScreenHeight)}, {}, {}, {}};
    for (int i = 0; i < 2; ++i)
      push.origin[i] = float(origin_[i]), push.du[i] = float(du_[i]), push.dv[i] = float(dv_[i]);
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
          if (kSource == Source::Bc1 && c == 3) return 255.0;  // BC1 RGB: alpha 1
          // The fragment's texture coordinate at its pixel centre, in level-0 texels.
          const double px = x + 0.5, py = y + 0.5;
          const double u = (origin_[0] + px * du_[0] + py * dv_[0]) * kTextureSize;
          const double v = (origin_[1] + px * du_[1] + py * dv_[1]) * kTextureSize;
          // texelFetch: the level-0 texel holding (u, v), at its centre (f has period 2048).
          if (kAccess == Access::Fetch) return texelFunction(c, std::floor(u) + 0.5, std::floor(v) + 0.5);
          return texelFunction(c, u, v);
        },
        kSource == Source::Bc1 ? 8.0 : 4.0, 97);
    return o;
  }

  Work work() const override {
    const double pixels = double(kScreenWidth) * kScreenHeight * quads_;
    return {pixels, 0, pixels * 4, 0};
  }

 private:
  // The texture: level d holds f at its texel centres ((i + 0.5) 2^d level-0 texels), rounded;
  // uploaded from one staging buffer and left in SHADER_READ_ONLY_OPTIMAL.
  void createTexture(Device& d) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = kTextureFormat;
    ci.extent = {kTextureSize, kTextureSize, 1};
    ci.mipLevels = kLevels;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    texture_ = d.createImage(ci);

    // A level's bytes: RGBA8 texels, or BC1's 8-byte blocks of 4x4 texels.
    auto levelBytes = [](uint32_t n) {
      return kSource == Source::Bc1 ? uint64_t((n + 3) / 4) * ((n + 3) / 4) * 8 : uint64_t(n) * n * 4;
    };
    uint64_t bytes = 0;
    for (uint32_t l = 0; l < kLevels; ++l) bytes += levelBytes(kTextureSize >> l);
    Buffer staging = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::vector<VkBufferImageCopy> regions;
    std::vector<uint8_t> texels;
    uint64_t offset = 0;
    for (uint32_t l = 0; l < kLevels; ++l) {
      const uint32_t n = kTextureSize >> l;
      uint8_t* dst = staging.as<uint8_t>() + offset;
      if (kSource == Source::Bc1) {
        texels.resize(uint64_t(n) * n * 4);
        fillLevel(texels.data(), n, double(1u << l));
        for (uint32_t by = 0; by < (n + 3) / 4; ++by)
          for (uint32_t bx = 0; bx < (n + 3) / 4; ++bx)
            encodeBc1Block(texels.data(), n, 4 * bx, 4 * by, dst + (uint64_t(by) * ((n + 3) / 4) + bx) * 8);
      } else {
        fillLevel(dst, n, double(1u << l));
      }
      VkBufferImageCopy r{};
      r.bufferOffset = offset;
      r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
      r.imageExtent = {n, n, 1};
      regions.push_back(r);
      offset += levelBytes(n);
    }
    d.oneShot([&](VkCommandBuffer cb) {
      d.imageLayout(cb, texture_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, kLevels);
      d.vk.CmdCopyBufferToImage(cb, staging.buffer, texture_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                uint32_t(regions.size()), regions.data());
      d.imageLayout(cb, texture_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, kLevels);
    });
  }

  // sin(α x + β y + φ) = sin(α x + φ) cos(β y) + cos(α x + φ) sin(β y): one table per axis.
  static void fillLevel(uint8_t* dst, uint32_t n, double texelSpan) {
    for (uint32_t c = 0; c < 4; ++c) {
      std::vector<double> sx(n), cxs(n), sy(n), cys(n);
      for (uint32_t i = 0; i < n; ++i) {
        const double centre = (i + 0.5) * texelSpan;
        const double ax = 2 * kPi * kA[c] * centre / kTextureSize + kPhase[c];
        const double by = 2 * kPi * kB[c] * centre / kTextureSize;
        sx[i] = std::sin(ax), cxs[i] = std::cos(ax), sy[i] = std::sin(by), cys[i] = std::cos(by);
      }
      for (uint32_t y = 0; y < n; ++y)
        for (uint32_t x = 0; x < n; ++x)
          dst[(uint64_t(y) * n + x) * 4 + c] =
              uint8_t(std::lround(127.5 + 120.0 * (sx[x] * cys[y] + cxs[x] * sy[y])));
    }
  }

  VkDescriptorSetLayout createDescriptors(Device& d) {
    auto& vk = d.vk;
    VkDevice dev = d.device;
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = texture_.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = kTextureFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    BENCH_VK(vk.CreateImageView(dev, &vci, nullptr, &view));
    d.onDestroy([&vk, dev, view] { vk.DestroyImageView(dev, view, nullptr); });

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    const VkFilter filter = kFilter == Filter::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR;
    sci.magFilter = sci.minFilter = filter;
    const bool mipmapLinear = kFilter == Filter::Trilinear || kFilter == Filter::Anisotropic;
    sci.mipmapMode = mipmapLinear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.anisotropyEnable = kFilter == Filter::Anisotropic;
    sci.maxAnisotropy = kFilter == Filter::Anisotropic ? 16.0f : 1.0f;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    sci.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler sampler = VK_NULL_HANDLE;
    BENCH_VK(vk.CreateSampler(dev, &sci, nullptr, &sampler));
    d.onDestroy([&vk, dev, sampler] { vk.DestroySampler(dev, sampler, nullptr); });

    return createSampledImageSet(d, view, sampler, &set_);
  }

  uint32_t quads_ = 1;
  double origin_[2] = {}, du_[2] = {}, dv_[2] = {};
  RenderTarget target_;
  Image texture_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  std::optional<GraphicsProgram> program_;
  Buffer readback_;
};

WorkloadInfo texturedInfo(const char* name, const char* description) {
  return {.name = name,
          .description = description,
          .metric = "Mpixels/s",
          .scale = 1e-6,
          .group = "graphics",
          .defaultSize = 1,
          .sizeUnit = "full-screen textured quads",
          .scalingSizes = {1, 2, 4}};
}

using TexNearest = TexturedQuad<Filter::Nearest>;
using TexBilinear = TexturedQuad<Filter::Bilinear>;
using TexTrilinear = TexturedQuad<Filter::Trilinear>;
using TexAniso16 = TexturedQuad<Filter::Anisotropic>;
using TexBc1 = TexturedQuad<Filter::Bilinear, Source::Bc1>;
using TexFetch = TexturedQuad<Filter::Nearest, Source::Rgba8, Access::Fetch>;

}  // namespace

BENCH_REGISTER(TexNearest, texturedInfo("tex_nearest", "full-screen quad sampling a 2048^2 mipmapped RGBA8 texture, "
                                                       "minified 1.5x, rotated 30 deg; NEAREST, mipmap NEAREST"));
BENCH_REGISTER(TexBilinear, texturedInfo("tex_bilinear", "the same with LINEAR filters, mipmap NEAREST"));
BENCH_REGISTER(TexTrilinear, texturedInfo("tex_trilinear", "the same with LINEAR filters, mipmap LINEAR"));
BENCH_REGISTER(TexAniso16, texturedInfo("tex_aniso16", "tex_trilinear with anisotropic filtering, maxAnisotropy 16"));
BENCH_REGISTER(TexBc1, texturedInfo("tex_bc1", "tex_bilinear from the texture compressed to BC1 (RGB)"));
BENCH_REGISTER(TexFetch, texturedInfo("tex_fetch", "texelFetch of level 0 at each fragment's texel (no filter, no LOD)"));

}  // namespace bench
