// The vertex kernel's own attribute fetch ("Vertex Input Description", "Vertex Attribute Fetch",
// "Vertex Input Address Calculation") against the texel codec, the oracle the draw's C++ fetch
// uses: for every format with a colour codec, random buffer bytes (NaN and infinite halves
// included), random strides and offsets, indices in and out of the bound range, vertex- and
// instance-rate bindings with divisors, at every SIMD width, each output word must be the
// codec's decodeTexel word, or for an element not wholly in range zero with the missing
// components (0, 0, 1) (robustBufferAccess2; the C++ fetch gives the same). Formats the kernel does not fetch arrive
// decoded in VertexBatch::inputs, as the draw gives them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compute_harness.h"
#include "tessera/format.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"
#include "tessera/texel_codec.h"

namespace tessera_test {
namespace {

using tessera::FormatInfo;
using tessera::TexelKind;
using tessera::abi::kMaxInterfaceLocations;

// Formats a vertex buffer can hold that the codec decodes: colour, one plane, up to 4 components.
std::vector<VkFormat> vertexFormats(TexelKind kind) {
  std::vector<VkFormat> out;
  for (const FormatInfo& f : tessera::allFormats())
    if (tessera::hasColorCodec(f) && !f.isCompressed() && f.planeCount <= 1 && !f.needsYcbcrConversion &&
        tessera::texelKind(f) == kind)
      out.push_back(f.format);
  return out;
}

struct Binding {
  std::vector<uint8_t> bytes;
  uint32_t stride = 0, offset = 0;
  uint64_t size = 0;  // bytes readable (may cut the last element short)
};

// What the kernel must see for element `element` of `format` in `b`.
void expectedWords(const FormatInfo& f, const Binding& b, uint64_t element, uint32_t out[4]) {
  const uint64_t at = element * b.stride + b.offset;
  // Out of range: zero in the components the format has, (0, 0, 1) in the others
  // (robustBufferAccess2, "Vertex Input Extraction"): the codec's decoding of a zero texel.
  static const uint8_t zeros[16] = {};
  tessera::TexelValue v{};
  tessera::decodeTexel(f, at + f.blockSize > b.size ? zeros : b.bytes.data() + at, v);
  std::memcpy(out, v.u, 16);
}

TEST(VertexFetchJit, KernelFetchDecodesLikeTheCodec) {
  const std::vector<VkFormat> floats = vertexFormats(TexelKind::Float), uints = vertexFormats(TexelKind::UInt),
                              sints = vertexFormats(TexelKind::SInt);
  ASSERT_FALSE(floats.empty() || uints.empty() || sints.empty());
  const std::vector<uint32_t> words = loadShader("fetch_passthrough_vert");
  std::mt19937 rng(20261124);
  uint32_t fetchedFormats = 0, checkedWords = 0;
  std::vector<VkFormat> mustFetch = {VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT, VK_FORMAT_R32G32_SFLOAT,
                                     VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_B8G8R8A8_UNORM,     VK_FORMAT_R8G8B8A8_SNORM,
                                     VK_FORMAT_R16G16_SFLOAT,       VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16G16B16A16_SNORM,
                                     VK_FORMAT_R8G8_UINT,           VK_FORMAT_R32_UINT,           VK_FORMAT_R16G16B16A16_SINT,
                                     VK_FORMAT_R8G8B8A8_USCALED,    VK_FORMAT_R16G16_SSCALED};
  const size_t rounds = std::max({floats.size(), uints.size(), sints.size()});
  for (uint32_t W : kSimdWidths) {
    for (size_t round = 0; round < rounds; ++round) {
      const VkFormat format[4] = {floats[round % floats.size()], uints[round % uints.size()], sints[round % sints.size()],
                                  floats[(round + 7) % floats.size()]};
      const uint32_t divisor = uint32_t(round % 3 == 0 ? 0 : round % 3 == 1 ? 1 : 3);
      tessera::jit::GraphicsCompileRequest req;
      req.stage = tessera::jit::GraphicsStage::Vertex;
      req.spirv = words;
      req.interface.simdWidth = W;
      req.useCache = false;
      Binding bindings[4];
      req.interface.vertexBindings.resize(4);
      req.interface.vertexBindings[3] = {true, divisor};
      for (uint32_t l = 0; l < 4; ++l) {
        const FormatInfo& f = *tessera::formatInfo(format[l]);
        Binding& b = bindings[l];
        // Strides and offsets need not be multiples of anything here: the fetch reads bytes.
        b.stride = f.blockSize + rng() % 6;
        b.offset = rng() % 8;
        const uint32_t elements = 24;
        b.size = uint64_t(b.offset) + uint64_t(elements - 1) * b.stride + f.blockSize - (rng() % 2 ? 1 : 0);
        b.bytes.resize(b.size);
        for (uint8_t& byte : b.bytes) byte = uint8_t(rng());
        req.interface.vertexAttributes.push_back({l, l, b.offset, uint32_t(format[l])});
      }
      tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
      ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
      const uint32_t fetched = r.program->facts.fetchedLocations;
      for (uint32_t l = 0; l < 4; ++l) {
        if (fetched >> l & 1) ++fetchedFormats;
        if (std::find(mustFetch.begin(), mustFetch.end(), format[l]) != mustFetch.end()) {
          EXPECT_TRUE(fetched >> l & 1) << tessera::formatInfo(format[l])->name << " is not fetched by the kernel";
        }
      }
      tessera::abi::VertexBuffer buffers[tessera::abi::kMaxVertexBuffers] = {};
      for (uint32_t l = 0; l < 4; ++l)
        buffers[l] = {bindings[l].bytes.data(), bindings[l].size, bindings[l].stride, 0};
      tessera::abi::BoundResources resources{};
      std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
      std::vector<float> position(4 * W), pointSize(W), clip(8 * W), cull(8 * W);
      std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
      tessera::abi::VertexBatch batch{};
      batch.resources = &resources;
      batch.count = W - round % 3;  // sometimes inactive lanes at the end
      batch.baseInstance = rng() % 5;
      batch.instanceIndex = batch.baseInstance + rng() % 12;
      for (uint32_t i = 0; i < W; ++i) batch.vertexIndex[i] = rng() % 26;  // 24 elements: some out of range
      batch.inputs = inputs.data();
      batch.position = position.data();
      batch.pointSize = pointSize.data();
      batch.clipDistance = clip.data();
      batch.cullDistance = cull.data();
      batch.outputs = outputs.data();
      batch.buffers = buffers;
      const uint64_t instanceElement =
          divisor == 0 ? batch.baseInstance : batch.baseInstance + (batch.instanceIndex - batch.baseInstance) / divisor;
      uint32_t expected[4][tessera::abi::kMaxSimdWidth][4];
      for (uint32_t l = 0; l < 4; ++l)
        for (uint32_t i = 0; i < W; ++i) {
          expectedWords(*tessera::formatInfo(format[l]), bindings[l], l == 3 ? instanceElement : batch.vertexIndex[i],
                        expected[l][i]);
          if (!(fetched >> l & 1))  // the caller's decoded words, as the draw gives them
            for (uint32_t c = 0; c < 4; ++c) inputs[(l * 4 + c) * W + i] = expected[l][i][c];
        }
      r.program->vertex(&batch);
      for (uint32_t l = 0; l < 4; ++l)
        for (uint32_t i = 0; i < batch.count; ++i)
          for (uint32_t c = 0; c < 4; ++c) {
            ASSERT_EQ(outputs[(l * 4 + c) * W + i], expected[l][i][c])
                << tessera::formatInfo(format[l])->name << " W=" << W << " lane " << i << " component " << c
                << (l == 3 ? " (instance rate, divisor " + std::to_string(divisor) + ")" : " element " +
                                                                                            std::to_string(batch.vertexIndex[i]));
            ++checkedWords;
          }
    }
  }
  EXPECT_GT(fetchedFormats, 0u);
  EXPECT_GT(checkedWords, 0u);
}

// Without vertex input state (or with formats it cannot decode) the kernel reads every location
// from VertexBatch::inputs and never touches VertexBatch::buffers.
TEST(VertexFetchJit, WithoutVertexInputStateTheCallerDecodes) {
  const std::vector<uint32_t> words = loadShader("fetch_passthrough_vert");
  tessera::jit::GraphicsCompileRequest req;
  req.stage = tessera::jit::GraphicsStage::Vertex;
  req.spirv = words;
  req.interface.simdWidth = 8;
  req.useCache = false;
  req.interface.vertexAttributes.push_back({0, 0, 0, uint32_t(VK_FORMAT_A2B10G10R10_UNORM_PACK32)});
  req.interface.vertexAttributes.push_back({1, 0, 0, uint32_t(VK_FORMAT_R64_UINT)});
  tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
  ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
  EXPECT_EQ(r.program->facts.fetchedLocations, 0u);
}

}  // namespace
}  // namespace tessera_test
