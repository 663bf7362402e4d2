// Sub-pixel snapping, sample locations, the viewport transform, facing, culling and the
// coverage tie-break (rules.h says which spec section each one is).
#include "rules.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::raster::rules {

namespace {
// kStandardSampleLocations in 1/256 pixel: every coordinate is a multiple of 1/16, so the
// products are exact and the static_assert checks it.
struct SampleOffsets {
  int64_t at[5][kMaxSamples][2] = {};
  int64_t min[5] = {}, max[5] = {};  // the extremes of either coordinate over the count's samples
  constexpr SampleOffsets() {
    for (int n = 0; n < 5; ++n) {
      min[n] = kSubPixelOne, max[n] = 0;
      for (int s = 0; s < (1 << n); ++s)
        for (int a = 0; a < 2; ++a) {
          at[n][s][a] = static_cast<int64_t>(kStandardSampleLocations[n][s][a] * kSubPixelOne);
          min[n] = std::min(min[n], at[n][s][a]), max[n] = std::max(max[n], at[n][s][a]);
        }
    }
  }
  constexpr bool exact() const {
    for (int n = 0; n < 5; ++n)
      for (int s = 0; s < kMaxSamples; ++s)
        for (int a = 0; a < 2; ++a)
          if (static_cast<float>(at[n][s][a]) != kStandardSampleLocations[n][s][a] * kSubPixelOne) return false;
    return true;
  }
};
constexpr SampleOffsets kSampleOffsets;
static_assert(kSampleOffsets.exact(), "a standard sample location is not on the 1/256 grid");
static_assert(kSampleOffsets.min[2] == kSubPixelOne / 8 && kSampleOffsets.max[2] == kSubPixelOne * 7 / 8);
static_assert(kSampleOffsets.min[4] == 0 && kSampleOffsets.max[4] == kSubPixelOne * 15 / 16);
}  // namespace

void sampleLocation(int32_t pixelX, int32_t pixelY, uint32_t samples, uint32_t s, int64_t* sx, int64_t* sy) {
  // "Multisampling", standard sample locations: VK_SAMPLE_COUNT_1_BIT samples at (0.5, 0.5),
  // 2, 4, 8 and 16 samples at the locations of the spec's table.
  if (samples > 1 && isSupportedSampleCount(samples) && s < samples) {
    const int64_t* o = kSampleOffsets.at[__builtin_ctz(samples)][s];
    *sx = int64_t{pixelX} * kSubPixelOne + o[0];
    *sy = int64_t{pixelY} * kSubPixelOne + o[1];
    return;
  }
  *sx = pixelCenter(pixelX);
  *sy = pixelCenter(pixelY);
}

void sampleLocation(int32_t pixelX, int32_t pixelY, uint32_t samples, const SampleLocations* custom, uint32_t s,
                    int64_t* sx, int64_t* sy) {
  if (!custom || samples <= 1 || !isSupportedSampleCount(samples) || s >= samples)
    return sampleLocation(pixelX, pixelY, samples, s, sx, sy);
  *sx = int64_t{pixelX} * kSubPixelOne + int64_t{custom->x[s]} * (kSubPixelOne / 16);
  *sy = int64_t{pixelY} * kSubPixelOne + int64_t{custom->y[s]} * (kSubPixelOne / 16);
}

