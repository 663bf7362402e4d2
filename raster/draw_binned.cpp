// The binned draw path (draw.h, RasterPath::Binned): the draw's work spread over a thread pool
// without giving up the spec's rasterization order.
//
//  1. Vertices: an indexed draw shades each distinct vertex once (the index list is mapped to
//     slots of distinct VertexIndex values when their range is compact), in ranges over the pool.
//  2. Primitives are assembled in order, then set up (clip, project, cull, bias: raster.h) in
//     chunks over the pool; each chunk bins its set-up primitives into screen tiles of
//     kTileSize pixels, keeping primitive order inside every bin.
//  3. Tiles are taken dynamically by the pool's threads; a tile walks the chunks in order and
//     rasterizes and shades its primitives in that order with its own FragmentStage. A pixel
//     belongs to one tile, so every pixel sees its primitives in API order ("Rasterization
//     Order") without locks, and the results equal the reference path's (draw_reference.cpp),
//     which the differential tests check.
//
// Primitives go through steps 2-3 in windows of kWindowPrimitives so that memory stays bounded
// whatever the draw's size.
#include <algorithm>
#include <cstring>
#include <vector>

#include "draw_internal.h"
#include "tessera/thread_pool.h"

namespace tessera::raster {
namespace {

// 64x64 is llvmpipe's choice too: a tile's RGBA8 colour and D32 depth (32 KiB together) stay
// in L2 while its primitives are drawn.
constexpr int32_t kTileShift = 6;
constexpr int32_t kTileSize = 1 << kTileShift;
constexpr uint32_t kVertexRange = 1024;          // vertices per shading task
constexpr uint32_t kChunkPrimitives = 2048;      // primitives per set-up and binning task
constexpr uint32_t kWindowPrimitives = 1u << 17; // primitives set up before their tiles run
constexpr uint64_t kInstanceGroupSlots = 1u << 18;  // shaded vertices kept for one group of instances
// Below this many pixels of primitive bounds a draw's tiles run on the calling thread (a pool
// hand-off costs tens of microseconds; 4096 pixels take about as long).
constexpr uint64_t kInlineDrawPixels = 4096;

enum class Kind : uint8_t { Point, Line, Triangle };

// One assembled primitive: the instance (within the group) and its vertices' slots.
struct Assembled {
  Kind kind;
  uint32_t instance;
  uint32_t slots[3];
  uint32_t primitiveId;
};

// One set-up primitive of a chunk (clipping may make several of one assembled primitive).
struct Binned {
  Kind kind;
  uint32_t instance;
  uint32_t slots[3];
  uint32_t primitiveId;
  uint32_t setup;  // index into the chunk's triangles, lines or points
};

struct Chunk {
  std::vector<SetupTriangle> triangles;
  std::vector<SetupLine> lines;
  std::vector<SetupPoint> points;
  std::vector<Binned> primitives;
  std::vector<uint32_t> binStart;  // per tile, + 1: offsets into binned
  std::vector<uint32_t> binned;    // indices into primitives, grouped by tile, in order
  uint64_t area = 0;               // pixels of the primitives' bounds, summed (work estimate)
};

struct TileGrid {
  int32_t columns = 0, rows = 0;
  uint32_t count() const { return uint32_t(columns) * uint32_t(rows); }
  Rect tile(uint32_t t) const {
    const int32_t x = int32_t(t % uint32_t(columns)) << kTileShift, y = int32_t(t / uint32_t(columns)) << kTileShift;
    return Rect{x, y, x + kTileSize, y + kTileSize};
  }
};

// Slots to shade: VertexIndex per slot, and the slot of every position of the index list.
struct VertexSlots {
  std::vector<uint32_t> vertexIndex;  // per slot
  std::vector<uint32_t> slotOf;       // per index-list position; empty: slot == position
  uint32_t slot(uint32_t position) const { return slotOf.empty() ? position : slotOf[position]; }
};

// "If the same vertex is specified multiple times in a draw command ... the implementation may
// reuse the results of vertex shading": distinct VertexIndex values get one slot each, in order
// of first use, when they span a range not much larger than the index list (a table over the
// range maps them); otherwise every position is shaded. Unused vertices are never shaded.
void mapVertexSlots(const DrawCall& c, const VertexIndexList& list, VertexSlots& out) {
  const uint32_t n = c.vertexCount;
  out.slotOf.clear();
  if (!c.indexed) {
    out.vertexIndex = list.vertexIndex;
    return;
  }
  uint32_t lo = UINT32_MAX, hi = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!list.isRestart.empty() && list.isRestart[i]) continue;
    lo = std::min(lo, list.vertexIndex[i]);
    hi = std::max(hi, list.vertexIndex[i]);
  }
  if (lo > hi || uint64_t(hi) - lo >= 4ull * n + 4096) {
    out.vertexIndex = list.vertexIndex;
    return;
  }
  std::vector<uint32_t> table(size_t(hi - lo) + 1, UINT32_MAX);
  out.vertexIndex.clear();
  out.slotOf.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (!list.isRestart.empty() && list.isRestart[i]) continue;
    uint32_t& slot = table[list.vertexIndex[i] - lo];
    if (slot == UINT32_MAX) {
      slot = uint32_t(out.vertexIndex.size());
      out.vertexIndex.push_back(list.vertexIndex[i]);
    }
    out.slotOf[i] = slot;
  }
}

