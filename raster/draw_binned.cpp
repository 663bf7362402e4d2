// The binned draw path (draw.h, RasterPath::Binned): draws accumulated into a Scene and run
// over a thread pool without giving up the spec's rasterization order.
//
//  1. Scene::add, per draw: an indexed draw shades each distinct vertex once (the index list is
//     mapped to slots of distinct VertexIndex values when their range is compact), in ranges
//     over the pool; primitives are assembled in order, then set up (clip, project, cull, bias:
//     raster.h) in chunks over the pool; each chunk bins its set-up primitives into screen
//     tiles of kTileSize pixels, keeping primitive order inside every bin.
//  2. Scene::flush: tiles are taken dynamically by the pool's threads, column by column
//     (runTiles says why); a tile walks the scene's draws, chunks and bins in order and
//     rasterizes and shades its primitives in that order with one FragmentStage retargeted
//     from draw to draw. A pixel belongs to one tile, so every pixel sees its primitives in
//     API order ("Rasterization Order") without locks, and the results equal the reference
//     path's (draw_reference.cpp), which the differential tests check.
//  3. Before drawing a tile, work that cannot be seen is dropped: everything before the tile's
//     last triangle, or last pair of consecutive triangles sharing an edge (a quad), that
//     covers the whole tile with an opaque, unconditional write of every colour attachment, as
//     long as that earlier work has no other effect (no depth or stencil writes, no shader
//     side effects, no occlusion query).
//
// A scene holds at most kScenePrimitives set-up primitives, kSceneDraws draw windows and
// kSceneVertexBytes of shaded vertices; past any of them it is flushed, so memory stays bounded
// whatever the draws' sizes.
#include <algorithm>
#include <cstring>
#include <vector>

#include <deque>
#include <map>
#include <memory>

#include "draw_internal.h"
#include "project_lanes.h"
#include "pixel_weights.h"
#include "rules.h"
#include "tessera/thread_pool.h"
#include "vertex_slots.h"

