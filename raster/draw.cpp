// draw(): vertex fetch ("Vertex Input Description"), vertex shading in batches of W, primitive
// assembly ("Primitive Topologies", with primitive restart), then per point, line or triangle
// setup and coverage (raster.h) feeding fragment batches (draw_fragments.cpp).
//
// This first version runs on the queue's thread, one primitive after another, which gives the
// spec's rasterization order for free; binning over the thread pool comes next.
#include <algorithm>
#include <cstring>
#include <vector>

#include "draw_internal.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera::raster {
namespace {

// "Vertex Attribute Fetch" for one attribute of one vertex: the format's components as 32-bit
// words (floats or integers, as the shader reads them), missing ones (0, 0, 0, 1). A fetch
// past the end of the bound range reads (0, 0, 0, 1) (robustBufferAccess allows either
// that or zero).
void fetchAttribute(const DrawState& s, const VertexAttribute& a, uint32_t vertexIndex, uint32_t instanceIndex,
                    uint32_t out[4]) {
  const FormatInfo* f = formatInfo(a.format);
  const VertexBinding& b = s.bindings[a.binding];
  const uint64_t index = b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE ? instanceIndex : vertexIndex;
  const uint64_t at = index * b.stride + a.offset;
  TexelValue v{};
  const bool isInt = f && texelKind(*f) != TexelKind::Float;
  if (f && b.base && at + f->blockSize <= b.size) {
    decodeTexel(*f, b.base + at, v);
  } else {
    v.u[0] = v.u[1] = v.u[2] = 0;
    if (isInt) v.u[3] = 1;
    else v.f[3] = 1.0f;
  }
  std::memcpy(out, v.u, 16);
}

uint32_t readIndex(const DrawCall& c, uint32_t i) {
  const uint32_t size = c.indexType == VK_INDEX_TYPE_UINT16 ? 2 : c.indexType == VK_INDEX_TYPE_UINT8_EXT ? 1 : 4;
  const uint64_t at = uint64_t(c.firstIndex + i) * size;
  if (!c.indices || at + size > c.indexBytes) return 0;  // robust: out-of-range indices read 0
  uint32_t v = 0;
  std::memcpy(&v, c.indices + at, size);
  return v;
}

uint32_t restartValue(VkIndexType t) {
  return t == VK_INDEX_TYPE_UINT16 ? 0xFFFFu : t == VK_INDEX_TYPE_UINT8_EXT ? 0xFFu : 0xFFFFFFFFu;
}

}  // namespace

// Shades `count` vertices (slots) of one instance; slot i has VertexIndex indices[i].
void shadeVertices(const DrawState& s, const DrawCall& c, uint32_t instance, const std::vector<uint32_t>& vertexIndices,
                   ShadedVertices& out) {
  const uint32_t W = s.simdWidth;
  const size_t n = vertexIndices.size();
  out.locations.clear();
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
    if (s.vertexOutputComponents[l] && s.fragment.inputComponents[l]) out.locations.push_back(l);
  out.stride = 4 + 4 * uint32_t(out.locations.size());
  out.words.assign(n * out.stride, 0);
  std::vector<uint32_t> inputs(abi::kMaxInterfaceLocations * 4 * W, 0);
  std::vector<float> position(4 * W), pointSize(W), clip(abi::kMaxClipDistances * W), cull(abi::kMaxClipDistances * W);
  std::vector<uint32_t> outputs(abi::kMaxInterfaceLocations * 4 * W, 0);
  abi::VertexBatch batch{};
  batch.resources = s.resources;
  batch.instanceIndex = instance;
  batch.baseVertex = c.indexed ? uint32_t(c.vertexOffset) : c.firstVertex;
  batch.baseInstance = c.firstInstance;
  batch.drawIndex = c.drawIndex;
  batch.inputs = inputs.data();
  batch.position = position.data();
  batch.pointSize = pointSize.data();
  batch.clipDistance = clip.data();
  batch.cullDistance = cull.data();
  batch.outputs = outputs.data();
  for (size_t first = 0; first < n; first += W) {
    const uint32_t count = uint32_t(std::min<size_t>(W, n - first));
    batch.count = count;
    for (uint32_t lane = 0; lane < W; ++lane) {
      const uint32_t vi = lane < count ? vertexIndices[first + lane] : 0;
      batch.vertexIndex[lane] = vi;
      if (lane >= count) continue;
      for (uint32_t a = 0; a < s.attributeCount; ++a) {
        const VertexAttribute& attr = s.attributes[a];
        uint32_t words[4];
        fetchAttribute(s, attr, vi, instance, words);
        for (uint32_t comp = 0; comp < 4; ++comp) inputs[(attr.location * 4 + comp) * W + lane] = words[comp];
      }
    }
    s.vertexShader(&batch);
    if (s.topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST) {
      out.pointSize.resize(n);
      for (uint32_t lane = 0; lane < count; ++lane) out.pointSize[first + lane] = pointSize[lane];
    }
    for (uint32_t lane = 0; lane < count; ++lane) {
      uint32_t* v = &out.words[(first + lane) * out.stride];
      for (uint32_t comp = 0; comp < 4; ++comp) std::memcpy(&v[comp], &position[comp * W + lane], 4);
      for (size_t k = 0; k < out.locations.size(); ++k)
        for (uint32_t comp = 0; comp < 4; ++comp) v[4 + 4 * k + comp] = outputs[(out.locations[k] * 4 + comp) * W + lane];
    }
  }
}