// Step 2 for one chunk: set-up, then the chunk's bins.
void setUpChunk(const DrawState& s, const std::vector<ShadedVertices>& shaded, const Assembled* first,
                const Assembled* last, const TileGrid& grid, Chunk& chunk) {
  chunk.triangles.clear();
  chunk.lines.clear();
  chunk.points.clear();
  chunk.primitives.clear();
  for (const Assembled* a = first; a != last; ++a) {
    const ShadedVertices& v = shaded[a->instance];
    Binned b{a->kind, a->instance, {a->slots[0], a->slots[1], a->slots[2]}, a->primitiveId, 0};
    switch (a->kind) {
      case Kind::Triangle: {
        ClipTriangle tri;
        for (int k = 0; k < 3; ++k) std::memcpy(tri.position[k], v.position(a->slots[k]), 16);
        const size_t before = chunk.triangles.size();
        setupTriangle(tri, s.raster, chunk.triangles);
        for (size_t k = before; k < chunk.triangles.size(); ++k) {
          b.setup = uint32_t(k);
          chunk.primitives.push_back(b);
        }
        break;
      }
      case Kind::Line: {
        ClipLine line;
        std::memcpy(line.position[0], v.position(a->slots[0]), 16);
        std::memcpy(line.position[1], v.position(a->slots[1]), 16);
        const size_t before = chunk.lines.size();
        setupLine(line, s.raster, chunk.lines);
        for (size_t k = before; k < chunk.lines.size(); ++k) {
          b.setup = uint32_t(k);
          chunk.primitives.push_back(b);
        }
        break;
      }
      case Kind::Point: {
        SetupPoint p;
        if (!setupPoint(v.position(a->slots[0]), v.pointSize[a->slots[0]], s.raster, &p)) break;
        b.setup = uint32_t(chunk.points.size());
        chunk.points.push_back(p);
        chunk.primitives.push_back(b);
        break;
      }
    }
  }
  // Bins by counting sort: the tiles each primitive's bounds touch, primitive order kept.
  auto bounds = [&](const Binned& b) -> const Rect& {
    return b.kind == Kind::Triangle ? chunk.triangles[b.setup].bounds
           : b.kind == Kind::Line   ? chunk.lines[b.setup].bounds
                                    : chunk.points[b.setup].bounds;
  };
  auto forEachTile = [&](const Rect& r, auto&& f) {
    if (r.x0 >= r.x1 || r.y0 >= r.y1) return;
    const int32_t tx0 = std::max(r.x0, 0) >> kTileShift, ty0 = std::max(r.y0, 0) >> kTileShift;
    const int32_t tx1 = std::min((r.x1 - 1) >> kTileShift, grid.columns - 1);
    const int32_t ty1 = std::min((r.y1 - 1) >> kTileShift, grid.rows - 1);
    for (int32_t ty = ty0; ty <= ty1; ++ty)
      for (int32_t tx = tx0; tx <= tx1; ++tx) f(uint32_t(ty) * uint32_t(grid.columns) + uint32_t(tx));
  };
  chunk.binStart.assign(grid.count() + 1, 0);
  chunk.area = 0;
  for (const Binned& b : chunk.primitives) {
    const Rect& r = bounds(b);
    if (r.x0 < r.x1 && r.y0 < r.y1) chunk.area += uint64_t(r.x1 - r.x0) * uint64_t(r.y1 - r.y0);
    forEachTile(r, [&](uint32_t t) { ++chunk.binStart[t + 1]; });
  }
  for (uint32_t t = 0; t < grid.count(); ++t) chunk.binStart[t + 1] += chunk.binStart[t];
  chunk.binned.resize(chunk.binStart[grid.count()]);
  std::vector<uint32_t> fill(chunk.binStart.begin(), chunk.binStart.end() - 1);
  for (uint32_t i = 0; i < chunk.primitives.size(); ++i)
    forEachTile(bounds(chunk.primitives[i]), [&](uint32_t t) { chunk.binned[fill[t]++] = i; });
}

// Step 3 for one tile: its primitives, chunk after chunk, in order.
void drawTile(const DrawState& s, const std::vector<ShadedVertices>& shaded, const std::vector<Chunk>& chunks,
              size_t chunkCount, uint32_t tile, const Rect& rect) {
  FragmentStage fragments(s, /*blocks=*/true);
  for (size_t c = 0; c < chunkCount; ++c) {
    const Chunk& chunk = chunks[c];
    for (uint32_t k = chunk.binStart[tile]; k < chunk.binStart[tile + 1]; ++k) {
      const Binned& b = chunk.primitives[chunk.binned[k]];
      const ShadedVertices& v = shaded[b.instance];
      switch (b.kind) {
        case Kind::Triangle: fragments.setUpTriangle(v, b.slots, b.primitiveId, chunk.triangles[b.setup], rect); break;
        case Kind::Line: fragments.setUpLine(v, b.slots, b.primitiveId, chunk.lines[b.setup], rect); break;
        case Kind::Point: fragments.setUpPoint(v, b.slots[0], b.primitiveId, chunk.points[b.setup], rect); break;
      }
    }
  }
  fragments.flush();
}

