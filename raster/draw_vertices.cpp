// The vertex half of a draw, shared by both paths: the index list (with primitive restart),
// vertex fetch ("Vertex Input Description", "Vertex Attribute Fetch") and vertex shading in
// batches of W.
#include <algorithm>
#include <cstring>
#include <vector>

#include "draw_internal.h"
#include "draw_memory_bound.h"
#include "lane_records.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"
#include "tessera/thread_pool.h"
#include "zeroed_slices.h"

namespace tessera::raster {
namespace {

// "Vertex Attribute Fetch" of one attribute, planned once per range of vertices: the format's
// components as 32-bit words (floats or integers, as the shader reads them), missing ones
// (0, 0, 0, 1). A fetch past the end of the bound range, or from a null vertex buffer
// (nullDescriptor), reads zero with the missing components as above: robustBufferAccess2's
// "out of bounds buffer loads return zero values", then "Vertex Input Extraction". Formats of 32-bit components in R, G, B, A order are copied
// word for word and R8G8B8A8_UNORM decoded inline (both exactly what the texel codec gives:
// SFLOAT32 is the bit pattern, UNORM8 is c / 255.0f); every other format goes through the codec.
struct AttributeFetch {
  enum class Kind : uint8_t { Words, Unorm8x4, Codec, Missing };
  Kind kind = Kind::Codec;
  uint32_t location = 0, words = 0, blockSize = 0;
  const FormatInfo* format = nullptr;
  const VertexBinding* binding = nullptr;
  uint32_t offset = 0;
  uint32_t defaults[4] = {};    // what a texel leaves unset: the codec's missing components
  uint32_t outOfRange[4] = {};  // zero, the missing components as the format's kind reads them
};

AttributeFetch planFetch(const DrawState& s, const VertexAttribute& a) {
  AttributeFetch p;
  p.location = a.location;
  p.binding = &s.bindings[a.binding];
  p.offset = a.offset;
  p.format = formatInfo(a.format);
  const bool isInt = p.format && texelKind(*p.format) != TexelKind::Float;
  const float one = 1.0f;
  if (isInt) p.outOfRange[3] = 1;
  else std::memcpy(&p.outOfRange[3], &one, 4);
  if (!p.format) {
    p.kind = AttributeFetch::Kind::Missing;
    return p;
  }
  p.blockSize = p.format->blockSize;
  // The components a texel does not have, as the codec fills them.
  const uint8_t zeros[16] = {};
  TexelValue d{};
  decodeTexel(*p.format, zeros, d);
  std::memcpy(p.defaults, d.u, 16);
  // A texel of zero bytes decodes to zero in every component it has (every vertex format's
  // zero encoding is the number zero), so it is the out-of-range value too.
  std::memcpy(p.outOfRange, p.defaults, 16);
  const FormatInfo& f = *p.format;
  bool words32 = hasColorCodec(f) && !f.sharedExponent && f.componentCount >= 1 && f.blockSize == 4u * f.componentCount;
  static constexpr char kOrder[4] = {'R', 'G', 'B', 'A'};
  for (uint8_t i = 0; words32 && i < f.componentCount; ++i) {
    const FormatComponent& c = f.components[i];
    words32 = c.name == kOrder[i] && c.bits == 32 &&
              (c.numeric == NumericFormat::SFloat || c.numeric == NumericFormat::UInt || c.numeric == NumericFormat::SInt);
  }
  if (words32) {
    p.kind = AttributeFetch::Kind::Words;
    p.words = f.componentCount;
  } else if (a.format == VK_FORMAT_R8G8B8A8_UNORM) {
    p.kind = AttributeFetch::Kind::Unorm8x4;
  }
  return p;
}

// "Vertex Input Address Calculation": an instance-rate binding's element is
// firstInstance + (InstanceIndex - firstInstance) / divisor, or firstInstance with divisor 0.
inline __attribute__((always_inline)) void fetchAttribute(const AttributeFetch& p, uint32_t vertexIndex,
                                                          uint32_t instanceIndex, uint32_t firstInstance, uint32_t out[4]) {
  const VertexBinding& b = *p.binding;
  uint64_t index = vertexIndex;
  if (b.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE)
    index = b.divisor == 0 ? firstInstance : uint64_t(firstInstance) + (instanceIndex - firstInstance) / b.divisor;
  const uint64_t at = index * b.stride + p.offset;
  if (p.kind == AttributeFetch::Kind::Missing || !b.base || at + p.blockSize > b.size) {
    std::memcpy(out, p.outOfRange, 16);
    return;
  }
  const uint8_t* src = b.base + at;
  switch (p.kind) {
    case AttributeFetch::Kind::Words:
      // Constant sizes: a few moves instead of a memcpy call per attribute and vertex.
      std::memcpy(out, p.defaults, 16);
      switch (p.words) {
        case 4: std::memcpy(out, src, 16); break;
        case 3: std::memcpy(out, src, 12); break;
        case 2: std::memcpy(out, src, 8); break;
        default: std::memcpy(out, src, 4); break;
      }
      return;
    case AttributeFetch::Kind::Unorm8x4:
      for (int c = 0; c < 4; ++c) {
        const float v = float(src[c]) / 255.0f;
        std::memcpy(&out[c], &v, 4);
      }
      return;
    default: {
      TexelValue v{};
      decodeTexel(*p.format, src, v);
      std::memcpy(out, v.u, 16);
      return;
    }
  }
}

uint32_t restartValue(VkIndexType t) {
  return t == VK_INDEX_TYPE_UINT16 ? 0xFFFFu : t == VK_INDEX_TYPE_UINT8_EXT ? 0xFFu : 0xFFFFFFFFu;
}

}  // namespace

// What the draw paths keep per vertex position besides the shaded vertices: the index and
// restart flag here, the binned path's slot map, index table copy and assembled primitives.
constexpr uint64_t kBytesPerVertexPosition = 64;

void readVertexIndices(const DrawState& s, const DrawCall& c, VertexIndexList& out, ThreadPool* pool) {
  requireDrawMemory(c.vertexCount, kBytesPerVertexPosition);
  out.vertexIndex.resize(c.vertexCount);
  out.isRestart.clear();
  // Ranges of positions, over the pool when there is one (a draw of millions of indices spent a
  // tenth of its time here on the recording thread).
  constexpr size_t kRange = size_t(1) << 16;
  const size_t ranges = (size_t(c.vertexCount) + kRange - 1) / kRange;
  auto forEachRange = [&](auto&& body) {
    auto task = [&](size_t r) { body(r * kRange, std::min<size_t>(c.vertexCount, (r + 1) * kRange)); };
    if (pool) pool->parallelFor(ranges, task);
    else for (size_t r = 0; r < ranges; ++r) task(r);
  };
  uint32_t* __restrict to = out.vertexIndex.data();
  if (!c.indexed) {
    forEachRange([&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) to[i] = c.firstVertex + uint32_t(i);
    });
    return;
  }
  const uint32_t restart = restartValue(c.indexType);
  if (s.primitiveRestart) out.isRestart.resize(c.vertexCount);
  // One index type at a time: the positions whose index lies in the buffer in a loop the
  // compiler vectorizes (a draw of millions of indices spent most of its serial time in a
  // per-index read with its type and bounds checks), then the rest, which read index 0
  // (robust buffer access: an index past the buffer's end).
  const uint32_t size = c.indexType == VK_INDEX_TYPE_UINT16 ? 2 : c.indexType == VK_INDEX_TYPE_UINT8_EXT ? 1 : 4;
  const uint64_t start = uint64_t(c.firstIndex) * size;
  const uint64_t available = c.indices && start < c.indexBytes ? (c.indexBytes - start) / size : 0;
  const uint32_t inBuffer = uint32_t(std::min<uint64_t>(c.vertexCount, available));
  const uint32_t offset = uint32_t(c.vertexOffset);  // int64(index) + offset, truncated: the same bits
  const uint8_t* __restrict bytes = c.indices ? c.indices + start : nullptr;
  uint8_t* __restrict isRestart = out.isRestart.data();
  // (memcpy: the application's offset may leave the indices unaligned for their type.)
  auto copy = [&]<typename T>(T, size_t begin, size_t end) {
    const size_t last = std::min<size_t>(end, inBuffer);
    for (size_t i = begin; i < last; ++i) {
      T index;
      std::memcpy(&index, bytes + i * sizeof(T), sizeof(T));
      to[i] = uint32_t(index) + offset;
    }
    if (s.primitiveRestart)
      for (size_t i = begin; i < last; ++i) {
        T index;
        std::memcpy(&index, bytes + i * sizeof(T), sizeof(T));
        isRestart[i] = uint32_t(index) == restart;
      }
    for (size_t i = std::max<size_t>(begin, inBuffer); i < end; ++i) {
      to[i] = offset;  // index 0, never the restart value
      if (s.primitiveRestart) isRestart[i] = 0;
    }
  };
  forEachRange([&](size_t begin, size_t end) {
    if (size == 4) copy(uint32_t{}, begin, end);
    else if (size == 2) copy(uint16_t{}, begin, end);
    else copy(uint8_t{}, begin, end);
  });
}

