// Decoded copies of BC1 and BC7 images (decoded_texture.h). BC1: each 4x4 block's four palette
// texels computed once, by the routines' own rule (bc1_bytes.h bc1TexelWord), and stored for its
// 16 texels. BC7: the block decoder's bytes (decodeBc7), which are the texels themselves.
// Compiled with -ffp-contract=off (CMakeLists.txt): bc1Byte's float product and sum must round
// as they do in batch_sampler_unorm8.cpp.
#include "tessera/decoded_texture.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bc1_bytes.h"
#include "block_decoders.h"
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

bool DecodedTexture::decodable(uint32_t format) {
  return format == VK_FORMAT_BC1_RGB_UNORM_BLOCK || format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK ||
         format == VK_FORMAT_BC7_UNORM_BLOCK || format == VK_FORMAT_BC7_SRGB_BLOCK;
}

uint32_t DecodedTexture::copyFormat() const {
  return whole_.format == VK_FORMAT_BC7_SRGB_BLOCK ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
}

DecodedTexture::DecodedTexture(const abi::ImageViewState& whole, DecodedTextureBudget& budget)
    : whole_(whole), budget_(budget) {
  whole_.decoded = nullptr;
  const uint32_t levels = std::min(whole_.levelCount, abi::kMaxImageLevels);
  whole_.levelCount = levels;
  levelOffset_.resize(levels);
  uint64_t bytes = 0;
  for (uint32_t l = 0; l < levels; ++l) {
    levelOffset_[l] = bytes;
    bytes += uint64_t(whole_.levels[l].width) * whole_.levels[l].height * 4 * whole_.layerCount;
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
  const abi::ImageLevel& src = whole_.levels[level];
  const abi::ImageLevel dst = this->level(level, layer);
  const uint8_t* blocks = src.base + src.layerPitch * layer;
  if (whole_.format == VK_FORMAT_BC7_UNORM_BLOCK || whole_.format == VK_FORMAT_BC7_SRGB_BLOCK) {
    for (uint32_t by = 0; by * 4 < src.height; ++by) {
      const uint8_t* block = blocks + src.rowPitch * by;
      for (uint32_t bx = 0; bx * 4 < src.width; ++bx, block += 16) {
        uint8_t texels[16][4];
        decodeBc7(block, texels);
        const uint32_t w = std::min(4u, src.width - 4 * bx), h = std::min(4u, src.height - 4 * by);
        for (uint32_t y = 0; y < h; ++y) std::memcpy(dst.base + dst.rowPitch * (4 * by + y) + 16 * bx, texels[4 * y], 4 * w);
      }
    }
    return;
  }
  const uint32_t transparentDrop = whole_.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK ? 255u : 0u;
  for (uint32_t by = 0; by * 4 < src.height; ++by) {
    const uint8_t* block = blocks + src.rowPitch * by;
    for (uint32_t bx = 0; bx * 4 < src.width; ++bx, block += 8) {
      uint32_t colours, codes;
      std::memcpy(&colours, block, 4);
      std::memcpy(&codes, block + 4, 4);
      const uint32_t color0 = colours & 0xFFFF, color1 = colours >> 16;
      uint32_t palette[4];
      for (uint32_t code = 0; code < 4; ++code) palette[code] = bc1TexelWord(color0, color1, code, transparentDrop);
      // Texel (x, y) of the block takes the code at bit 2 (4 y + x); blocks at the level's right
      // and bottom edges hold texels past it, which are not stored.
      const uint32_t w = std::min(4u, src.width - 4 * bx), h = std::min(4u, src.height - 4 * by);
      for (uint32_t y = 0; y < h; ++y) {
        uint32_t row[4];
        for (uint32_t x = 0; x < 4; ++x) row[x] = palette[codes >> (2 * (4 * y + x)) & 3];
        std::memcpy(dst.base + dst.rowPitch * (4 * by + y) + 16 * bx, row, 4 * w);
      }
    }
  }
}

abi::ImageLevel DecodedTexture::level(uint32_t level, uint32_t layer) const {
  const abi::ImageLevel& src = whole_.levels[level];
  abi::ImageLevel l{};
  l.width = src.width;
  l.height = src.height;
  l.depth = 1;
  l.rowPitch = uint64_t(src.width) * 4;
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
    s.texelSize = 4;
    for (uint32_t l = 0; l < std::min(view.levelCount, abi::kMaxImageLevels); ++l)
      s.levels[l] = texture_.level(baseLevel_ + l, baseLayer_);
    s.fastSampling = classifyViewForRoutines(s);
  });
  return &state_;
}

}  // namespace tessera
