// Decoded copies of BC1, BC6H, BC7 and ETC2 colour images (decoded_texture.h). BC1: each 4x4
// block's four palette texels computed once, by the routines' own rule (bc1_bytes.h
// bc1TexelWord), and stored for its 16 texels. The others: the block decoders' integers
// (decodeBc7, decodeBc6h, decodeEtc2Rgba8), which are the texels themselves.
// Compiled with -ffp-contract=off (CMakeLists.txt): bc1Byte's float product and sum must round
// as they do in batch_sampler_unorm8.cpp.
#include "tessera/decoded_texture.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bc1_bytes.h"
#include "block_decoders.h"
#include "tessera/format.h"
#include "tessera/sampling_batch.h"

namespace tessera {

using sampler_detail::bc1TexelWord;

uint64_t DecodedTextureBudget::configuredLimit() {
  const char* v = std::getenv("TESSERA_DECODED_TEXTURE_MIB");
  if (!v || !*v) return uint64_t(1024) << 20;
  char* end = nullptr;
  const unsigned long long mib = std::strtoull(v, &end, 10);
  if (end == v || mib > (uint64_t(1) << 40)) return uint64_t(1024) << 20;
  return uint64_t(mib) << 20;
}

namespace {

// What a copy of each decodable format holds: its VkFormat and bytes a texel, and the bytes of
// one 4x4 block of the image.
struct CopyKind {
  uint32_t copyFormat = VK_FORMAT_UNDEFINED;
  uint32_t texelBytes = 0;
  uint32_t blockBytes = 0;
  // The copy rounds the texels to bytes (S3TC and RGTC palettes: thirds, halves, sevenths and
  // fifths of the endpoints) rather than holding them exactly.
  bool rounded = false;
};
CopyKind copyKindOf(uint32_t format) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return {VK_FORMAT_R8G8B8A8_UNORM, 4, 8, true};
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: return {VK_FORMAT_R8G8B8A8_SRGB, 4, 8, true};
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK: return {VK_FORMAT_R8G8B8A8_UNORM, 4, 16, true};
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK: return {VK_FORMAT_R8G8B8A8_SRGB, 4, 16, true};
    case VK_FORMAT_BC4_UNORM_BLOCK: return {VK_FORMAT_R8_UNORM, 1, 8, true};
    case VK_FORMAT_BC5_UNORM_BLOCK: return {VK_FORMAT_R8G8_UNORM, 2, 16, true};
    case VK_FORMAT_BC7_UNORM_BLOCK: return {VK_FORMAT_R8G8B8A8_UNORM, 4, 16};
    case VK_FORMAT_BC7_SRGB_BLOCK: return {VK_FORMAT_R8G8B8A8_SRGB, 4, 16};
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: return {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 16};
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK: return {VK_FORMAT_R8G8B8A8_UNORM, 4, 8};
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK: return {VK_FORMAT_R8G8B8A8_SRGB, 4, 8};
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK: return {VK_FORMAT_R8G8B8A8_UNORM, 4, 16};
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK: return {VK_FORMAT_R8G8B8A8_SRGB, 4, 16};
    default: return {};
  }
}

// The UNORM format of an sRGB BC1-BC3 format (the same blocks, the colour not decoded by the EOTF).
VkFormat unormTwin(uint32_t format) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: return VK_FORMAT_BC1_RGB_UNORM_BLOCK;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case VK_FORMAT_BC2_SRGB_BLOCK: return VK_FORMAT_BC2_UNORM_BLOCK;
    case VK_FORMAT_BC3_SRGB_BLOCK: return VK_FORMAT_BC3_UNORM_BLOCK;
    default: return VkFormat(format);
  }
}