void prepareShadedVertices(const DrawState& s, size_t count, ShadedVertices& out) {
  out.locations.clear();
  // The outputs the next stage reads: the tessellation control or geometry stage's inputs
  // when there is one.
  const uint8_t* next = s.tessControlShader ? s.tessellation.controlInputComponents
                        : s.geometryShader  ? s.geometry.inputComponents
                                            : s.fragment.inputComponents;
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
    if (s.vertexOutputComponents[l] && (next[l] || (vertexStageIsLast(s) && keepsFeedbackLocation(s, l))))
      out.locations.push_back(l);
  out.setLayout(s.vertexClipDistances, s.vertexCullDistances);
  // Every word of every slot is written by shadeVertexRange: no zero fill, and a reused
  // vector's memory is reused as it is (a scene recycles them from draw to draw).
  requireDrawMemory(count, uint64_t(out.stride) * 4 + 4);
  out.words.resize(count * out.stride);
  // Point sizes are kept for points, for the capture, and for a tessellation or geometry stage,
  // which may read them whatever the topology (gl_in[].gl_PointSize).
  if (s.topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST || hasPrimitiveStages(s) || keepsFeedbackPointSize(s))
    out.pointSize.assign(count, 1.0f);
  else out.pointSize.clear();
  if (vertexSelectsLayerOrViewport(s)) out.layerViewport.resize(2 * count);  // every slot written
  else out.layerViewport.clear();
}