// Steps 2 and 3 for a window of assembled primitives.
void drawWindow(const DrawState& s, const std::vector<ShadedVertices>& shaded, const Assembled* first, size_t count,
                const TileGrid& grid, std::vector<Chunk>& chunks, ThreadPool& pool) {
  const size_t chunkCount = (count + kChunkPrimitives - 1) / kChunkPrimitives;
  if (chunks.size() < chunkCount) chunks.resize(chunkCount);
  pool.parallelFor(chunkCount, [&](size_t c) {
    const size_t begin = c * kChunkPrimitives, end = std::min(count, begin + kChunkPrimitives);
    setUpChunk(s, shaded, first + begin, first + end, grid, chunks[c]);
  });
  std::vector<uint32_t> tiles;
  for (uint32_t t = 0; t < grid.count(); ++t)
    for (size_t c = 0; c < chunkCount; ++c)
      if (chunks[c].binStart[t + 1] > chunks[c].binStart[t]) {
        tiles.push_back(t);
        break;
      }
  // A small draw runs on the calling thread: waking the pool costs more than its pixels.
  uint64_t area = 0;
  for (size_t c = 0; c < chunkCount; ++c) area += chunks[c].area;
  auto tileBody = [&](size_t i) { drawTile(s, shaded, chunks, chunkCount, tiles[i], grid.tile(tiles[i])); };
  if (area <= kInlineDrawPixels) {
    for (size_t i = 0; i < tiles.size(); ++i) tileBody(i);
  } else {
    pool.parallelFor(tiles.size(), tileBody);
  }
}

}  // namespace

void drawBinned(const DrawState& s, const DrawCall& c, ThreadPool& pool) {
  if (!s.vertexShader || c.vertexCount == 0 || c.instanceCount == 0) return;
  VertexIndexList list;
  readVertexIndices(s, c, list);
  VertexSlots slots;
  mapVertexSlots(c, list, slots);
  const uint32_t slotCount = uint32_t(slots.vertexIndex.size());

  // The tile grid covers the pixels a draw may write (the scissor lies inside the render area).
  TileGrid grid;
  grid.columns = std::max(0, (s.renderArea.x1 + kTileSize - 1) >> kTileShift);
  grid.rows = std::max(0, (s.renderArea.y1 + kTileSize - 1) >> kTileShift);

  // Instances are shaded in groups whose vertices fit kInstanceGroupSlots.
  const uint32_t groupSize = uint32_t(std::clamp<uint64_t>(kInstanceGroupSlots / std::max(slotCount, 1u), 1, c.instanceCount));
  std::vector<ShadedVertices> shaded(groupSize);
  std::vector<Assembled> assembled;
  std::vector<Chunk> chunks;
  for (uint32_t groupFirst = 0; groupFirst < c.instanceCount; groupFirst += groupSize) {
    const uint32_t instances = std::min(groupSize, c.instanceCount - groupFirst);
    // Step 1: vertex shading, ranges of every instance of the group over the pool.
    for (uint32_t i = 0; i < instances; ++i) prepareShadedVertices(s, slotCount, shaded[i]);
    const uint32_t rangesPerInstance = (slotCount + kVertexRange - 1) / kVertexRange;
    pool.parallelFor(size_t(instances) * rangesPerInstance, [&](size_t task) {
      const uint32_t i = uint32_t(task / rangesPerInstance), r = uint32_t(task % rangesPerInstance);
      const size_t begin = size_t(r) * kVertexRange, end = std::min<size_t>(slotCount, begin + kVertexRange);
      shadeVertexRange(s, c, c.firstInstance + groupFirst + i, slots.vertexIndex.data(), begin, end, shaded[i]);
    });
    if (s.rasterizerDiscard || grid.count() == 0) continue;

    // Primitive assembly, in order; PrimitiveId restarts with each instance.
    assembled.clear();
    for (uint32_t i = 0; i < instances; ++i) {
      uint32_t primitiveId = 0;
      auto add = [&](Kind kind, uint32_t a, uint32_t b, uint32_t d) {
        assembled.push_back(Assembled{kind, i, {slots.slot(a), slots.slot(b), slots.slot(d)}, primitiveId++});
      };
      assemblePrimitives(
          s.topology, list.isRestart, c.vertexCount, [&](uint32_t a) { add(Kind::Point, a, a, a); },
          [&](uint32_t a, uint32_t b) { add(Kind::Line, a, b, a); },
          [&](uint32_t a, uint32_t b, uint32_t d) { add(Kind::Triangle, a, b, d); });
    }
    for (size_t first = 0; first < assembled.size(); first += kWindowPrimitives)
      drawWindow(s, shaded, assembled.data() + first, std::min<size_t>(kWindowPrimitives, assembled.size() - first), grid,
                 chunks, pool);
  }
}

}  // namespace tessera::raster
