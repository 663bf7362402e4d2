// Sub-pixel snapping, sample locations, the viewport transform, facing, culling and the
// coverage tie-break (rules.h says which spec section each one is).
#include "rules.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::raster::rules {

int64_t snapToSubPixelGrid(double framebufferCoord) {
  // "Controlling the Viewport": subPixelPrecisionBits fractional bits are retained.
  return std::llround(framebufferCoord * static_cast<double>(kSubPixelOne));
}

int64_t pixelCenter(int32_t pixel) {
  // Standard sample location for one sample: (0.5, 0.5) inside the pixel.
  return int64_t{pixel} * kSubPixelOne + kSubPixelOne / 2;
}

namespace {
// kStandardSampleLocations4 in 1/256 pixel; the static_asserts keep the two tables equal.
constexpr int64_t kSampleOffsets4[4][2] = {{96, 32}, {224, 96}, {32, 160}, {160, 224}};
constexpr bool offsetsMatchTable() {
  for (int s = 0; s < 4; ++s)
    for (int a = 0; a < 2; ++a)
      if (kStandardSampleLocations4[s][a] * kSubPixelOne != static_cast<float>(kSampleOffsets4[s][a])) return false;
  return true;
}
static_assert(offsetsMatchTable(), "fixed-point sample offsets differ from kStandardSampleLocations4");
}  // namespace

uint32_t rasterSampleCount(uint32_t samples) { return samples == 4 ? 4 : 1; }

void sampleLocation(int32_t pixelX, int32_t pixelY, uint32_t samples, uint32_t s, int64_t* sx, int64_t* sy) {
  // "Multisampling", standard sample locations: VK_SAMPLE_COUNT_1_BIT samples at (0.5, 0.5),
  // VK_SAMPLE_COUNT_4_BIT at the four locations of the spec's table.
  if (samples == 4) {
    *sx = int64_t{pixelX} * kSubPixelOne + kSampleOffsets4[s][0];
    *sy = int64_t{pixelY} * kSubPixelOne + kSampleOffsets4[s][1];
    return;
  }
  *sx = pixelCenter(pixelX);
  *sy = pixelCenter(pixelY);
}

SampleOffsetRange sampleOffsetRange(uint32_t samples) {
  if (samples == 4) return {kSubPixelOne / 8, kSubPixelOne * 7 / 8};  // 0.125 and 0.875
  return {kSubPixelOne / 2, kSubPixelOne / 2};
}

FramebufferPoint viewportTransform(const Viewport& vp, double xd, double yd, double zd) {
  // "Controlling the Viewport": o_x = x + width/2, o_y = y + height/2, p_z = maxDepth -
  // minDepth, o_z = minDepth.
  const double px = vp.width, py = vp.height;
  const double ox = double{vp.x} + px / 2, oy = double{vp.y} + py / 2;
  const double pz = double{vp.maxDepth} - double{vp.minDepth}, oz = vp.minDepth;
  return {px / 2 * xd + ox, py / 2 * yd + oy, pz * zd + oz};
}

namespace {
// First pixel whose centre (p + 0.5) is >= edge.
int32_t firstPixelAtOrAfter(double edge) { return static_cast<int32_t>(std::ceil(edge - 0.5)); }
}  // namespace

Rect viewportPixels(const Viewport& vp) {
  // The view volume's -w <= x <= w and -w <= y <= w map to the viewport rectangle; a negative
  // height (allowed since Vulkan 1.1) flips y, so take the rectangle's min and max.
  const double xa = vp.x, xb = double{vp.x} + vp.width;
  const double ya = vp.y, yb = double{vp.y} + vp.height;
  return {firstPixelAtOrAfter(std::min(xa, xb)), firstPixelAtOrAfter(std::min(ya, yb)),
          firstPixelAtOrAfter(std::max(xa, xb)), firstPixelAtOrAfter(std::max(ya, yb))};
}