void draw(const DrawState& s, const DrawCall& c) {
  if (!s.vertexShader || c.vertexCount == 0 || c.instanceCount == 0) return;
  const uint32_t restart = restartValue(c.indexType);
  std::vector<uint32_t> vertexIndices(c.vertexCount);
  std::vector<bool> isRestart(c.vertexCount, false);
  for (uint32_t i = 0; i < c.vertexCount; ++i) {
    if (c.indexed) {
      const uint32_t index = readIndex(c, i);
      isRestart[i] = s.primitiveRestart && index == restart;
      vertexIndices[i] = uint32_t(int64_t(index) + c.vertexOffset);
    } else {
      vertexIndices[i] = c.firstVertex + i;
    }
  }
  FragmentStage fragments(s);
  ShadedVertices shaded;
  std::vector<SetupTriangle> setups;
  std::vector<SetupLine> lineSetups;
  for (uint32_t inst = 0; inst < c.instanceCount; ++inst) {
    const uint32_t instance = c.firstInstance + inst;
    shadeVertices(s, c, instance, vertexIndices, shaded);
    if (s.rasterizerDiscard) continue;
    // "Primitive Topologies": triangles of each restart-delimited run, the provoking vertex
    // first (Vulkan's default provoking vertex is the first vertex of the primitive).
    uint32_t runStart = 0;
    uint32_t primitiveId = 0;
    auto emitRun = [&](uint32_t begin, uint32_t end) {
      const uint32_t n = end - begin;
      auto triangle = [&](uint32_t a, uint32_t b, uint32_t d) {
        fragments.triangle(shaded, begin + a, begin + b, begin + d, primitiveId++, setups);
      };
      auto line = [&](uint32_t a, uint32_t b) { fragments.line(shaded, begin + a, begin + b, primitiveId++, lineSetups); };
      switch (s.topology) {
        case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
          for (uint32_t i = 0; i < n; ++i) fragments.point(shaded, begin + i, shaded.pointSize[begin + i], primitiveId++);
          break;
        case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
          for (uint32_t i = 0; i + 1 < n; i += 2) line(i, i + 1);
          break;
        case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
          for (uint32_t i = 0; i + 1 < n; ++i) line(i, i + 1);
          break;
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
          for (uint32_t i = 0; i + 2 < n; i += 3) triangle(i, i + 1, i + 2);
          break;
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
          // Triangle i: vertices i, i + (1 + i % 2), i + (2 - i % 2).
          for (uint32_t i = 0; i + 2 < n; ++i) triangle(i, i + 1 + i % 2, i + 2 - i % 2);
          break;
        case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:  // triangle i: vertices i + 1, i + 2, 0
          for (uint32_t i = 0; i + 2 < n; ++i) triangle(i + 1, i + 2, 0);
          break;
        default:  // adjacency needs geometryShader, patches tessellation: neither is offered
          break;
      }
    };
    for (uint32_t i = 0; i < c.vertexCount; ++i) {
      if (!isRestart[i]) continue;
      emitRun(runStart, i);
      runStart = i + 1;
    }
    emitRun(runStart, c.vertexCount);
  }
  fragments.flush();
}

}  // namespace tessera::raster
