// rasterizeTriangle (raster.h): point sampling of one set-up triangle at its sample locations
// (the pixel centre, or the standard locations of 2, 4, 8 or 16 samples: "Multisampling") with the fixed-point edge
// functions and tie-breaking rule of rules.h ("Basic Polygon Rasterization"), and per pixel the
// depth ("Depth Bias", "Depth Clamping and Range Adjustment") at the centre and at each sample,
// and the interpolation weights ("Basic Polygon Rasterization": perspective and linear
// interpolation) at the centre and at the centroid location ("Interpolation Decorations"),
// mapped back to the original triangle's vertices.
//
// The tile is walked in 16x16 blocks (one band of blocks at a time, so that quads still come
// out in rows); a block none of whose sample locations can pass one of the edges is skipped
// whole (trivial reject). Inside the remaining blocks every 2x2 quad is tested sample by sample.
#include <algorithm>
#include <bit>
#include <vector>

#include "pixel_weights.h"
#include "rules.h"

namespace tessera::raster {
namespace {

constexpr int32_t kBlock = 16;

int32_t floorToEven(int32_t v) { return v & ~1; }  // two's complement: also right for v < 0

struct TriangleEdges {
  rules::EdgeFunction edge[3];  // edge k is opposite vertex k (from vertex k+1 to vertex k+2)
  double invArea2;              // 1 / |shoelace sum|: edge value -> barycentric weight
  const SampleLocations* custom = nullptr;  // the draw's own sample locations, if any
};

bool makeEdges(const SetupTriangle& t, TriangleEdges& e) { return pixel::triangleEdges(t, e.edge, &e.invArea2); }

// Whether some sample location of [x0, x1) x [y0, y1) may pass every edge test. An edge
// function is linear, so its maximum over the block's samples is at most its maximum over the
// corners of the box holding them: the centres of the corner pixels with one sample, widened
// by the sample offsets (1/8 and 7/8 of a pixel with 4 samples: rules::sampleOffsetRange).
bool blockMayBeCovered(const TriangleEdges& e, uint32_t samples, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const rules::SampleOffsetRange r = rules::sampleOffsetRange(samples, e.custom != nullptr);
  const int64_t one = rules::kSubPixelOne;
  const int64_t cx[2] = {x0 * one + r.min, (x1 - 1) * one + r.max};
  const int64_t cy[2] = {y0 * one + r.min, (y1 - 1) * one + r.max};
  for (const rules::EdgeFunction& edge : e.edge) {
    bool any = false;
    for (int64_t y : cy)
      for (int64_t x : cx) any = any || edge.covers(edge.value(x, y));
    if (!any) return false;
  }
  return true;
}

bool coversLocation(const TriangleEdges& e, int64_t sx, int64_t sy) {
  for (const rules::EdgeFunction& edge : e.edge)
    if (!edge.covers(edge.value(sx, sy))) return false;
  return true;
}

// Bit s: sample s of pixel (px, py) is inside the triangle ("Basic Polygon Rasterization":
// each sample point tested with the same edges and tie-break).
uint32_t pixelSampleCoverage(const TriangleEdges& e, uint32_t samples, int32_t px, int32_t py) {
  uint32_t mask = 0;
  for (uint32_t s = 0; s < samples; ++s) {
    int64_t sx, sy;
    rules::sampleLocation(px, py, samples, e.custom, s, &sx, &sy);
    if (coversLocation(e, sx, sy)) mask |= 1u << s;
  }
  return mask;
}

// Barycentric coordinates of a (fixed-point) location in the (snapped) set-up triangle.
void windowBarycentrics(const TriangleEdges& e, int64_t sx, int64_t sy, double lin[3]) {
  const int64_t values[3] = {e.edge[0].value(sx, sy), e.edge[1].value(sx, sy), e.edge[2].value(sx, sy)};
  pixel::windowBarycentrics(values, e.invArea2, lin);
}

using pixel::depthAt;
using pixel::invWAt;
using pixel::originalWeights;

// The Centroid location's weights ("Interpolation Decorations": "a location ... within both
// the pixel and the primitive", raster.h says which): the centre's weights unless the pixel is
// only partly covered, then those at its lowest-numbered covered sample.
void centroidWeights(const SetupTriangle& t, const TriangleEdges& e, int32_t px, int32_t py, Quad& q, int slot) {
  const uint32_t mask = q.sampleCoverage[slot];
  const uint32_t all = (1u << t.samples) - 1;
  if (t.samples == 1 || mask == 0 || mask == all) {
    for (int i = 0; i < 3; ++i) {
      q.centroidPersp[slot][i] = q.baryPersp[slot][i];
      q.centroidLinear[slot][i] = q.baryLinear[slot][i];
    }
    return;
  }
  int64_t sx, sy;
  rules::sampleLocation(px, py, t.samples, e.custom, static_cast<uint32_t>(std::countr_zero(mask)), &sx, &sy);
  double lin[3];
  windowBarycentrics(e, sx, sy, lin);
  originalWeights(t, lin, invWAt(t, lin), q.centroidPersp[slot], q.centroidLinear[slot]);
}

// Depth and weights of one pixel (covered or not: a helper pixel gets the extrapolated values).
void shadePixel(const SetupTriangle& t, const TriangleEdges& e, int32_t px, int32_t py, Quad& q, int slot) {
  double lin[3];
  windowBarycentrics(e, rules::pixelCenter(px), rules::pixelCenter(py), lin);
  q.z[slot] = depthAt(t, lin);
  const double invW = invWAt(t, lin);
  q.invW[slot] = static_cast<float>(invW);
  originalWeights(t, lin, invW, q.baryPersp[slot], q.baryLinear[slot]);

  // "Depth Test" compares each sample's own depth: with several samples the plane at each
  // location (and the weights there, for per-sample shading). One sample: its location is the
  // centre, so its entry is z[].
  if (t.samples <= 1) {
    q.sampleZ[slot][0] = q.z[slot];
    centroidWeights(t, e, px, py, q, slot);
    return;
  }
  for (uint32_t s = 0; s < t.samples; ++s) {
    int64_t sx, sy;
    rules::sampleLocation(px, py, t.samples, e.custom, s, &sx, &sy);
    double sl[3];
    windowBarycentrics(e, sx, sy, sl);
    q.sampleZ[slot][s] = depthAt(t, sl);
    if (t.sampleWeights) originalWeights(t, sl, invWAt(t, sl), q.samplePersp[slot][s], q.sampleLinear[slot][s]);
  }
  centroidWeights(t, e, px, py, q, slot);
}

// Tests and, when any sample is covered, emits the quad whose top-left pixel is (qx, qy).
void processQuad(const SetupTriangle& t, const TriangleEdges& e, const Rect& region, int32_t qx, int32_t qy,
                 const QuadSink& sink) {
  Quad q;
  q.x = qx;
  q.y = qy;
  q.coverage = 0;
  for (int slot = 0; slot < 4; ++slot) {
    const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
    const bool inRegion = px >= region.x0 && px < region.x1 && py >= region.y0 && py < region.y1;
    q.sampleCoverage[slot] = inRegion ? pixelSampleCoverage(e, t.samples, px, py) : 0;
    if (q.sampleCoverage[slot] != 0) q.coverage |= 1u << slot;
  }
  if (q.coverage == 0) return;
  for (int slot = 0; slot < 4; ++slot) shadePixel(t, e, qx + (slot & 1), qy + (slot >> 1), q, slot);
  sink(q);
}

}  // namespace

void rasterizeTriangle(const SetupTriangle& tri, const Rect& tile, const QuadSink& sink, const SampleLocations* custom) {
  const Rect region = rules::intersect(tri.bounds, tile);
  if (rules::isEmpty(region)) return;
  TriangleEdges edges;
  if (!makeEdges(tri, edges)) return;  // zero area: no sample is inside
  edges.custom = tri.customLocations && tri.samples > 1 ? custom : nullptr;

  const int32_t qx0 = floorToEven(region.x0), qy0 = floorToEven(region.y0);
  thread_local std::vector<uint8_t> blockLive;  // reused: no allocation per triangle and tile
  for (int32_t by = qy0; by < region.y1; by += kBlock) {
    const int32_t byEnd = std::min(by + kBlock, region.y1);
    // Trivial reject per block of this band.
    blockLive.clear();
    for (int32_t bx = qx0; bx < region.x1; bx += kBlock) {
      const int32_t x0 = std::max(bx, region.x0), x1 = std::min(bx + kBlock, region.x1);
      const int32_t y0 = std::max(by, region.y0);
      blockLive.push_back(blockMayBeCovered(edges, tri.samples, x0, y0, x1, byEnd));
    }
    // Rows of quads, top to bottom; left to right through the live blocks.
    for (int32_t qy = by; qy < byEnd; qy += 2) {
      for (size_t b = 0; b < blockLive.size(); ++b) {
        if (!blockLive[b]) continue;
        const int32_t bx = qx0 + static_cast<int32_t>(b) * kBlock;
        const int32_t bxEnd = std::min(bx + kBlock, region.x1);
        for (int32_t qx = bx; qx < bxEnd; qx += 2) processQuad(tri, edges, region, qx, qy, sink);
      }
    }
  }
}

}  // namespace tessera::raster