Rect intersect(const Rect& a, const Rect& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

int64_t shoelaceSum(const int64_t* x, const int64_t* y, int count) {
  // "Basic Polygon Rasterization": a = -1/2 sum_i (x_i y_(i+1) - x_(i+1) y_i). Taken relative
  // to vertex 0 (which leaves the sum unchanged) so the products stay within the guard band's
  // 2^29 x 2^29 bound and the sum of at most kMaxClipVertices terms fits in int64.
  int64_t sum = 0;
  for (int i = 1; i + 1 < count; ++i) {
    const int64_t ax = x[i] - x[0], ay = y[i] - y[0];
    const int64_t bx = x[i + 1] - x[0], by = y[i + 1] - y[0];
    sum += ax * by - bx * ay;
  }
  return sum;
}

bool isFrontFacing(int64_t shoelace, VkFrontFace frontFace) {
  // a = -S/2. COUNTER_CLOCKWISE: positive area is front; CLOCKWISE: negative area is front.
  // Framebuffer y points down, so a triangle that looks clockwise on screen has S > 0, a < 0.
  // "Any triangle which is not front-facing is back-facing, including zero-area triangles."
  if (shoelace == 0) return false;
  const bool positiveArea = shoelace < 0;
  return frontFace == VK_FRONT_FACE_CLOCKWISE ? !positiveArea : positiveArea;
}

bool isCulled(VkCullModeFlags cullMode, bool frontFacing) {
  // "Basic Polygon Rasterization": FRONT_BIT discards front-facing triangles, BACK_BIT
  // back-facing ones, FRONT_AND_BACK all of them.
  return (cullMode & (frontFacing ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT)) != 0;
}

bool isTopLeft(int64_t gx, int64_t gy) {
  // The interior lies in the direction of the gradient. Left edge: interior towards +x.
  // Top edge: horizontal (gx == 0) with the interior towards +y (below, y points down).
  return gx > 0 || (gx == 0 && gy > 0);
}

EdgeFunction makeEdge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int orientation) {
  EdgeFunction e;
  e.x0 = ax;
  e.y0 = ay;
  e.dx = (bx - ax) * orientation;
  e.dy = (by - ay) * orientation;
  // value = dx (sy - y0) - dy (sx - x0): gradient (-dy, dx).
  e.inclusive = isTopLeft(-e.dy, e.dx);
  return e;
}

PixelSpan pixelCentresWithin(int64_t lo, int64_t hi) {
  // Smallest p with p*256 + 128 >= lo is ceil((lo - 128) / 256); largest p with
  // p*256 + 128 <= hi is floor((hi - 128) / 256). Arithmetic shifts floor for negatives too.
  const int64_t half = kSubPixelOne / 2;
  const int64_t first = -((half - lo) >> kSubPixelBits);
  const int64_t last = (hi - half) >> kSubPixelBits;
  return {static_cast<int32_t>(first), static_cast<int32_t>(std::max(last + 1, first))};
}

PixelSpan pixelSamplesWithin(int64_t lo, int64_t hi, uint32_t samples) {
  // p * 256 + max >= lo  <=>  p >= ceil((lo - max) / 256);  p * 256 + min <= hi  <=>
  // p <= floor((hi - min) / 256). Arithmetic shifts floor for negatives too.
  const SampleOffsetRange r = sampleOffsetRange(samples);
  const int64_t first = -((r.max - lo) >> kSubPixelBits);
  const int64_t last = (hi - r.min) >> kSubPixelBits;
  return {static_cast<int32_t>(first), static_cast<int32_t>(std::max(last + 1, first))};
}

float clampPointSize(float size) {
  if (!(size >= kPointSizeMin)) return kPointSizeMin;  // also NaN
  return std::min(size, kPointSizeMax);
}

float pointSpriteCoord(double sampleCoord, double vertexCoord, float size) {
  return static_cast<float>(0.5 + (sampleCoord - vertexCoord) / size);
}

bool isXMajor(int64_t dx, int64_t dy) { return std::llabs(dx) >= std::llabs(dy); }

double lineParameter(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t rx, int64_t ry) {
  // Coordinates stay below 2^24 (1/256 units within the line guard band), so both products
  // are exact in int64 and, below 2^53, in double too.
  const int64_t dx = bx - ax, dy = by - ay;
  const int64_t dot = (rx - ax) * dx + (ry - ay) * dy;
  const int64_t len2 = dx * dx + dy * dy;
  return static_cast<double>(dot) / static_cast<double>(len2);
}

}  // namespace tessera::raster::rules