namespace tessera::raster {
namespace {

// 64x64 is llvmpipe's choice too: a tile's RGBA8 colour and D32 depth (32 KiB together) stay
// in L2 while its primitives are drawn.
constexpr int32_t kTileShift = 6;
constexpr int32_t kTileSize = 1 << kTileShift;
constexpr uint32_t kVertexRange = 1024;          // vertices per shading task
// A draw group with at most this many shaded slots (over all its instances) is shaded, and its
// geometry or tessellation stages run, on the recording thread: waking the pool and waiting for
// it takes microseconds, more than shading a few vertices (the CTS's multi_draw cases draw 1024
// one-triangle draws of up to 10 instances each, and spent a quarter of their time in the
// kernel's thread switches).
constexpr uint64_t kInlineSlots = 256;
constexpr uint32_t kChunkPrimitives = 2048;      // primitives per set-up and binning task (below)
constexpr uint32_t kScenePrimitives = 1u << 17;  // set-up primitives a scene holds before it is flushed
constexpr size_t kSceneDraws = 1024;             // draw windows a scene holds before it is flushed
constexpr uint64_t kSceneVertexBytes = 256ull << 20;  // shaded vertices a scene holds before it is flushed
constexpr uint64_t kInstanceGroupSlots = 1u << 18;  // shaded vertices kept for one group of instances
// kChunkPrimitives: a tile visits every chunk of the scene (its bin start, a few entries, the
// prefetches for later chunks), so fewer, larger chunks cost less per tile, but 4096 measured
// slower at two threads on a quiet machine (tris_small_b2f 315-346 ms against 301-305,
// tris_small_f2b 295-315 against 284-292, alternated processes), though faster at one thread
// while another process loaded the second core.
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
  uint32_t viewport = 0;  // ViewportIndex
  double stippleCounter = 0;  // a line's "Line Stipple" s at its first vertex (LineStippleCounter)
  uint32_t provoking = 0;  // which of slots is the provoking vertex ("Flat Shading")
};

// The primitives of a draw group's instances, in order, for set-up: m.assembled, or made range
// by range by the set-up tasks themselves where primitive p is a function of p (a draw without
// restarts, line stipple or primitive stages: emitRunPrimitives). The second needs no serial
// pass over the primitives and no buffer of them (an indexed mesh of 2M triangles spent a
// quarter of its time assembling on the recording thread while the pool waited).
struct PrimitiveSource {
  const std::vector<Assembled>* list = nullptr;  // null: made by range()
  VkPrimitiveTopology topology{};
  uint32_t perInstance = 0, instances = 0;  // primitives of each instance's one run, instances
  bool provokingVertexLast = false;
  const VertexSlots* slots = nullptr;
  size_t size() const { return list ? list->size() : size_t(perInstance) * instances; }
  // Primitives [begin, end), in `scratch` when they are made here.
  const Assembled* range(size_t begin, size_t end, std::vector<Assembled>& scratch) const;
};

// One set-up primitive of a chunk (clipping may make several of one assembled primitive).
struct Binned {
  Kind kind;
  uint32_t instance;
  uint32_t slots[3];
  uint32_t primitiveId;
  uint32_t setup;  // index into the chunk's triangles, lines or points
  uint32_t viewport;  // ViewportIndex: the viewport it was set up for
  // Which of slots is the provoking vertex: the assembled primitive's (polygon mode's edges
  // and vertices keep their triangle's).
  uint32_t provoking;
};

struct Chunk {
  std::vector<SetupTriangle> triangles;
  std::vector<SetupLine> lines;
  std::vector<SetupPoint> points;
  std::vector<Binned> primitives;  // in primitive order
  std::vector<uint32_t> binStart;  // per tile, + 1: offsets into the bin entries below
  // The bin entries, grouped by tile, in order: the primitives themselves, a copy for each tile
  // a primitive touches (`copied`, when they are at most twice as many as the primitives: small
  // ones), or else their indices into `primitives` (a large primitive in hundreds of tiles
  // would be hundreds of copies). A tile reads copies one after another, sequential lines the
  // hardware prefetches, with one dependent load less per primitive than through an index
  // (tris_small: the load of each indexed entry was a third of the tile loop's own time).
  bool copied = false;
  std::vector<Binned> binnedCopies;
  std::vector<uint32_t> binned;
  const Binned& entry(uint32_t k) const { return copied ? binnedCopies[k] : primitives[binned[k]]; }
  uint64_t area = 0;               // pixels of the primitives' bounds, summed (work estimate)
  // The tiles its primitives touch lie in columns [tileX0, tileX1) and rows [tileY0, tileY1)
  // (empty without primitives): a tile outside needs no look at binStart, whose two words per
  // chunk and tile are a cache miss each (10,000 small draws: most of the flush's serial time).
  int32_t tileX0 = 0, tileY0 = 0, tileX1 = 0, tileY1 = 0;
  bool mayTouch(int32_t tx, int32_t ty) const { return tx >= tileX0 && tx < tileX1 && ty >= tileY0 && ty < tileY1; }
};

struct TileGrid {
  int32_t columns = 0, rows = 0;
  uint32_t count() const { return uint32_t(columns) * uint32_t(rows); }
  Rect tile(uint32_t t) const {
    const int32_t x = int32_t(t % uint32_t(columns)) << kTileShift, y = int32_t(t / uint32_t(columns)) << kTileShift;
    return Rect{x, y, x + kTileSize, y + kTileSize};
  }
};

const Assembled* PrimitiveSource::range(size_t begin, size_t end, std::vector<Assembled>& scratch) const {
  if (list) return list->data() + begin;
  scratch.clear();
  for (size_t p = begin; p < end;) {
    // PrimitiveId restarts with each instance, whose primitives are one run of its vertices.
    const uint32_t instance = uint32_t(p / perInstance), first = uint32_t(p % perInstance);
    const uint32_t last = uint32_t(std::min<size_t>(perInstance, first + (end - p)));
    uint32_t primitiveId = first;
    auto add = [&](Kind kind, uint32_t a, uint32_t b, uint32_t d, uint32_t provoking) {
      scratch.push_back(Assembled{kind, instance, {slots->slot(a), slots->slot(b), slots->slot(d)}, primitiveId++, 0, 0,
                                  provoking});
    };
    emitRunPrimitives(
        topology, 0, first, last, [&](uint32_t a) { add(Kind::Point, a, a, a, 0); },
        [&](uint32_t a, uint32_t b, bool) { add(Kind::Line, a, b, a, provokingVertexLast ? 1 : 0); },
        [&](uint32_t a, uint32_t b, uint32_t d, uint32_t lastAt) {
          add(Kind::Triangle, a, b, d, provokingVertexLast ? lastAt : 0);
        });
    p += last - first;
  }
  return scratch.data();
}

// Whether a draw's triangles are set up from vertices projected once per slot
// (ShadedVertices::projected): triangles filled (not polygon modes), the vertex stage the last
// one before rasterization, no user clip or cull distances (the projection's inside test knows
// none), viewport 0 for every primitive. An indexed mesh shares each vertex among ~6 triangles;
// setupTriangle projects a vertex for each of them (three divisions and the viewport
// transform, in double).
bool projectsVertices(const DrawState& s) {
  const VkPrimitiveTopology t = s.topology;
  const bool triangles = t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST || t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
                         t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN || t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY ||
                         t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
  return triangles && s.polygonMode == VK_POLYGON_MODE_FILL && !hasPrimitiveStages(s) && !s.rasterizerDiscard &&
         s.vertexClipDistances == 0 && s.vertexCullDistances == 0 && !vertexSelectsLayerOrViewport(s);
}

void projectVertexRange(const RasterState& raster, size_t begin, size_t end, ShadedVertices& v) {
  for (size_t slot = begin; slot < end; ++slot) {
    // Only a vertex inside is projected: outside the guard band (or with w <= 0, or not
    // finite) the window position need not fit the snapped integers.
    const float* position = v.position(uint32_t(slot));
    ProjectedVertex& p = v.projected[slot];
    p.inside = vertexTriviallyInside(position, raster);
    if (p.inside) {
      p = projectVertex(position, raster);
      p.inside = true;
    }
  }
}

// A chunk's triangle vertices in projectLanes' arrays (setUpChunk), reused by the thread.
struct ChunkProjection {
  bool used = false;
  std::vector<float> x, y, z, w;
  std::vector<int64_t> sx, sy;
  std::vector<double> windowZ;
  std::vector<float> invW;
  std::vector<uint8_t> inside;
  ProjectedVertex vertex(size_t i) const { return ProjectedVertex{sx[i], sy[i], windowZ[i], invW[i], true}; }
};

constexpr ptrdiff_t kPositionsAhead = 24;  // primitives: roughly a memory latency of this loop; not tuned
ChunkProjection& chunkProjection(const DrawState& s, const std::vector<ShadedVertices>& shaded, const Assembled* first,
                                 const Assembled* last) {
  thread_local ChunkProjection p;
  p.used = false;
  if (s.polygonMode != VK_POLYGON_MODE_FILL) return p;
  // Nothing to do for a draw projected per slot or with user clip or cull distances (no pass
  // over the chunk's primitives to find that out).
  if (std::none_of(shaded.begin(), shaded.end(),
                   [](const ShadedVertices& v) { return v.projected.empty() && !v.clipDistances && !v.cullDistances; }))
    return p;
  const size_t n = size_t(last - first) * 3;
  for (std::vector<float>* v : {&p.x, &p.y, &p.z, &p.w, &p.invW}) v->resize(n);
  p.sx.resize(n), p.sy.resize(n), p.windowZ.resize(n), p.inside.resize(n);
  float *x = p.x.data(), *y = p.y.data(), *z = p.z.data(), *w = p.w.data();
  size_t triangles = 0;
  for (const Assembled* a = first; a != last; ++a) {
    const size_t at = size_t(a - first) * 3;
    const ShadedVertices& v = shaded[a->instance];
    // The positions of a primitive further on, prefetched: the records were written when the
    // whole draw was shaded and have left the cache since (a million triangles' vertices are
    // 96 MB), and this loop's loads waited on them (a third of setUpChunk's time, perf).
    if (last - a > kPositionsAhead) {
      const Assembled& ahead = a[kPositionsAhead];
      const ShadedVertices& va = shaded[ahead.instance];
      for (int k = 0; k < 3; ++k) __builtin_prefetch(va.words.data() + size_t(ahead.slots[k]) * va.stride);
    }
    // Entries of other primitives stay outside (w = NaN fails every test), as do those of
    // triangles whose draw projected its vertices per slot already (ShadedVertices::projected).
    const bool here = a->kind == Kind::Triangle && v.projected.empty() && !v.clipDistances && !v.cullDistances;
    for (int k = 0; k < 3; ++k) {
      if (!here) {
        x[at + k] = y[at + k] = z[at + k] = 0.0f, w[at + k] = NAN;
        continue;
      }
      const float* position = v.position(a->slots[k]);
      x[at + k] = position[0], y[at + k] = position[1], z[at + k] = position[2], w[at + k] = position[3];
    }
    triangles += here;
  }
  if (triangles == 0) return p;
  projectLanes(s.raster, n, ProjectLanes{x, y, z, w, p.sx.data(), p.sy.data(), p.windowZ.data(), p.invW.data(), p.inside.data()});
  p.used = true;
  return p;
}

// Step 2 for one chunk: set-up, then the chunk's bins.
void setUpChunk(const DrawState& s, const std::vector<ShadedVertices>& shaded, const Assembled* first,
                const Assembled* last, const TileGrid& grid, Chunk& chunk) {
  chunk.triangles.clear();
  chunk.lines.clear();
  chunk.points.clear();
  chunk.primitives.clear();
  // Each primitive is set up with its viewport's state ("Controlling the Viewport"), made for
  // the chunk when a primitive first selects it.
  RasterState rasters[kMaxViewports];
  TriangleSetupConstants constants[kMaxViewports];
  uint32_t prepared = 1;  // bit i: rasters[i], constants[i] hold viewport i's
  rasters[0] = s.raster;
  constants[0] = triangleSetupConstants(s.raster);
  uint64_t clipped = 0;  // primitives that leave clipping (CLIPPING_PRIMITIVES)
  // The vertices of the chunk's triangles projected together (projectLanes: vectorized), entry
  // 3 i + k for vertex k of primitive i, when the draw fills polygons without user clip or cull
  // distances and its vertices were not projected already (projectsVertices). Viewport 0's
  // state: triangles sent to another viewport take the per-triangle path.
  ChunkProjection& projection = chunkProjection(s, shaded, first, last);
  for (const Assembled* a = first; a != last; ++a) {
    const size_t before = chunk.primitives.size();
    // The records appended a few primitives from now, prefetched for writing: the chunks' vectors
    // are reused from scene to scene, and their lines have left the cache since (a million
    // triangles write 160 MB), so each store waited for its line (a third of tris_small's set-up
    // time, perf; 5% of the workload's time with the prefetch). Within the capacity only.
    constexpr size_t kAhead = 8;  // 16 measured no better
    if (chunk.triangles.size() + kAhead < chunk.triangles.capacity()) {
      const char* t = reinterpret_cast<const char*>(chunk.triangles.data() + chunk.triangles.size() + kAhead);
      __builtin_prefetch(t, 1, 3);
      __builtin_prefetch(t + 64, 1, 3);  // the record's two hot lines (kSetupTriangleHotBytes)
    }
    if (before + 2 * kAhead < chunk.primitives.capacity()) __builtin_prefetch(chunk.primitives.data() + before + 2 * kAhead, 1, 3);
    bool pointLeft = false;  // a point that left clipping, covering a pixel or not
    const ShadedVertices& v = shaded[a->instance];
    const uint32_t vp = a->viewport < s.viewportCount && a->viewport < kMaxViewports ? a->viewport : 0;
    if (!(prepared >> vp & 1)) {
      rasters[vp] = viewportRaster(s, vp);
      constants[vp] = triangleSetupConstants(rasters[vp]);
      prepared |= 1u << vp;
    }
    const RasterState& raster = rasters[vp];
    const TriangleSetupConstants& setupConstants = constants[vp];
    Binned b{a->kind, a->instance, {a->slots[0], a->slots[1], a->slots[2]}, a->primitiveId, 0, vp, a->provoking};
    switch (a->kind) {
      case Kind::Triangle: {
        // Vertices projected once for the draw (projectsVertices): a triangle inside every
        // clip half-space is set up from them, as setupTriangle would set it up.
        if (vp == 0 && !v.projected.empty()) {
          const ProjectedVertex &p0 = v.projected[a->slots[0]], &p1 = v.projected[a->slots[1]], &p2 = v.projected[a->slots[2]];
          if (p0.inside && p1.inside && p2.inside) {
            const size_t before = chunk.triangles.size();
            setupProjected(p0, p1, p2, raster, setupConstants, chunk.triangles);
            for (size_t k = before; k < chunk.triangles.size(); ++k) {
              b.setup = uint32_t(k);
              chunk.primitives.push_back(b);
            }
            break;
          }
        }
        if (vp == 0 && projection.used) {
          const size_t at = size_t(a - first) * 3;
          if (projection.inside[at] & projection.inside[at + 1] & projection.inside[at + 2]) {
            const size_t before = chunk.triangles.size();
            setupProjected(projection.vertex(at), projection.vertex(at + 1), projection.vertex(at + 2), raster,
                           setupConstants, chunk.triangles);
            for (size_t k = before; k < chunk.triangles.size(); ++k) {
              b.setup = uint32_t(k);
              chunk.primitives.push_back(b);
            }
            break;
          }
        }
        ClipTriangle tri;
        for (int k = 0; k < 3; ++k) std::memcpy(tri.position[k], v.position(a->slots[k]), 16);
        if (!userClipping(v, a->slots, 3, tri.clipDistances, tri.clipDistance)) break;
        // "Polygon Mode": the clipped, not culled polygon's edges as lines or vertices as
        // points, binned as such, each with the triangle's three slots.
        if (s.polygonMode == VK_POLYGON_MODE_LINE || s.polygonMode == VK_POLYGON_MODE_POINT) {
          const bool lines = s.polygonMode == VK_POLYGON_MODE_LINE;
          const size_t before = lines ? chunk.lines.size() : chunk.points.size();
          if (lines) setupPolygonEdges(tri, raster, chunk.lines);
          else setupPolygonVertices(tri, raster, chunk.points);
          b.kind = lines ? Kind::Line : Kind::Point;
          for (size_t k = before; k < (lines ? chunk.lines.size() : chunk.points.size()); ++k) {
            b.setup = uint32_t(k);
            chunk.primitives.push_back(b);
          }
          break;
        }
        const size_t before = chunk.triangles.size();
        setupTriangle(tri, raster, setupConstants, chunk.triangles);
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
        if (!userClipping(v, a->slots, 2, line.clipDistances, line.clipDistance)) break;
        const size_t before = chunk.lines.size();
        setupLine(line, raster, a->stippleCounter, chunk.lines);
        for (size_t k = before; k < chunk.lines.size(); ++k) {
          b.setup = uint32_t(k);
          chunk.primitives.push_back(b);
        }
        break;
      }
      case Kind::Point: {
        SetupPoint p;
        if (!pointSurvivesUserClipping(v, a->slots[0])) break;
        // "Pipeline Statistics Queries": counted when inside the clip volume, even if its square
        // then covers no pixel (as the reference path's FragmentStage::point).
        pointLeft = pointLeavesClipping(v.position(a->slots[0]), raster);
        if (!setupPoint(v.position(a->slots[0]), v.pointSize[a->slots[0]], raster, &p)) break;
        b.setup = uint32_t(chunk.points.size());
        chunk.points.push_back(p);
        chunk.primitives.push_back(b);
        break;
      }
    }
    clipped += chunk.primitives.size() > before || pointLeft;
  }
  countStatistic(s, kClippingPrimitives, clipped);
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
  int32_t tileX0 = grid.columns, tileY0 = grid.rows, tileX1 = 0, tileY1 = 0;
  for (const Binned& b : chunk.primitives) {
    const Rect& r = bounds(b);
    if (r.x0 < r.x1 && r.y0 < r.y1) chunk.area += uint64_t(r.x1 - r.x0) * uint64_t(r.y1 - r.y0);
    forEachTile(r, [&](uint32_t t) {
      ++chunk.binStart[t + 1];
      const int32_t tx = int32_t(t % uint32_t(grid.columns)), ty = int32_t(t / uint32_t(grid.columns));
      tileX0 = std::min(tileX0, tx), tileX1 = std::max(tileX1, tx + 1);
      tileY0 = std::min(tileY0, ty), tileY1 = std::max(tileY1, ty + 1);
    });
  }
  chunk.tileX0 = tileX0, chunk.tileY0 = tileY0, chunk.tileX1 = tileX1, chunk.tileY1 = tileY1;
  if (tileX0 >= tileX1) {
    chunk.binned.clear();
    chunk.binnedCopies.clear();
    chunk.copied = false;
    return;
  }
  // The running sum over the tiles from the range's first to its last (before it every count
  // is 0; after it the total): a small draw's chunk does not add up the whole grid.
  const uint32_t firstTile = uint32_t(tileY0) * uint32_t(grid.columns) + uint32_t(tileX0);
  const uint32_t lastTile = uint32_t(tileY1 - 1) * uint32_t(grid.columns) + uint32_t(tileX1 - 1);
  for (uint32_t t = firstTile; t <= lastTile; ++t) chunk.binStart[t + 1] += chunk.binStart[t];
  std::fill(chunk.binStart.begin() + lastTile + 2, chunk.binStart.end(), chunk.binStart[lastTile + 1]);
  const uint32_t entries = chunk.binStart[lastTile + 1];
  chunk.copied = entries <= 2 * chunk.primitives.size();
  thread_local std::vector<uint32_t> fill;
  fill.assign(chunk.binStart.begin() + firstTile, chunk.binStart.begin() + lastTile + 1);
  if (chunk.copied) {
    chunk.binned.clear();
    chunk.binnedCopies.resize(entries);
    for (const Binned& b : chunk.primitives)
      forEachTile(bounds(b), [&](uint32_t t) { chunk.binnedCopies[fill[t - firstTile]++] = b; });
  } else {
    chunk.binnedCopies.clear();
    chunk.binned.resize(entries);
    for (uint32_t i = 0; i < chunk.primitives.size(); ++i)
      forEachTile(bounds(chunk.primitives[i]), [&](uint32_t t) { chunk.binned[fill[t - firstTile]++] = i; });
  }
}

// Whether two draws render into the same attachments over the same area (one scene).
bool sameTargets(const DrawState& a, const DrawState& b) {
  const Rect &ra = a.renderArea, &rb = b.renderArea;
  if (ra.x0 != rb.x0 || ra.y0 != rb.y0 || ra.x1 != rb.x1 || ra.y1 != rb.y1) return false;
  if (a.colorCount != b.colorCount || a.depth.base != b.depth.base || a.stencil.base != b.stencil.base) return false;
  for (uint32_t i = 0; i < a.colorCount; ++i)
    if (a.color[i].base != b.color[i].base) return false;
  return true;
}

// Whether a draw's work can be dropped when a later primitive overwrites its tile: it has no
// effect but its colour (no depth or stencil writes, no shader side effects, not counted by an
// occlusion query).
bool droppable(const DrawState& s) {
  // (nor its fragment shader counted by a pipeline statistics query).
  if (s.fragment.hasSideEffects || s.occlusionSamples || s.statistics) return false;
  // A draw reading input attachments may read what the earlier draws of its tile wrote
  // (VK_EXT_rasterization_order_attachment_access), so it never counts as overwriting them
  // (overwritesColour); drawTile keeps the work before it too.
  if (s.fragment.readsInputAttachments) return false;
  if (s.depth.base && s.depthTest && s.depthWrite) return false;
  if (s.stencil.base && s.stencilTest) return false;
  return true;
}

// Whether a draw's covered samples always receive the fragment's colour in every colour
// attachment, replacing what was there: no test, discard, coverage change, blending or mask.
bool overwritesColour(const DrawState& s) {
  if (!droppable(s) || !s.fragmentShader || s.colorCount == 0) return false;
  if (s.fragment.canDiscard || s.fragment.writesSampleMask || s.alphaToCoverage) return false;
  const uint32_t all = (1u << std::max(s.raster.samples, 1u)) - 1;
  if ((s.sampleMask & all) != all) return false;
  if ((s.depth.base && (s.depthTest || s.depthBoundsTest)) || (s.stencil.base && s.stencilTest)) return false;
  if (s.logicOpEnable) return false;  // most operations read the attachment
  for (uint32_t i = 0; i < s.colorCount; ++i) {
    if (!s.color[i].base) continue;
    if (!(s.fragment.colorOutputs >> i & 1) || s.blend[i].enable || (s.blend[i].writeMask & 0xF) != 0xF) return false;
  }
  return true;
}

// Whether every sample location of the pixels of `r` lies inside the triangle ("Basic Polygon
// Rasterization", with its tie-break): the edges are linear, so the extreme sample locations of
// the corner pixels decide.
bool coversRect(const SetupTriangle& t, const Rect& r) {
  const Rect& b = t.bounds;
  if (r.x0 < b.x0 || r.y0 < b.y0 || r.x1 > b.x1 || r.y1 > b.y1) return false;  // scissor, viewport
  rules::EdgeFunction edges[3];
  double invArea2;
  if (!pixel::triangleEdges(t, edges, &invArea2)) return false;
  const rules::SampleOffsetRange o = rules::sampleOffsetRange(t.samples, t.customLocations);
  const int64_t one = rules::kSubPixelOne;
  const int64_t xs[2] = {r.x0 * one + o.min, (r.x1 - 1) * one + o.max};
  const int64_t ys[2] = {r.y0 * one + o.min, (r.y1 - 1) * one + o.max};
  for (const rules::EdgeFunction& e : edges) {
    for (int64_t y : ys)
      for (int64_t x : xs)
        if (!e.covers(e.value(x, y))) return false;
  }
  return true;
}

// Whether two triangles sharing an edge together cover every sample location of the pixels of
// `r` (a quad drawn as two triangles, where neither alone covers a tile on its diagonal). They
// must lie on opposite sides of the shared edge: their edge functions on it are then exact
// negatives with opposite tie-breaks ("Basic Polygon Rasterization"), so every sample passes
// the shared edge of one of them, and a sample that also passes the other four (outer) edges
// lies in that one. The outer edges are linear, so the extreme sample locations of r's corner
// pixels decide, as in coversRect. Both have the same scissor and viewport (the caller's
// check), and each one's bounds lie inside that rectangle, so r inside the box around both
// bounds is inside it too. Sufficient, and exact for a convex quad.
bool pairCoversRect(const SetupTriangle& a, const SetupTriangle& b, const Rect& r) {
  const Rect& ba = a.bounds;
  const Rect& bb = b.bounds;
  if (r.x0 < std::min(ba.x0, bb.x0) || r.y0 < std::min(ba.y0, bb.y0) || r.x1 > std::max(ba.x1, bb.x1) ||
      r.y1 > std::max(ba.y1, bb.y1))
    return false;
  // The vertex of each triangle that is not on the shared edge (the edge opposite it).
  int sharedA = 0, sharedB = 0, shared = 0;  // bit masks of the shared vertices
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (a.x[i] == b.x[j] && a.y[i] == b.y[j] && !(sharedA >> i & 1) && !(sharedB >> j & 1)) {
        sharedA |= 1 << i, sharedB |= 1 << j, ++shared;
        break;
      }
  if (shared != 2) return false;
  const int apexA = __builtin_ctz(~sharedA & 7), apexB = __builtin_ctz(~sharedB & 7);
  rules::EdgeFunction edgesA[3], edgesB[3];
  double invArea2;
  if (!pixel::triangleEdges(a, edgesA, &invArea2) || !pixel::triangleEdges(b, edgesB, &invArea2)) return false;
  // b's apex strictly outside a's shared edge: the two lie on opposite sides of it.
  if (edgesA[apexA].value(b.x[apexB], b.y[apexB]) >= 0) return false;
  const rules::SampleOffsetRange o = rules::sampleOffsetRange(a.samples, a.customLocations || b.customLocations);
  const int64_t one = rules::kSubPixelOne;
  const int64_t xs[2] = {r.x0 * one + o.min, (r.x1 - 1) * one + o.max};
  const int64_t ys[2] = {r.y0 * one + o.min, (r.y1 - 1) * one + o.max};
  for (int k = 0; k < 3; ++k) {
    const rules::EdgeFunction* outer[2] = {k == apexA ? nullptr : &edgesA[k], k == apexB ? nullptr : &edgesB[k]};
    for (const rules::EdgeFunction* e : outer) {
      if (!e) continue;
      for (int64_t y : ys)
        for (int64_t x : xs)
          if (!e->covers(e->value(x, y))) return false;
    }
  }
  return true;
}

}  // namespace

