// "Vertex Attribute Fetch" (raster/draw_vertices.cpp): the inline fetches for 32-bit component
// formats and R8G8B8A8_UNORM against the texel codec (the slow, obviously right path), on
// random bytes (NaN patterns included) at W = 4, 8 and 16, with offsets, strides and vertices
// past the end of the bound range (which read zero with the missing components (0, 0, 1)).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "draw_internal.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera::raster {
namespace {

// Vertex kernel: output location 0 = input location 0, position 0.
template <uint32_t W>
void copyInput(abi::VertexBatch* b) {
  for (uint32_t lane = 0; lane < b->count; ++lane)
    for (uint32_t c = 0; c < 4; ++c) {
      b->outputs[c * W + lane] = b->inputs[c * W + lane];
      b->position[c * W + lane] = 0.0f;
    }
}

TEST(VertexFetch, InlineFormatsMatchTheTexelCodec) {
  const VkFormat formats[] = {
      VK_FORMAT_R32_SFLOAT,          VK_FORMAT_R32G32_SFLOAT,        VK_FORMAT_R32G32B32_SFLOAT,
      VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32_UINT,              VK_FORMAT_R32G32_UINT,
      VK_FORMAT_R32G32B32_UINT,      VK_FORMAT_R32G32B32A32_UINT,    VK_FORMAT_R32_SINT,
      VK_FORMAT_R32G32_SINT,         VK_FORMAT_R32G32B32_SINT,       VK_FORMAT_R32G32B32A32_SINT,
      VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_B8G8R8A8_UNORM,       VK_FORMAT_R16G16_SFLOAT,
      VK_FORMAT_R8G8_SNORM,          VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16B16A16_UINT};
  std::mt19937 rng(7);
  for (VkFormat format : formats) {
    const FormatInfo* f = formatInfo(format);
    ASSERT_NE(f, nullptr);
    for (uint32_t w : {4u, 8u, 16u}) {
      const uint32_t offset = 4 * (rng() % 3), stride = f->blockSize + offset + 4 * (rng() % 3);
      const uint32_t vertices = 37;  // not a multiple of W
      std::vector<uint8_t> bytes(size_t(stride) * vertices);
      for (auto& b : bytes) b = uint8_t(rng());
      DrawState s;
      s.simdWidth = w;
      s.vertexShader = w == 4 ? copyInput<4> : w == 8 ? copyInput<8> : copyInput<16>;
      s.attributeCount = 1;
      s.attributes[0] = {0, 0, offset, format};
      // The last 5 vertices lie (partly) past the bound range.
      s.bindings[0] = {bytes.data(), uint64_t(stride) * (vertices - 5) + offset + f->blockSize / 2, stride,
                       VK_VERTEX_INPUT_RATE_VERTEX};
      s.vertexOutputComponents[0] = 4;
      s.fragment.inputComponents[0] = 4;
      DrawCall c;
      c.vertexCount = vertices;
      std::vector<uint32_t> indices(vertices);
      for (uint32_t i = 0; i < vertices; ++i) indices[i] = i;
      ShadedVertices out;
      prepareShadedVertices(s, vertices, out);
      shadeVertexRange(s, c, 0, indices.data(), 0, vertices, out);
      for (uint32_t v = 0; v < vertices; ++v) {
        uint32_t want[4];
        if (uint64_t(v) * stride + offset + f->blockSize <= s.bindings[0].size) {
          TexelValue t{};
          decodeTexel(*f, &bytes[size_t(v) * stride + offset], t);
          std::memcpy(want, t.u, 16);
        } else {  // zero, the missing components (0, 0, 1): robustBufferAccess2
          const uint8_t zeros[16] = {};
          TexelValue t{};
          decodeTexel(*f, zeros, t);
          std::memcpy(want, t.u, 16);
        }
        for (uint32_t comp = 0; comp < 4; ++comp)
          ASSERT_EQ(out.outputs(v)[comp], want[comp]) << "format " << format << ", W " << w << ", vertex " << v
                                                     << ", component " << comp;
      }
    }
  }
}

// "Vertex Input Address Calculation" with VK_EXT_vertex_attribute_divisor: an instance-rate
// binding reads element firstInstance + (InstanceIndex - firstInstance) / divisor, and with
// divisor 0 always element firstInstance.
TEST(VertexFetch, InstanceRateBindingsAdvanceEveryDivisorInstances) {
  std::vector<uint32_t> elements(64);
  for (uint32_t i = 0; i < elements.size(); ++i) elements[i] = 1000 + i;
  for (uint32_t divisor : {0u, 1u, 3u}) {
    DrawState s;
    s.simdWidth = 8;
    s.vertexShader = copyInput<8>;
    s.attributeCount = 1;
    s.attributes[0] = {0, 0, 0, VK_FORMAT_R32_UINT};
    s.bindings[0] = {reinterpret_cast<const uint8_t*>(elements.data()), elements.size() * 4, 4, VK_VERTEX_INPUT_RATE_INSTANCE};
    s.bindings[0].divisor = divisor;
    s.vertexOutputComponents[0] = 4;
    s.fragment.inputComponents[0] = 4;
    DrawCall c;
    c.vertexCount = 3;
    c.firstInstance = 5;
    const uint32_t indices[3] = {0, 1, 2};
    for (uint32_t instanceIndex = 5; instanceIndex < 13; ++instanceIndex) {
      ShadedVertices out;
      prepareShadedVertices(s, 3, out);
      shadeVertexRange(s, c, instanceIndex, indices, 0, 3, out);
      const uint32_t element = divisor == 0 ? 5 : 5 + (instanceIndex - 5) / divisor;
      for (uint32_t v = 0; v < 3; ++v)
        EXPECT_EQ(out.outputs(v)[0], 1000 + element) << "divisor " << divisor << ", InstanceIndex " << instanceIndex;
    }
  }
}

}  // namespace
}  // namespace tessera::raster
