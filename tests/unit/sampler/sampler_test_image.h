// A small host image for the blit and resolve tests, laid out as SubresourceView describes.
#pragma once

#include <cstring>
#include <vector>

#include "tessera/blit.h"
#include "tessera/format.h"

namespace tessera::test {

struct TestImage {
  const FormatInfo* format;
  VkImageAspectFlagBits aspect;
  VkExtent3D extent;
  uint32_t samples;
  size_t texelSize;
  std::vector<uint8_t> bytes;

  TestImage(VkFormat f, uint32_t w, uint32_t h, uint32_t d = 1, uint32_t samples = 1,
            VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint8_t fill = 0)
      : format(formatInfo(f)), aspect(aspect), extent{w, h, d}, samples(samples) {
    texelSize = aspectTexelSize(*format, aspect);
    // Row and slice pitches with some slack, so that pitch (not width) is what the code uses.
    bytes.assign(slicePitch() * d, fill);
  }
  size_t rowPitch() const { return extent.width * samples * texelSize + 8; }
  size_t slicePitch() const { return rowPitch() * extent.height + 16; }

  SubresourceView view() {
    return SubresourceView{bytes.data(), format, aspect, extent, samples, rowPitch(), slicePitch()};
  }
  uint8_t* at(uint32_t x, uint32_t y, uint32_t z = 0, uint32_t s = 0) {
    return bytes.data() + z * slicePitch() + y * rowPitch() + (x * samples + s) * texelSize;
  }
  template <typename T>
  T get(uint32_t x, uint32_t y, uint32_t z = 0, uint32_t s = 0, size_t component = 0) {
    T v;
    std::memcpy(&v, at(x, y, z, s) + component * sizeof(T), sizeof(T));
    return v;
  }
  template <typename T>
  void set(uint32_t x, uint32_t y, uint32_t z, uint32_t s, std::initializer_list<T> values) {
    size_t k = 0;
    for (T v : values) std::memcpy(at(x, y, z, s) + sizeof(T) * k++, &v, sizeof(T));
  }
};

}  // namespace tessera::test