// Which shaded vertices of a triangle the tile pass reads (FragmentStage::prepareBlockInputs and
// the reference's interpolation): the three when some output is interpolated or the shader
// reads clip or cull distances, only the provoking vertex when every output is flat, none
// without outputs. Decides what runTiles prefetches, nothing else.
enum class VertexReads : uint8_t { None, Provoking, All };
VertexReads triangleVertexReads(const DrawState& s, const std::vector<ShadedVertices>& vertices) {
  if (vertices.empty() || s.fragment.clipDistances || s.fragment.cullDistances) return VertexReads::All;
  if (vertices.front().locations.empty()) return VertexReads::None;
  for (uint32_t loc : vertices.front().locations)
    if (loc >= abi::kMaxInterfaceLocations || s.fragment.inputInterpolation[loc] != 2) return VertexReads::All;
  return VertexReads::Provoking;
}

// One window of one instance group of one draw, set up and binned.
struct Scene::Window {
  const DrawState* state = nullptr;  // null: a window of clears or resolves
  std::shared_ptr<const std::vector<ShadedVertices>> vertices;
  std::vector<Chunk> chunks;
  std::vector<ClearRegion> clears;
  std::vector<ResolveRegion> resolves;
  bool droppable = false, overwrites = false;
  VertexReads triangleReads = VertexReads::All;  // triangleVertexReads(*state, vertices)
  // Whether the window has work in tile `t` (whose pixels are `rect`).
  bool touches(uint32_t t, const Rect& rect) const {
    for (const ClearRegion& c : clears)
      if (!rules::isEmpty(rules::intersect(c.rect, rect))) return true;
    for (const ResolveRegion& r : resolves)
      if (!rules::isEmpty(rules::intersect(r.rect, rect))) return true;
    const int32_t tx = rect.x0 >> kTileShift, ty = rect.y0 >> kTileShift;
    for (const Chunk& chunk : chunks)
      if (chunk.mayTouch(tx, ty) && chunk.binStart[t + 1] > chunk.binStart[t]) return true;
    return false;
  }
};