// Block `block`'s 16 texels in the copy's format (texel n at out + n x texelBytes).
void decodeBlock(uint32_t format, const uint8_t* block, uint8_t* out) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: {
      uint32_t colours, codes;
      std::memcpy(&colours, block, 4);
      std::memcpy(&codes, block + 4, 4);
      const uint32_t color0 = colours & 0xFFFF, color1 = colours >> 16;
      const uint32_t transparentDrop = format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK ? 255u : 0u;
      // The four palette texels once; texel n takes the code at bit 2n.
      uint32_t palette[4];
      for (uint32_t code = 0; code < 4; ++code) palette[code] = bc1TexelWord(color0, color1, code, transparentDrop);
      for (uint32_t n = 0; n < 16; ++n) std::memcpy(out + 4 * n, &palette[codes >> (2 * n) & 3], 4);
      return;
    }
    case VK_FORMAT_BC7_UNORM_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK:
      decodeBc7(block, reinterpret_cast<uint8_t(*)[4]>(out));
      return;
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: {
      // As bc_decode.cpp reads them: R, G, B halves and alpha 1.0 (0x3C00).
      uint16_t rgb[16][3];
      decodeBc6h(block, format == VK_FORMAT_BC6H_SFLOAT_BLOCK, rgb);
      for (uint32_t n = 0; n < 16; ++n) {
        const uint16_t texel[4] = {rgb[n][0], rgb[n][1], rgb[n][2], 0x3C00};
        std::memcpy(out + 8 * n, texel, 8);
      }
      return;
    }
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC4_UNORM_BLOCK:
    case VK_FORMAT_BC5_UNORM_BLOCK: {
      // The reference's texels (n / d rounded to float) to the nearest byte, halves up, as BC1's
      // bc1Byte rounds: 255 n / d is a half (S3TC colour: 5/6 of 255) or at least 1/378 from
      // one (colour: d = den (2^b - 1) <= 189; alpha and red: sevenths and fifths of bytes,
      // 1/14 from one), the float moves it by less than 2^-15, and 2^-12 lifts a half. An sRGB
      // format's colour is rounded where it is encoded, before the EOTF: the block decoded as
      // its UNORM twin, whose texels are the encoded values (the copy's sRGB format applies the
      // EOTF when sampled).
      TexelValue texels[16];
      decodeBcBlock(*formatInfo(unormTwin(format)), block, texels);
      const uint32_t components = copyKindOf(format).texelBytes;
      for (uint32_t n = 0; n < 16; ++n)
        for (uint32_t c = 0; c < components; ++c)
          out[components * n + c] = uint8_t(std::clamp(std::floor(double(texels[n].f[c]) * 255.0 + 0.5 + 0x1p-12), 0.0, 255.0));
      return;
    }
    default:
      decodeEtc2Rgba8(format, block, reinterpret_cast<uint8_t(*)[4]>(out));
      return;
  }
}

}  // namespace

bool DecodedTexture::decodable(uint32_t format) { return copyKindOf(format).texelBytes != 0; }

uint32_t DecodedTexture::copyFormat() const { return copyKindOf(whole_.format).copyFormat; }

bool DecodedTexture::exact() const { return !copyKindOf(whole_.format).rounded; }

DecodedTexture::DecodedTexture(const abi::ImageViewState& whole, DecodedTextureBudget& budget)
    : whole_(whole), budget_(budget) {
  whole_.decoded = nullptr;
  const uint32_t levels = std::min(whole_.levelCount, abi::kMaxImageLevels);
  whole_.levelCount = levels;
  levelOffset_.resize(levels);
  uint64_t bytes = 0;
  for (uint32_t l = 0; l < levels; ++l) {
    levelOffset_[l] = bytes;
    bytes += uint64_t(whole_.levels[l].width) * whole_.levels[l].height * copyKindOf(whole_.format).texelBytes * whole_.layerCount;
  }
  bytes_ = bytes;
  stale_ = std::make_unique<std::atomic<uint8_t>[]>(size_t(levels) * whole_.layerCount);
  for (size_t i = 0; i < size_t(levels) * whole_.layerCount; ++i) stale_[i].store(1, std::memory_order_relaxed);
}

DecodedTexture::~DecodedTexture() {
  if (data_) budget_.used.fetch_sub(bytes_, std::memory_order_relaxed);
}

void DecodedTexture::written(uint32_t level, uint32_t firstLayer, uint32_t layerCount) {
  if (level >= whole_.levelCount) return;
  const uint32_t end = firstLayer + std::min(layerCount, whole_.layerCount - std::min(firstLayer, whole_.layerCount));
  for (uint32_t layer = firstLayer; layer < end; ++layer)
    stale_[size_t(level) * whole_.layerCount + layer].store(1, std::memory_order_relaxed);
  // Release: a reader that sees the new count (acquire) sees the flags.
  writes_.fetch_add(1, std::memory_order_release);
}