void shadeVertexRange(const DrawState& s, const DrawCall& c, uint32_t instance, const uint32_t* vertexIndices,
                      size_t begin, size_t end, ShadedVertices& out) {
  const uint32_t W = s.simdWidth;
  // Kernel interface arrays, reused by the thread across calls (no allocation per range).
  // The inputs are zero but for the attributes fetched below (ZeroedSlices); the outputs are
  // cleared whole, as the kernel may write any location.
  thread_local ZeroedSlices inputSlices;
  thread_local std::vector<uint32_t> outputs;
  thread_local std::vector<float> position, pointSize, clip, cull;
  thread_local std::vector<uint32_t> layerViewport;
  layerViewport.assign(2 * W, 0);
  uint32_t* const inputWords = inputSlices.reset(abi::kMaxInterfaceLocations, 4 * W);
  outputs.assign(abi::kMaxInterfaceLocations * 4 * W, 0);
  position.assign(4 * W, 0.0f);
  pointSize.assign(W, 1.0f);
  clip.assign(abi::kMaxClipDistances * W, 0.0f);
  cull.assign(abi::kMaxClipDistances * W, 0.0f);
  abi::VertexBatch batch{};
  batch.resources = s.resources;
  batch.instanceIndex = instance;
  batch.baseVertex = c.indexed ? uint32_t(c.vertexOffset) : c.firstVertex;
  batch.baseInstance = c.firstInstance;
  batch.drawIndex = c.drawIndex;
  batch.inputs = inputWords;
  batch.position = position.data();
  batch.pointSize = pointSize.data();
  batch.clipDistance = clip.data();
  batch.cullDistance = cull.data();
  batch.outputs = outputs.data();
  batch.layerViewport = layerViewport.data();
  // The attributes the kernel does not fetch itself (jit::GraphicsFacts::fetchedLocations).
  AttributeFetch fetch[kMaxVertexAttributes];
  uint32_t fetchCount = 0;
  // (A location past the interface, which maxVertexInputAttributes forbids, has no words to
  // write: skipped rather than written past the array.)
  for (uint32_t a = 0; a < s.attributeCount; ++a)
    if (s.attributes[a].location < abi::kMaxInterfaceLocations && !(s.vertexFetchedLocations >> s.attributes[a].location & 1))
      fetch[fetchCount++] = planFetch(s, s.attributes[a]);
  for (uint32_t a = 0; a < fetchCount; ++a) inputSlices.markWritten(fetch[a].location);
  abi::VertexBuffer buffers[abi::kMaxVertexBuffers];
  if (s.vertexFetchedLocations) {
    static_assert(abi::kMaxVertexBuffers == kMaxVertexBindings);
    for (uint32_t b = 0; b < kMaxVertexBindings; ++b)
      buffers[b] = {s.bindings[b].base, s.bindings[b].base ? s.bindings[b].size : 0, s.bindings[b].stride, 0};
    batch.buffers = buffers;
  }
  // The arrays' addresses once: each use of a thread_local in a shared library is a call to
  // __tls_get_addr, which GCC repeats after every call to the kernel (~1% of a small-triangle scene).
  const uint32_t* const outputWords = outputs.data();
  const float* const positions = position.data();
  const float* const pointSizes = pointSize.data();
  const float* const clips = clip.data();
  const float* const culls = cull.data();
  const uint32_t* const layerViewports = layerViewport.data();
  for (size_t first = begin; first < end; first += W) {
    const uint32_t count = uint32_t(std::min<size_t>(W, end - first));
    batch.count = count;
    for (uint32_t lane = 0; lane < W; ++lane) batch.vertexIndex[lane] = lane < count ? vertexIndices[first + lane] : 0;
    // Attribute by attribute, lane by lane: the attribute's plan stays in registers.
    for (uint32_t a = 0; a < fetchCount; ++a) {
      uint32_t* words = &inputWords[size_t(fetch[a].location) * 4 * W];
      for (uint32_t lane = 0; lane < count; ++lane) {
        uint32_t v[4];
        fetchAttribute(fetch[a], batch.vertexIndex[lane], instance, c.firstInstance, v);
        for (uint32_t comp = 0; comp < 4; ++comp) words[comp * W + lane] = v[comp];
      }
    }
    s.vertexShader(&batch);
    if (!out.pointSize.empty())
      for (uint32_t lane = 0; lane < count; ++lane) out.pointSize[first + lane] = pointSizes[lane];
    if (!out.layerViewport.empty())
      for (uint32_t lane = 0; lane < count; ++lane) {
        out.layerViewport[2 * (first + lane)] = layerViewports[lane];
        out.layerViewport[2 * (first + lane) + 1] = layerViewports[W + lane];
      }
    // Position and each location: four components from the batch's rows to each lane's record.
    uint32_t* const records = &out.words[first * out.stride];
    storeLaneQuads(positions, W, count, records, out.stride, 0);
    for (size_t k = 0; k < out.locations.size(); ++k)
      storeLaneQuads(outputWords + size_t(out.locations[k]) * 4 * W, W, count, records, out.stride, 4 + 4 * k);
    for (uint32_t lane = 0; (out.clipDistances || out.cullDistances) && lane < count; ++lane) {
      uint32_t* v = &out.words[(first + lane) * out.stride];
      uint32_t* distances = v + out.distanceWord();
      for (uint32_t d = 0; d < out.clipDistances; ++d) std::memcpy(&distances[d], &clips[d * W + lane], 4);
      for (uint32_t d = 0; d < out.cullDistances; ++d) std::memcpy(&distances[out.clipDistances + d], &culls[d * W + lane], 4);
    }
  }
}

}  // namespace tessera::raster