struct Scene::Impl {
  explicit Impl(ThreadPool& p) : pool(p) {}
  ThreadPool& pool;
  // The render area and the tile grid over it (from 0: tiles are aligned to the attachments).
  void useRenderArea(const Rect& area) {
    renderArea = area;
    grid.columns = std::max(0, (area.x1 + kTileSize - 1) >> kTileShift);
    grid.rows = std::max(0, (area.y1 + kTileSize - 1) >> kTileShift);
  }
  std::deque<DrawState> states;  // stable addresses for the windows
  std::vector<Window> windows;
  TileGrid grid;
  Rect renderArea{};
  size_t primitives = 0;
  uint64_t area = 0;         // pixels of the primitives' bounds
  uint64_t vertexBytes = 0;  // shaded vertices held by the windows
  // Scratch reused from draw to draw.
  VertexIndexList list;
  VertexSlots slots;
  std::vector<uint32_t> slotTable;  // mapVertexSlots'
  std::vector<Assembled> assembled;
  std::vector<GeometryOutput> geometry;  // per instance of a group, with a geometry or tessellation stage
  std::vector<GeometryOutput> tessellated;  // per instance: tessellation's primitives before a geometry stage
  std::deque<abi::BoundResources> layerResources;  // layered draws' resources, until flush()
  // Buffers recycled from draw to draw and scene to scene: shaded vertex groups (free when the
  // pool holds the only reference) and the chunk vectors of flushed windows. Reusing them
  // avoids fresh pages (page faults) for every large draw.
  std::vector<std::shared_ptr<std::vector<ShadedVertices>>> shadedPool;
  std::vector<std::vector<Chunk>> spareChunks;
  // The search for a free group starts where the last one was found (a scene's draws take
  // groups in order and runTiles frees them all, resetting the cursor): a scene of 1,024 small
  // draws otherwise looked through all the groups taken before each one (many_draws: 7%).
  size_t shadedCursor = 0;
  std::shared_ptr<std::vector<ShadedVertices>> shadedGroup(uint32_t instances) {
    const size_t n = shadedPool.size();
    for (size_t k = 0; k < n; ++k) {
      const size_t i = (shadedCursor + k) % n;
      if (shadedPool[i].use_count() == 1) {
        shadedCursor = i + 1;
        shadedPool[i]->resize(instances);
        return shadedPool[i];
      }
    }
    shadedPool.push_back(std::make_shared<std::vector<ShadedVertices>>(instances));
    shadedCursor = shadedPool.size();
    return shadedPool.back();
  }
};

