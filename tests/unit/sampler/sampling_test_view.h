// A small host image behind an abi::ImageViewState, for the reference sampler tests: every
// level in its own buffer, laid out as ImageLevel describes (rows, 3D slices and array layers
// with some slack so that the pitches, not the widths, are what the sampler must use).
#pragma once

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "tessera/format.h"
#include "tessera/sampling.h"

namespace tessera::test {

struct SamplingTestView {
  abi::ImageViewState state{};
  std::vector<std::vector<uint8_t>> storage;

  // width/height/depth of level 0; `layers` array layers (6 per cube); `levels` mip levels
  // halving every dimension (down to 1), as "Image Mip Level Sizing" does.
  SamplingTestView(VkFormat format, VkImageViewType type, uint32_t width, uint32_t height, uint32_t depth = 1,
                   uint32_t layers = 1, uint32_t levels = 1, VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT) {
    state.format = format;
    state.viewType = type;
    state.aspect = aspect;
    state.levelCount = levels;
    state.layerCount = layers;
    state.samples = 1;
    state.texelSize = aspectTexelSize(*formatInfo(format), aspect);
    state.swizzle[0] = VK_COMPONENT_SWIZZLE_R;
    state.swizzle[1] = VK_COMPONENT_SWIZZLE_G;
    state.swizzle[2] = VK_COMPONENT_SWIZZLE_B;
    state.swizzle[3] = VK_COMPONENT_SWIZZLE_A;
    storage.resize(levels);
    for (uint32_t l = 0; l < levels; ++l) {
      abi::ImageLevel& lv = state.levels[l];
      lv.width = std::max(1u, width >> l);
      lv.height = std::max(1u, height >> l);
      lv.depth = std::max(1u, depth >> l);
      lv.rowPitch = lv.width * state.texelSize + 8;
      lv.slicePitch = lv.rowPitch * lv.height + 16;
      lv.layerPitch = lv.slicePitch * lv.depth + 32;
      storage[l].assign(lv.layerPitch * layers, 0);
      lv.base = storage[l].data();
    }
  }

  uint8_t* at(uint32_t level, uint32_t x, uint32_t y, uint32_t z = 0, uint32_t layer = 0) {
    const abi::ImageLevel& lv = state.levels[level];
    return lv.base + layer * lv.layerPitch + z * lv.slicePitch + y * lv.rowPitch + x * state.texelSize;
  }
  // Writes consecutive values of type T at a texel (e.g. four floats of an RGBA32F texel).
  template <typename T>
  void set(uint32_t level, uint32_t x, uint32_t y, uint32_t z, uint32_t layer, std::initializer_list<T> values) {
    uint8_t* p = at(level, x, y, z, layer);
    for (T v : values) std::memcpy(p, &v, sizeof(T)), p += sizeof(T);
  }
  // Calls fn(texel bytes, x, y, z, layer) for every texel of a level (all slices and layers).
  template <typename Fn>
  void forEachTexel(uint32_t level, Fn fn) {
    const abi::ImageLevel& lv = state.levels[level];
    for (uint32_t layer = 0; layer < state.layerCount; ++layer)
      for (uint32_t z = 0; z < lv.depth; ++z)
        for (uint32_t y = 0; y < lv.height; ++y)
          for (uint32_t x = 0; x < lv.width; ++x) fn(at(level, x, y, z, layer), x, y, z, layer);
  }
  void setSwizzle(VkComponentSwizzle r, VkComponentSwizzle g, VkComponentSwizzle b, VkComponentSwizzle a) {
    state.swizzle[0] = r, state.swizzle[1] = g, state.swizzle[2] = b, state.swizzle[3] = a;
  }
};

}  // namespace tessera::test