bool DecodedTexture::current() {
  if (unavailable_.load(std::memory_order_relaxed)) return false;
  if (decodedAt_.load(std::memory_order_acquire) == writes_.load(std::memory_order_acquire)) return true;
  std::lock_guard lock(mutex_);
  return decodeStale();
}

bool DecodedTexture::decodeStale() {
  const uint64_t seen = writes_.load(std::memory_order_acquire);
  if (decodedAt_.load(std::memory_order_relaxed) == seen) return true;
  if (unavailable_.load(std::memory_order_relaxed)) return false;
  if (!data_) {
    // The budget first, then the memory; either failing leaves the texture on its blocks.
    uint64_t used = budget_.used.load(std::memory_order_relaxed);
    do {
      if (bytes_ > budget_.limit || used > budget_.limit - bytes_) {
        unavailable_.store(true, std::memory_order_relaxed);
        return false;
      }
    } while (!budget_.used.compare_exchange_weak(used, used + bytes_, std::memory_order_relaxed));
    data_.reset(new (std::nothrow) uint8_t[bytes_]);
    if (!data_) {
      budget_.used.fetch_sub(bytes_, std::memory_order_relaxed);
      unavailable_.store(true, std::memory_order_relaxed);
      return false;
    }
  }
  for (uint32_t l = 0; l < whole_.levelCount; ++l)
    for (uint32_t layer = 0; layer < whole_.layerCount; ++layer)
      if (stale_[size_t(l) * whole_.layerCount + layer].exchange(0, std::memory_order_relaxed)) decodeSubresource(l, layer);
  decodedAt_.store(seen, std::memory_order_release);
  return true;
}

void DecodedTexture::decodeSubresource(uint32_t level, uint32_t layer) {
  const CopyKind kind = copyKindOf(whole_.format);
  const abi::ImageLevel& src = whole_.levels[level];
  const abi::ImageLevel dst = this->level(level, layer);
  const uint8_t* blocks = src.base + src.layerPitch * layer;
  const uint32_t row = 4 * kind.texelBytes;
  for (uint32_t by = 0; by * 4 < src.height; ++by) {
    const uint8_t* block = blocks + src.rowPitch * by;
    for (uint32_t bx = 0; bx * 4 < src.width; ++bx, block += kind.blockBytes) {
      uint8_t texels[16 * 8];
      decodeBlock(whole_.format, block, texels);
      // Blocks at the level's right and bottom edges hold texels past it, which are not stored.
      const uint32_t w = std::min(4u, src.width - 4 * bx), h = std::min(4u, src.height - 4 * by);
      for (uint32_t y = 0; y < h; ++y)
        std::memcpy(dst.base + dst.rowPitch * (4 * by + y) + row * bx, texels + row * y, w * kind.texelBytes);
    }
  }
}

abi::ImageLevel DecodedTexture::level(uint32_t level, uint32_t layer) const {
  const abi::ImageLevel& src = whole_.levels[level];
  abi::ImageLevel l{};
  l.width = src.width;
  l.height = src.height;
  l.depth = 1;
  l.rowPitch = uint64_t(src.width) * copyKindOf(whole_.format).texelBytes;
  l.layerPitch = l.rowPitch * src.height;
  l.slicePitch = l.layerPitch;
  l.base = data_.get() + levelOffset_[level] + l.layerPitch * layer;
  return l;
}

const abi::ImageViewState* DecodedView::current(const abi::ImageViewState& view) {
  if (!texture_.current()) return nullptr;
  // The copy's address is fixed once made: the state is built once, after the first decode.
  std::call_once(built_, [&] {
    abi::ImageViewState& s = state_;
    s = view;
    s.decoded = nullptr;
    s.format = texture_.copyFormat();
    s.texelSize = copyKindOf(texture_.format()).texelBytes;
    for (uint32_t l = 0; l < std::min(view.levelCount, abi::kMaxImageLevels); ++l)
      s.levels[l] = texture_.level(baseLevel_ + l, baseLayer_);
    s.fastSampling = classifyViewForRoutines(s);
  });
  return &state_;
}

}  // namespace tessera