Scene::Scene(ThreadPool& pool) : impl_(std::make_unique<Impl>(pool)) {}
Scene::~Scene() = default;

bool Scene::empty() const { return impl_->windows.empty(); }

namespace {
bool sameRect(const Rect& a, const Rect& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }
}  // namespace

// Before a window of clears or resolves over `renderArea`: a scene over another render area
// (another tile grid), or one full of windows, is flushed first.
void Scene::prepareRegionWindow(const Rect& renderArea) {
  Impl& m = *impl_;
  if (!m.windows.empty() && (!sameRect(m.renderArea, renderArea) || m.windows.size() >= kSceneDraws)) flush();
  if (m.windows.empty() && m.states.empty()) m.useRenderArea(renderArea);
}

void Scene::addClear(const ClearRegion& clear, const Rect& renderArea) {
  Impl& m = *impl_;
  ClearRegion c = clear;
  c.rect = rules::intersect(clear.rect, renderArea);
  if (!c.target.base || rules::isEmpty(c.rect)) return;
  // The clears of a render pass instance come before its draws, so the scene is usually empty.
  prepareRegionWindow(renderArea);
  Window w;
  w.clears.push_back(c);
  // A colour clear has no effect a later primitive overwriting the tile's colour leaves visible.
  w.droppable = c.colour;
  m.area += uint64_t(c.rect.x1 - c.rect.x0) * uint64_t(c.rect.y1 - c.rect.y0);
  m.windows.push_back(std::move(w));
}

void Scene::addResolve(const ResolveRegion& resolve, const Rect& renderArea) {
  Impl& m = *impl_;
  ResolveRegion r = resolve;
  r.rect = rules::intersect(resolve.rect, renderArea);
  if (!r.src.base || !r.dst.base || r.mode == VK_RESOLVE_MODE_NONE || rules::isEmpty(r.rect)) return;
  prepareRegionWindow(renderArea);
  // Consecutive resolves (several attachments) share a window.
  if (m.windows.empty() || m.windows.back().resolves.empty()) m.windows.emplace_back();
  m.windows.back().resolves.push_back(r);
  m.area += uint64_t(r.rect.x1 - r.rect.x0) * uint64_t(r.rect.y1 - r.rect.y0);
}

