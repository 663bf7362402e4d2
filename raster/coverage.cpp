// rasterizeTriangle (raster.h): point sampling of one set-up triangle at pixel centres with
// the fixed-point edge functions and tie-breaking rule of rules.h ("Basic Polygon
// Rasterization"), and per pixel the depth ("Depth Bias", "Depth Clamping and Range
// Adjustment") and the interpolation weights ("Basic Polygon Rasterization": perspective and
// linear interpolation), mapped back to the original triangle's vertices.
//
// The tile is walked in 16x16 blocks (one band of blocks at a time, so that quads still come
// out in rows); a block none of whose pixel centres can pass one of the edges is skipped
// whole (trivial reject). Inside the remaining blocks every 2x2 quad is tested pixel by pixel.
#include <algorithm>
#include <vector>

#include "rules.h"

namespace tessera::raster {
namespace {

constexpr int32_t kBlock = 16;

int32_t floorToEven(int32_t v) { return v & ~1; }  // two's complement: also right for v < 0

struct TriangleEdges {
  rules::EdgeFunction edge[3];  // edge k is opposite vertex k (from vertex k+1 to vertex k+2)
  double invArea2;              // 1 / |shoelace sum|: edge value -> barycentric weight
};

bool makeEdges(const SetupTriangle& t, TriangleEdges& e) {
  const int64_t s = rules::shoelaceSum(t.x, t.y, 3);
  if (s == 0) return false;
  const int orientation = s > 0 ? 1 : -1;
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    e.edge[k] = rules::makeEdge(t.x[a], t.y[a], t.x[b], t.y[b], orientation);
  }
  e.invArea2 = 1.0 / static_cast<double>(s > 0 ? s : -s);
  return true;
}

// Whether some pixel centre of [x0, x1) x [y0, y1) may pass every edge test. An edge function
// is linear, so its maximum over the block's centres is at one of the four corner centres.
bool blockMayBeCovered(const TriangleEdges& e, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const int64_t cx[2] = {rules::pixelCenter(x0), rules::pixelCenter(x1 - 1)};
  const int64_t cy[2] = {rules::pixelCenter(y0), rules::pixelCenter(y1 - 1)};
  for (const rules::EdgeFunction& edge : e.edge) {
    bool any = false;
    for (int64_t y : cy)
      for (int64_t x : cx) any = any || edge.covers(edge.value(x, y));
    if (!any) return false;
  }
  return true;
}

// Depth and weights of one pixel (covered or not: a helper pixel gets the extrapolated values).
void shadePixel(const SetupTriangle& t, const TriangleEdges& e, int32_t px, int32_t py, Quad& q, int slot) {
  const int64_t sx = rules::pixelCenter(px), sy = rules::pixelCenter(py);
  // Barycentric coordinates of the pixel centre in the (snapped) set-up triangle:
  // a_k = A(p, v_(k+1), v_(k+2)) / A(v_0, v_1, v_2).
  double lin[3];
  for (int k = 0; k < 3; ++k) lin[k] = static_cast<double>(e.edge[k].value(sx, sy)) * e.invArea2;

  // "Depth values for triangles must be determined using linear interpolation", then the
  // polygon's bias is added and the result clamped.
  double z = 0, invW = 0;
  for (int k = 0; k < 3; ++k) {
    z += lin[k] * t.z[k];
    invW += lin[k] * t.invW[k];
  }
  q.z[slot] = rules::clampFragmentDepth(z + t.depthBias, {t.depthMin, t.depthMax});
  q.invW[slot] = static_cast<float>(invW);

  // Perspective interpolation: f = sum_k (a_k f_k / w_k) / sum_k (a_k / w_k). invW can only
  // reach 0 far outside the triangle (helper pixels beyond the horizon); use the linear
  // weights there rather than divide by zero.
  double persp[3];
  for (int k = 0; k < 3; ++k) persp[k] = invW != 0 ? lin[k] * t.invW[k] / invW : lin[k];

  // Outputs at the (clipped) vertices are combinations of the original vertices' outputs:
  // clip-space weights for perspective-correct data, framebuffer-space weights for
  // NoPerspective data ("Clipping Shader Outputs").
  for (int i = 0; i < 3; ++i) {
    double p = 0, l = 0;
    for (int k = 0; k < 3; ++k) {
      p += persp[k] * t.clipBary[k][i];
      l += lin[k] * t.windowBary[k][i];
    }
    q.baryPersp[slot][i] = static_cast<float>(p);
    q.baryLinear[slot][i] = static_cast<float>(l);
  }
}

// Tests and, when any pixel is covered, emits the quad whose top-left pixel is (qx, qy).
void processQuad(const SetupTriangle& t, const TriangleEdges& e, const Rect& region, int32_t qx, int32_t qy,
                 const QuadSink& sink) {
  Quad q;
  q.x = qx;
  q.y = qy;
  q.coverage = 0;
  for (int slot = 0; slot < 4; ++slot) {
    const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
    if (px < region.x0 || px >= region.x1 || py < region.y0 || py >= region.y1) continue;
    const int64_t sx = rules::pixelCenter(px), sy = rules::pixelCenter(py);
    bool covered = true;
    for (const rules::EdgeFunction& edge : e.edge) covered = covered && edge.covers(edge.value(sx, sy));
    if (covered) q.coverage |= 1u << slot;
  }
  if (q.coverage == 0) return;
  for (int slot = 0; slot < 4; ++slot) shadePixel(t, e, qx + (slot & 1), qy + (slot >> 1), q, slot);
  sink(q);
}

}  // namespace

void rasterizeTriangle(const SetupTriangle& tri, const Rect& tile, const QuadSink& sink) {
  const Rect region = rules::intersect(tri.bounds, tile);
  if (rules::isEmpty(region)) return;
  TriangleEdges edges;
  if (!makeEdges(tri, edges)) return;  // zero area: no sample is inside

  const int32_t qx0 = floorToEven(region.x0), qy0 = floorToEven(region.y0);
  thread_local std::vector<uint8_t> blockLive;  // reused: no allocation per triangle and tile
  for (int32_t by = qy0; by < region.y1; by += kBlock) {
    const int32_t byEnd = std::min(by + kBlock, region.y1);
    // Trivial reject per block of this band.
    blockLive.clear();
    for (int32_t bx = qx0; bx < region.x1; bx += kBlock) {
      const int32_t x0 = std::max(bx, region.x0), x1 = std::min(bx + kBlock, region.x1);
      const int32_t y0 = std::max(by, region.y0);
      blockLive.push_back(blockMayBeCovered(edges, x0, y0, x1, byEnd));
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