SampleOffsetRange sampleOffsetRange(uint32_t samples, bool custom) {
  if (samples <= 1 || !isSupportedSampleCount(samples)) return {kSubPixelOne / 2, kSubPixelOne / 2};
  if (custom) return {0, kSubPixelOne * 15 / 16};
  const int n = __builtin_ctz(samples);
  return {kSampleOffsets.min[n], kSampleOffsets.max[n]};
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

PixelSpan pixelCentresWithin(int64_t lo, int64_t hi) {
  // Smallest p with p*256 + 128 >= lo is ceil((lo - 128) / 256); largest p with
  // p*256 + 128 <= hi is floor((hi - 128) / 256). Arithmetic shifts floor for negatives too.
  const int64_t half = kSubPixelOne / 2;
  const int64_t first = -((half - lo) >> kSubPixelBits);
  const int64_t last = (hi - half) >> kSubPixelBits;
  return {static_cast<int32_t>(first), static_cast<int32_t>(std::max(last + 1, first))};
}

float clampPointSize(float size) {
  if (!(size >= kPointSizeMin)) return kPointSizeMin;  // also NaN
  return std::min(size, kPointSizeMax);
}

float clampLineWidth(float width) {
  if (!(width >= kLineWidthRange[0])) return kLineWidthRange[0];  // also NaN
  return std::min(width, kLineWidthRange[1]);
}

int64_t lineHalfWidth(float width) { return snapToSubPixelGrid(double{width} / 2); }

float pointSpriteCoord(double sampleCoord, double vertexCoord, float size) {
  return static_cast<float>(0.5 + (sampleCoord - vertexCoord) / size);
}

bool isXMajor(int64_t dx, int64_t dy) { return std::llabs(dx) >= std::llabs(dy); }

bool rectangleCovers(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t halfWidth, int64_t sx, int64_t sy) {
  // Coordinates stay below 2^24 (the line guard band), so every product below is exact: the
  // cross and dot products in int64, their squares in 128 bits.
  const int64_t dx = bx - ax, dy = by - ay;
  // Along the segment: the end edges through p_a and p_b, perpendicular to it. Inward
  // gradients (dx, dy) at p_a, (-dx, -dy) at p_b.
  const int64_t fromStart = dx * (sx - ax) + dy * (sy - ay);
  const int64_t toEnd = dx * (bx - sx) + dy * (by - sy);
  if (fromStart < 0 || (fromStart == 0 && !isTopLeft(dx, dy))) return false;
  if (toEnd < 0 || (toEnd == 0 && !isTopLeft(-dx, -dy))) return false;
  // Across it: distance c / |d| from the segment with c = d x (s - a); inside where
  // c^2 < halfWidth^2 |d|^2. The edge on the side c > 0 has the inward gradient (dy, -dx), the
  // other (-dy, dx).
  const int64_t c = dx * (sy - ay) - dy * (sx - ax);
  const __int128 c2 = static_cast<__int128>(c) * c;
  const __int128 limit = static_cast<__int128>(halfWidth) * halfWidth * (static_cast<__int128>(dx) * dx + static_cast<__int128>(dy) * dy);
  if (c2 < limit) return true;
  if (c2 > limit) return false;
  return c > 0 ? isTopLeft(dy, -dx) : isTopLeft(-dy, dx);
}

double rectanglePixelArea(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t halfWidth, int32_t px, int32_t py,
                          double alongFrom, double alongTo) {
  // The segment's frame (pixels): u along it from p_a, v across it. The rectangle is
  // [0, length] x [-h, h]; the pixel square's corners, in order around it, map by a rotation, so
  // their polygon keeps its area.
  const double one = double(kSubPixelOne);
  const double dx = double(bx - ax) / one, dy = double(by - ay) / one;
  const double length = std::sqrt(dx * dx + dy * dy);
  const double ux = dx / length, uy = dy / length;
  const double h = double(halfWidth) / one;
  constexpr int kMaxVertices = 4 + 4;  // each of the four sides adds at most one vertex
  double u[kMaxVertices], v[kMaxVertices];
  int n = 4;
  const double cornerX[4] = {0, 1, 1, 0}, cornerY[4] = {0, 0, 1, 1};
  for (int k = 0; k < 4; ++k) {
    const double x = double(px) + cornerX[k] - double(ax) / one, y = double(py) + cornerY[k] - double(ay) / one;
    u[k] = x * ux + y * uy;
    v[k] = -x * uy + y * ux;
  }
  // Sutherland-Hodgman against u >= lo, u <= hi, v >= -h, v <= h: keep where sign * (c - bound)
  // <= 0 for the coordinate c.
  auto clip = [&](bool alongU, double bound, double sign) {
    double ou[kMaxVertices], ov[kMaxVertices];
    int m = 0;
    for (int k = 0; k < n; ++k) {
      const int next = (k + 1) % n;
      const double ck = sign * ((alongU ? u[k] : v[k]) - bound), cn = sign * ((alongU ? u[next] : v[next]) - bound);
      if (ck <= 0) ou[m] = u[k], ov[m] = v[k], ++m;
      if ((ck < 0 && cn > 0) || (ck > 0 && cn < 0)) {
        const double t = ck / (ck - cn);
        ou[m] = u[k] + t * (u[next] - u[k]), ov[m] = v[k] + t * (v[next] - v[k]), ++m;
      }
    }
    n = m;
    std::copy_n(ou, m, u);
    std::copy_n(ov, m, v);
  };
  clip(true, std::max(0.0, alongFrom), -1.0);
  clip(true, std::min(length, alongTo), 1.0);
  clip(false, -h, -1.0);
  clip(false, h, 1.0);
  double twice = 0;
  for (int k = 0; k < n; ++k) twice += u[k] * v[(k + 1) % n] - u[(k + 1) % n] * v[k];
  return std::fabs(twice) / 2;
}

double lineParameter(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t rx, int64_t ry) {
  // Coordinates stay below 2^24 (1/256 units within the line guard band), so both products
  // are exact in int64 and, below 2^53, in double too.
  const int64_t dx = bx - ax, dy = by - ay;
  const int64_t dot = (rx - ax) * dx + (ry - ay) * dy;
  const int64_t len2 = dx * dx + dy * dy;
  return static_cast<double>(dot) / static_cast<double>(len2);
}

}  // namespace tessera::raster::rules