void Scene::add(const DrawState& state, const DrawCall& c) {
  Impl& m = *impl_;
  if (!state.vertexShader || c.vertexCount == 0 || c.instanceCount == 0) return;
  // One scene draws into one set of attachments (one render pass instance: the tile grid comes
  // from its render area), and a bounded number of draws.
  if (!m.states.empty() && (!sameTargets(m.states.front(), state) || m.windows.size() >= kSceneDraws)) flush();
  // Clears alone so far: they and the draw must share the render area (the tile grid).
  if (m.states.empty() && !m.windows.empty() && !sameRect(m.renderArea, state.renderArea)) flush();
  // The tile grid covers the pixels a draw may write (the scissor lies inside the render area).
  if (m.states.empty()) m.useRenderArea(state.renderArea);
  m.states.push_back(state);
  const DrawState& s = m.states.back();
  readVertexIndices(s, c, m.list, &m.pool);
  mapVertexSlots(c, m.list, m.slots, m.slotTable, m.pool);  // (m.list.vertexIndex is not read after this)
  const uint32_t slotCount = uint32_t(m.slots.vertexIndex.size());
  // "Pipeline Statistics Queries": input assembly's vertices and primitives; the vertex stage
  // runs once per distinct index of an instance (a vertex is shaded once however often the
  // indices name it, as the statistic allows).
  countStatistic(s, kInputAssemblyVertices, uint64_t(c.vertexCount) * c.instanceCount);
  if (s.statistics) countStatistic(s, kInputAssemblyPrimitives, inputPrimitives(s, m.list.isRestart, c.vertexCount) * c.instanceCount);
  if (s.primitivesGenerated && !hasPrimitiveStages(s))
    countGenerated(s, inputPrimitives(s, m.list.isRestart, c.vertexCount) * c.instanceCount);

  // Instances are shaded in groups whose vertices fit kInstanceGroupSlots.
  const uint32_t groupSize = uint32_t(std::clamp<uint64_t>(kInstanceGroupSlots / std::max(slotCount, 1u), 1, c.instanceCount));
  for (uint32_t groupFirst = 0; groupFirst < c.instanceCount && !cancelled(s); groupFirst += groupSize) {
    const uint32_t instances = std::min(groupSize, c.instanceCount - groupFirst);
    // Vertex shading, ranges of every instance of the group over the pool.
    const std::shared_ptr<std::vector<ShadedVertices>> shaded = m.shadedGroup(instances);
    // Only where vertices are shared (an indexed draw naming each vertex twice or more on
    // average): otherwise the projections are as many as set-up would compute, and writing and
    // reading them back (32 bytes a vertex) costs memory bandwidth (tris_small, 3M unshared
    // vertices: 5% slower at two threads).
    const bool project = projectsVertices(s) && c.indexed && uint64_t(slotCount) * 2 <= c.vertexCount;
    for (uint32_t i = 0; i < instances; ++i) {
      prepareShadedVertices(s, slotCount, (*shaded)[i]);
      if (project) (*shaded)[i].projected.resize(slotCount);
      else (*shaded)[i].projected.clear();
    }
    const uint32_t rangesPerInstance = (slotCount + kVertexRange - 1) / kVertexRange;
    countStatistic(s, kVertexShaderInvocations, uint64_t(slotCount) * instances);
    const bool inline_ = uint64_t(slotCount) * instances <= kInlineSlots;
    const auto forEachTask = [&](size_t count, const std::function<void(size_t)>& body) {
      if (!inline_) return m.pool.parallelFor(count, body);
      for (size_t task = 0; task < count; ++task) body(task);
    };
    forEachTask(size_t(instances) * rangesPerInstance, [&](size_t task) {
      const uint32_t i = uint32_t(task / rangesPerInstance), r = uint32_t(task % rangesPerInstance);
      const size_t begin = size_t(r) * kVertexRange, end = std::min<size_t>(slotCount, begin + kVertexRange);
      shadeVertexRange(s, c, c.firstInstance + groupFirst + i, m.slots.vertexIndex.data(), begin, end, (*shaded)[i]);
      if (project) projectVertexRange(s.raster, begin, end, (*shaded)[i]);
    });
    // "Geometry Shading": each instance's geometry stage on the pool; its emitted vertices are
    // what the windows draw, its output primitives what is set up.
    std::shared_ptr<std::vector<ShadedVertices>> drawn = shaded;
    if (hasPrimitiveStages(s)) {
      drawn = m.shadedGroup(instances);  // `shaded` is still held: another group
      m.geometry.resize(instances);
      m.tessellated.resize(instances);
      const auto slotOf = [&](uint32_t position) { return m.slots.slot(position); };
      // One instance takes the pool itself, in ranges of its patches or geometry invocations
      // (its stages alone would leave the other threads waiting); several take a thread each.
      const auto stages = [&](size_t i, ThreadPool* pool) {
        runPrimitiveStages(s, m.list.isRestart, c.vertexCount, slotOf, (*shaded)[i], m.geometry[i], m.tessellated[i], pool);
        std::swap((*drawn)[i], m.geometry[i].vertices);  // both buffers stay for reuse
      };
      if (instances == 1) stages(0, &m.pool);
      else forEachTask(instances, [&](size_t i) { stages(i, nullptr); });
      for (uint32_t i = 0; i < instances; ++i) countGeneratedStreams(s, m.geometry[i]);
    }
    // "Transform Feedback": the group's instances captured in order, on this thread, before
    // rasterizer discard and binning.
    if (s.feedback)
      for (uint32_t i = 0; i < instances; ++i) {
        if (hasPrimitiveStages(s)) {
          captureGeometry(s, m.geometry[i], (*drawn)[i]);
        } else {
          captureAssembled(s, m.list.isRestart, c.vertexCount, [&](uint32_t position) { return m.slots.slot(position); },
                           (*shaded)[i]);
        }
      }
    if (s.rasterizerDiscard || m.grid.count() == 0) continue;
    uint64_t groupBytes = 0;
    for (uint32_t i = 0; i < instances; ++i) groupBytes += uint64_t((*drawn)[i].words.size()) * 4;
    bool groupCounted = false;

    // Primitive assembly, in order; PrimitiveId restarts with each instance.
    // "Line Stipple": each line's counter, in primitive order, before the chunks set lines up in
    // parallel (a strip's counter depends on its earlier segments).
    m.assembled.clear();
    PrimitiveSource source{&m.assembled};
    if (!hasPrimitiveStages(s) && !lastStageWritesLayer(s) && m.list.isRestart.empty() && !s.raster.lineStippleEnable)
      source = PrimitiveSource{nullptr, s.topology, runPrimitiveCount(s.topology, c.vertexCount), instances,
                               s.provokingVertexLast, &m.slots};
    if (hasPrimitiveStages(s))
      for (uint32_t i = 0; i < instances; ++i) {
        LineStippleCounter stipple;
        const ShadedVertices& v = (*drawn)[i];
        for (const GeometryPrimitive& p : m.geometry[i].primitives) {
          Assembled a{p.vertexCount == 1 ? Kind::Point : p.vertexCount == 2 ? Kind::Line : Kind::Triangle,
                      i, {p.slots[0], p.slots[1], p.slots[2]}, p.primitiveId, p.viewport};
          a.provoking = p.provoking;
          if (a.kind == Kind::Line && s.raster.lineStippleEnable)
            a.stippleCounter = stipple.next(p.startsStrip, v.position(p.slots[0]), v.position(p.slots[1]),
                                            viewportRaster(s, p.viewport < s.viewportCount ? p.viewport : 0));
          m.assembled.push_back(a);
        }
      }
    for (uint32_t i = 0; i < instances && source.list && !hasPrimitiveStages(s); ++i) {
      uint32_t primitiveId = 0;
      LineStippleCounter stipple;
      const ShadedVertices& v = (*shaded)[i];
      auto add = [&](Kind kind, uint32_t a, uint32_t b, uint32_t d, uint32_t provoking, double stippleCounter = 0) {
        m.assembled.push_back(Assembled{kind, i, {m.slots.slot(a), m.slots.slot(b), m.slots.slot(d)}, primitiveId++, 0,
                                        stippleCounter, provoking});
      };
      assemblePrimitives(
          s.topology, m.list.isRestart, c.vertexCount, [&](uint32_t a) { add(Kind::Point, a, a, a, 0); },
          [&](uint32_t a, uint32_t b, bool startsStrip) {
            add(Kind::Line, a, b, a, lineProvokingVertex(s),
                stipple.next(startsStrip, v.position(m.slots.slot(a)), v.position(m.slots.slot(b)), s.raster));
          },
          [&](uint32_t a, uint32_t b, uint32_t d, uint32_t provoking) { add(Kind::Triangle, a, b, d, provoking); },
          s.provokingVertexLast);
    }
    countStatistic(s, kClippingInvocations, source.size());
    // Set-up and binning of m.assembled in windows of at most kScenePrimitives, drawn with `ws`.
    // A layered draw's windows write other layers than the scene's other draws: they neither
    // hide earlier work nor are hidden (droppable and overwrites stay false).
    auto binAssembled = [&](const DrawState& ws, bool layered) {
      for (size_t first = 0; first < source.size(); first += kScenePrimitives) {
        const size_t count = std::min<size_t>(kScenePrimitives, source.size() - first);
        // Bounded memory: set-up primitives, and the shaded vertices the scene's windows hold (a
        // draw whose triangles are all culled holds vertices and no primitives).
        const uint64_t newBytes = groupCounted ? 0 : groupBytes;
        if (!m.windows.empty() &&
            (m.primitives + count > kScenePrimitives || m.vertexBytes + newBytes > kSceneVertexBytes)) {
          runTiles();
          groupCounted = false;
        }
        if (!groupCounted) m.vertexBytes += groupBytes;
        groupCounted = true;
        Window w;
        w.state = &ws;
        w.vertices = drawn;
        w.droppable = !layered && droppable(ws);
        w.overwrites = !layered && overwritesColour(ws);
        w.triangleReads = triangleVertexReads(ws, *drawn);
        const size_t chunkCount = (count + kChunkPrimitives - 1) / kChunkPrimitives;
        if (!m.spareChunks.empty()) {
          w.chunks = std::move(m.spareChunks.back());
          m.spareChunks.pop_back();
        }
        w.chunks.resize(chunkCount);
        m.pool.parallelFor(chunkCount, [&](size_t k) {
          const size_t begin = k * kChunkPrimitives, end = std::min(count, begin + kChunkPrimitives);
          thread_local std::vector<Assembled> scratch;
          const Assembled* primitives = source.range(first + begin, first + end, scratch);
          setUpChunk(ws, *drawn, primitives, primitives + (end - begin), m.grid, w.chunks[k]);
        });
        for (const Chunk& chunk : w.chunks) {
          m.primitives += chunk.primitives.size();
          m.area += chunk.area;
        }
        m.windows.push_back(std::move(w));
      }
    };
    if (!lastStageWritesLayer(s)) {
      binAssembled(s, false);
      continue;
    }
    // "Layered Rendering": each layer's primitives (in order) as a draw into that layer;
    // primitives sent past the last layer write nothing (undefined).
    const uint32_t layerCount = drawLayerCount(s);
    std::map<uint32_t, std::vector<Assembled>> byLayer;
    size_t next = 0;
    for (uint32_t i = 0; i < instances; ++i)
      for (const GeometryPrimitive& p : m.geometry[i].primitives) {
        const Assembled a = m.assembled[next++];
        if (p.layer < layerCount) byLayer[p.layer].push_back(a);
      }
    for (auto& [layer, list] : byLayer) {
      m.states.push_back(layerState(s, layer, &m.layerResources.emplace_back()));
      m.assembled = std::move(list);
      binAssembled(m.states.back(), true);
    }
  }
}

bool Scene::onlyClears() const {
  const Impl& m = *impl_;
  if (m.windows.empty()) return false;
  for (const Window& w : m.windows)
    if (w.state || !w.resolves.empty()) return false;
  return true;
}

std::vector<ClearRegion> Scene::takeClears() {
  Impl& m = *impl_;
  std::vector<ClearRegion> clears;
  for (const Window& w : m.windows) clears.insert(clears.end(), w.clears.begin(), w.clears.end());
  m.windows.clear();
  m.states.clear();
  m.primitives = 0;
  m.area = 0;
  m.vertexBytes = 0;
  return clears;
}

void Scene::flush() {
  runTiles();
  impl_->states.clear();
  impl_->layerResources.clear();
}

namespace {

// Always inlined, as the two below: GCC finds a function that only prefetches free of side effects
// and deletes the calls to it (the prefetches with them).
inline __attribute__((always_inline)) void prefetchBytes(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch(c + at);
  __builtin_prefetch(c + bytes - 1);
}

inline __attribute__((always_inline)) void prefetchPrimitive(const Chunk& chunk, const Binned& b, const std::vector<ShadedVertices>& vertices,
                                                            VertexReads triangleReads) {
  const ShadedVertices& v = vertices[b.instance];
  const size_t vertexBytes = size_t(v.stride) * 4;
  switch (b.kind) {
    case Kind::Triangle:
      // The record's lines an unclipped triangle reads, and the vertices its inputs read.
      prefetchBytes(&chunk.triangles[b.setup], kSetupTriangleHotBytes);
      if (triangleReads == VertexReads::All)
        for (int i = 0; i < 3; ++i) prefetchBytes(&v.words[size_t(b.slots[i]) * v.stride], vertexBytes);
      else if (triangleReads == VertexReads::Provoking)
        prefetchBytes(&v.words[size_t(b.slots[b.provoking < 3 ? b.provoking : 0]) * v.stride], vertexBytes);
      break;
    case Kind::Line:
      prefetchBytes(&chunk.lines[b.setup], sizeof(SetupLine));
      for (int i = 0; i < 2; ++i) prefetchBytes(&v.words[size_t(b.slots[i]) * v.stride], vertexBytes);
      break;
    case Kind::Point:
      prefetchBytes(&chunk.points[b.setup], sizeof(SetupPoint));
      prefetchBytes(&v.words[size_t(b.slots[0]) * v.stride], vertexBytes);
      break;
  }
}

// A tile reads a sparse subset of the scene: in each chunk a few bin entries (a scene of small
// triangles has about five per chunk and tile), through four dependent loads that all miss the
// cache (the chunk's bin start, its bin entries, their records, the records' set-up data and
// vertices). While one chunk is drawn, each level is prefetched for a later chunk, one level
// per chunk ahead, so that every load finds its address already in cache.
inline __attribute__((always_inline)) void prefetchChunks(const std::vector<Chunk>& chunks, size_t ci, uint32_t tile, const std::vector<ShadedVertices>& vertices,
                                                         VertexReads triangleReads) {
  if (ci + 4 < chunks.size()) __builtin_prefetch(&chunks[ci + 4].binStart[tile]);
  if (ci + 3 < chunks.size()) {
    const Chunk& c = chunks[ci + 3];
    const uint32_t begin = c.binStart[tile], end = c.binStart[tile + 1];
    if (begin < end) {
      if (c.copied) prefetchBytes(&c.binnedCopies[begin], (end - begin) * sizeof(Binned));
      else prefetchBytes(&c.binned[begin], (end - begin) * sizeof(uint32_t));
    }
  }
  if (ci + 2 < chunks.size()) {
    const Chunk& c = chunks[ci + 2];
    if (!c.copied)
      for (uint32_t k = c.binStart[tile]; k < c.binStart[tile + 1]; ++k) __builtin_prefetch(&c.primitives[c.binned[k]]);
  }
  if (ci + 1 < chunks.size()) {
    const Chunk& c = chunks[ci + 1];
    for (uint32_t k = c.binStart[tile]; k < c.binStart[tile + 1]; ++k) prefetchPrimitive(c, c.entry(k), vertices, triangleReads);
  }
}

// The tile's part of every attachment the draw state names, read into the cache before the tile
// is drawn: its primitives touch the attachments sparsely (small triangles about one new cache
// line each), and each touch would otherwise wait for memory. A tile's colour and depth (64x64
// pixels, 32 KiB at one sample, 128 KiB at four) fit in L2 beside the scene's data. One load per
// line, not a prefetch: on this AMD Zen 3 host a burst of hundreds of software prefetches is
// mostly lost (the depth tests still waited on their loads), while loads queue until served.
// Measured with 2 threads against the prefetches (medians of 4 processes): msaa4_tris 735 ->
// 565 ms, tris_small_b2f 335 -> 310 ms, none of fill, blend, many_draws, texturing slower.
inline void touchTileAttachments(const DrawState& s, const Rect& tile) {
  if (rules::isEmpty(tile)) return;
  const AttachmentView* views[abi::kMaxColorAttachments + 2];
  uint32_t count = 0;
  for (uint32_t i = 0; i < s.colorCount && i < abi::kMaxColorAttachments; ++i) views[count++] = &s.color[i];
  views[count++] = &s.depth;
  if (s.stencil.base != s.depth.base) views[count++] = &s.stencil;
  uint8_t sum = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const AttachmentView& v = *views[i];
    if (!v.base) continue;
    const uint64_t pixelBytes = uint64_t(v.texelSize) * std::max(v.samples, 1u);
    const uint64_t bytes = uint64_t(tile.x1 - tile.x0) * pixelBytes;
    for (int32_t y = tile.y0; y < tile.y1; ++y) {
      const volatile uint8_t* row = v.base + uint64_t(y) * v.rowPitch + uint64_t(tile.x0) * pixelBytes;
      for (uint64_t at = 0; at < bytes; at += 64) sum += row[at];
      sum += row[bytes - 1];
    }
  }
  (void)sum;
}

}  // namespace

// Step 2 (and 3) for every tile with work.
void Scene::runTiles() {
  Impl& m = *impl_;
  if (m.windows.empty()) return;
  const uint32_t tileCount = m.grid.count();
  // Per tile, the windows with work in it, in order (tileWindows from tileWindowStart[t]): each
  // window is asked only about the tiles its chunks' tile ranges and clears reach, so a scene of
  // many small draws costs its windows' tiles, not every window in every tile.
  std::vector<uint32_t> tileWindowStart(size_t(tileCount) + 1, 0), tileWindows;
  auto forEachTouchedTile = [&](const Window& w, auto&& f) {
    int32_t x0 = m.grid.columns, y0 = m.grid.rows, x1 = 0, y1 = 0;
    auto extend = [&](int32_t ax0, int32_t ay0, int32_t ax1, int32_t ay1) {
      x0 = std::min(x0, std::max(ax0, 0)), y0 = std::min(y0, std::max(ay0, 0));
      x1 = std::max(x1, std::min(ax1, m.grid.columns)), y1 = std::max(y1, std::min(ay1, m.grid.rows));
    };
    auto extendRect = [&](const Rect& r) {
      if (!rules::isEmpty(r))
        extend(r.x0 >> kTileShift, r.y0 >> kTileShift, ((r.x1 - 1) >> kTileShift) + 1, ((r.y1 - 1) >> kTileShift) + 1);
    };
    for (const ClearRegion& c : w.clears) extendRect(c.rect);
    for (const ResolveRegion& r : w.resolves) extendRect(r.rect);
    for (const Chunk& chunk : w.chunks)
      if (chunk.tileX0 < chunk.tileX1) extend(chunk.tileX0, chunk.tileY0, chunk.tileX1, chunk.tileY1);
    for (int32_t ty = y0; ty < y1; ++ty)
      for (int32_t tx = x0; tx < x1; ++tx) {
        const uint32_t t = uint32_t(ty) * uint32_t(m.grid.columns) + uint32_t(tx);
        if (w.touches(t, m.grid.tile(t))) f(t);
      }
  };
  for (const Window& w : m.windows) forEachTouchedTile(w, [&](uint32_t t) { ++tileWindowStart[t + 1]; });
  for (uint32_t t = 0; t < tileCount; ++t) tileWindowStart[t + 1] += tileWindowStart[t];
  tileWindows.resize(tileWindowStart[tileCount]);
  {
    std::vector<uint32_t> fill(tileWindowStart.begin(), tileWindowStart.end() - 1);
    for (uint32_t wi = 0; wi < m.windows.size(); ++wi)
      forEachTouchedTile(m.windows[wi], [&](uint32_t t) { tileWindows[fill[t]++] = wi; });
  }
  // The tiles with work, column by column. Threads take neighbouring entries at the same time,
  // and two threads drawing side-by-side tiles of a row slow each other down: the hardware
  // prefetchers run ahead along a row into the neighbour's lines while it writes them (measured
  // with 2 threads: fill_blend 55 ms in row order, 40 ms in column order, and 83 ms on one
  // thread). Tiles above each other share no line and, with rows longer than a page, no page.
  std::vector<uint32_t> tiles;
  for (int32_t tx = 0; tx < m.grid.columns; ++tx)
    for (int32_t ty = 0; ty < m.grid.rows; ++ty)
      if (const uint32_t t = uint32_t(ty) * uint32_t(m.grid.columns) + uint32_t(tx);
          tileWindowStart[t + 1] > tileWindowStart[t])
        tiles.push_back(t);
  auto drawTile = [&](size_t i) {
    if (!m.states.empty() && cancelled(m.states.front())) return;  // a lost device's work stops
    const uint32_t tile = tiles[i];
    const Rect rect = m.grid.tile(tile);
    const Rect visible = rules::intersect(rect, m.renderArea);
    const int32_t tileX = rect.x0 >> kTileShift, tileY = rect.y0 >> kTileShift;
    const uint32_t* const windowsHere = tileWindows.data() + tileWindowStart[tile];
    const size_t windowCount = tileWindowStart[tile + 1] - tileWindowStart[tile];
    // The last primitive that overwrites the whole tile: (window, chunk, bin entry).
    size_t coverWindow = 0, coverChunk = 0;
    uint32_t coverEntry = 0;
    bool covered = false;
    for (size_t n = windowCount; n-- > 0 && !covered;) {
      const size_t wi = windowsHere[n];
      const Window& w = m.windows[wi];
      if (!w.overwrites) continue;
      for (size_t ci = w.chunks.size(); ci-- > 0 && !covered;) {
        const Chunk& chunk = w.chunks[ci];
        if (!chunk.mayTouch(tileX, tileY)) continue;
        for (uint32_t k = chunk.binStart[tile + 1]; k-- > chunk.binStart[tile];) {
          const Binned& b = chunk.entry(k);
          if (b.kind != Kind::Triangle) continue;
          const SetupTriangle& t = chunk.triangles[b.setup];
          if (coversRect(t, visible)) {
            coverWindow = wi, coverChunk = ci, coverEntry = k, covered = true;
            break;
          }
          // The triangle and the one before it as a quad (the pair's scissor is one rectangle
          // when they use the same viewport).
          if (k == chunk.binStart[tile]) continue;
          const Binned& before = chunk.entry(k - 1);
          if (before.kind == Kind::Triangle && before.viewport == b.viewport &&
              pairCoversRect(chunk.triangles[before.setup], t, visible)) {
            coverWindow = wi, coverChunk = ci, coverEntry = k - 1, covered = true;
            break;
          }
        }
      }
    }
    // Work before a draw that reads input attachments is seen by it, covered later or not
    // ("Rasterization Order" with VK_EXT_rasterization_order_attachment_access), and work
    // before a resolve by the resolve. (Only windows with work in this tile can read there.)
    size_t keptBelow = 0;  // windows below this index are kept
    for (size_t n = 0; covered && n < windowCount && windowsHere[n] < coverWindow; ++n) {
      const Window& w = m.windows[windowsHere[n]];
      if ((w.state && w.state->fragment.readsInputAttachments) || !w.resolves.empty()) keptBelow = windowsHere[n] + 1;
    }
    thread_local std::unique_ptr<FragmentStage> stage;
    for (size_t n = 0; n < windowCount; ++n)
      if (const Window& w = m.windows[windowsHere[n]]; w.state) {
        touchTileAttachments(*w.state, visible);
        break;
      }
    // The stage starts the tile's bounds of stored depths over (FragmentStage::beginTile) at
    // its first draw and after clears and resolves.
    bool attachmentsChanged = true;
    for (size_t n = 0; n < windowCount; ++n) {
      const size_t wi = windowsHere[n];
      const Window& w = m.windows[wi];
      // Earlier droppable work under the covering primitive cannot be seen.
      if (covered && wi < coverWindow && wi >= keptBelow && w.droppable) continue;
      if (!w.state) {  // clears: this tile's part, now, while the tile goes into cache
        for (const ClearRegion& c : w.clears) fillClearRegion(c, rules::intersect(c.rect, rect));
        // resolves: this tile's part, while its samples are still in cache
        for (const ResolveRegion& r : w.resolves) {
          const Rect part = rules::intersect(r.rect, rect);
          if (!rules::isEmpty(part)) resolveAttachment(r.src, r.dst, r.aspect, r.mode, part, 1);
        }
        attachmentsChanged = true;
        continue;
      }
      if (!stage) stage = std::make_unique<FragmentStage>(*w.state, /*blocks=*/true);
      else stage->retarget(*w.state);
      if (attachmentsChanged) stage->beginTile(rect), attachmentsChanged = false;
      for (size_t ci = 0; ci < w.chunks.size(); ++ci) {
        const Chunk& chunk = w.chunks[ci];
        if (!chunk.mayTouch(tileX, tileY)) continue;
        uint32_t k = chunk.binStart[tile];
        if (covered && wi == coverWindow) {
          if (ci < coverChunk) continue;
          if (ci == coverChunk) k = coverEntry;
        }
        prefetchChunks(w.chunks, ci, tile, *w.vertices, w.triangleReads);
        const uint32_t end = chunk.binStart[tile + 1];
        for (; k < end; ++k) {
          const Binned& b = chunk.entry(k);
          const ShadedVertices& v = (*w.vertices)[b.instance];
          stage->setViewport(b.viewport);
          switch (b.kind) {
            case Kind::Triangle:
              stage->setUpTriangle(v, b.slots, b.provoking, b.primitiveId, chunk.triangles[b.setup], rect);
              break;
            case Kind::Line: stage->setUpLine(v, b.slots, b.provoking, b.primitiveId, chunk.lines[b.setup], rect); break;
            case Kind::Point: stage->setUpPoint(v, b.slots, b.provoking, b.primitiveId, chunk.points[b.setup], rect); break;
          }
        }
      }
      stage->flush();
    }
  };
  // A small scene runs on the calling thread: waking the pool costs more than its pixels.
  if (m.area <= kInlineDrawPixels) {
    for (size_t i = 0; i < tiles.size(); ++i) drawTile(i);
  } else {
    m.pool.parallelFor(tiles.size(), drawTile);
  }
  for (Window& w : m.windows)
    if (w.state) m.spareChunks.push_back(std::move(w.chunks));
  m.windows.clear();
  m.shadedCursor = 0;
  m.primitives = 0;
  m.area = 0;
  m.vertexBytes = 0;
}

void drawBinned(const DrawState& state, const DrawCall& call, ThreadPool& pool) {
  Scene scene(pool);
  scene.add(state, call);
  scene.flush();
}

}  // namespace tessera::raster
