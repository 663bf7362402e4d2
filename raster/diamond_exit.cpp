// "Bresenham Line Segment Rasterization" (VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT): the
// diamond-exit rule, decided exactly, and the rules built on it that bresenham_lines.cpp walks
// a line with (the width, the candidate pixel of each column, the first and last fragments).
//
// The rule: a segment from p_a to p_b produces fragment f (centre (x_f, y_f)) when the segment
// from p_a' to p_b' intersects the open diamond R_f = {|x - x_f| + |y - y_f| < 1/2}, except
// when p_b' lies in R_f, where p' = p - (ε, ε²) for every small enough ε > 0. Moving both
// endpoints by -(ε, ε²) is moving the diamond by +(ε, ε²), so every quantity below is a
// polynomial a + b ε + c ε² in ε with integer coefficients (positions in 1/256 pixel, the
// sub-pixel grid), and its sign for small ε is the sign of the first non-zero coefficient.
// That decides every tie the spec's perturbation decides, with no rounding.
//
// Along the segment P(t) = p_a + t (p_b - p_a), g(t) = |P_x(t) - x_f'| + |P_y(t) - y_f'| is
// convex and piecewise linear, so its minimum over [0, 1] is at t = 0, t = 1 or where one of
// the two terms is zero; the segment meets the open diamond exactly when that minimum is < 1/2.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "rules.h"

namespace tessera::raster::rules {
namespace {

// a + b ε + c ε², compared for small ε > 0.
struct Perturbed {
  int64_t a = 0, b = 0, c = 0;
  Perturbed operator+(const Perturbed& o) const { return {a + o.a, b + o.b, c + o.c}; }
  Perturbed operator-(const Perturbed& o) const { return {a - o.a, b - o.b, c - o.c}; }
  Perturbed operator*(int64_t k) const { return {a * k, b * k, c * k}; }
  int sign() const { return a != 0 ? (a > 0 ? 1 : -1) : b != 0 ? (b > 0 ? 1 : -1) : c != 0 ? (c > 0 ? 1 : -1) : 0; }
  Perturbed abs() const { return sign() < 0 ? *this * -1 : *this; }
};

// d * g(t) - d / 2 for t = n / d (d > 0), in 1/256 pixel: negative when P(t) is inside the
// shifted diamond. (x', y') is the shifted centre.
Perturbed scaledDistanceMinusHalf(int64_t ax, int64_t ay, int64_t dx, int64_t dy, const Perturbed& n, int64_t d,
                                  const Perturbed& cx, const Perturbed& cy) {
  const Perturbed px = Perturbed{ax * d, 0, 0} + n * dx;  // d * P_x(t)
  const Perturbed py = Perturbed{ay * d, 0, 0} + n * dy;
  const Perturbed sum = (px - cx * d).abs() + (py - cy * d).abs();
  return sum - Perturbed{d * (kSubPixelOne / 2), 0, 0};
}

}  // namespace

bool diamondExitProduces(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t px, int32_t py) {
  const int64_t dx = bx - ax, dy = by - ay;
  // The diamond's centre moved by (+ε, +ε²).
  const Perturbed cx{int64_t(px) * kSubPixelOne + kSubPixelOne / 2, 1, 0};
  const Perturbed cy{int64_t(py) * kSubPixelOne + kSubPixelOne / 2, 0, 1};
  // "except if p_b' is contained in R_f": t = 1.
  if (scaledDistanceMinusHalf(ax, ay, dx, dy, {1, 0, 0}, 1, cx, cy).sign() < 0) return false;
  if (scaledDistanceMinusHalf(ax, ay, dx, dy, {0, 0, 0}, 1, cx, cy).sign() < 0) return true;  // t = 0
  // Where P_x(t) = x_f' (t = (x_f' - a_x) / dx) and where P_y(t) = y_f', when inside [0, 1].
  auto insideAt = [&](const Perturbed& numerator, int64_t denominator) {
    Perturbed n = numerator;
    int64_t d = denominator;
    if (d < 0) n = n * -1, d = -d;
    if (n.sign() < 0 || (n - Perturbed{d, 0, 0}).sign() > 0) return false;  // t outside [0, 1]
    return scaledDistanceMinusHalf(ax, ay, dx, dy, n, d, cx, cy).sign() < 0;
  };
  if (dx != 0 && insideAt(cx - Perturbed{ax, 0, 0}, dx)) return true;
  if (dy != 0 && insideAt(cy - Perturbed{ay, 0, 0}, dy)) return true;
  return false;
}

int32_t bresenhamLineWidth(float width) {
  // "rounding ... to the nearest integer" (halves up, as floor(w + 1/2)), clamped to
  // lineWidthRange with both ends rounded alike, then to at least 1.
  const double lo = std::floor(double{kLineWidthRange[0]} + 0.5), hi = std::floor(double{kLineWidthRange[1]} + 0.5);
  if (!(width == width)) return static_cast<int32_t>(std::max(lo, 1.0));  // NaN
  const double rounded = std::clamp(std::floor(double{width} + 0.5), lo, hi);
  return static_cast<int32_t>(std::max(rounded, 1.0));
}

namespace {
// floor(n / d) for d > 0.
int64_t floorDivide(int64_t n, int64_t d) { return n >= 0 ? n / d : -((-n + d - 1) / d); }
}  // namespace

bool bresenhamFragmentAt(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t major, int32_t* minor) {
  const int64_t dx = bx - ax, dy = by - ay;
  const bool xMajor = isXMajor(dx, dy);
  const int64_t majorStart = xMajor ? ax : ay, minorStart = xMajor ? ay : ax;
  int64_t majorDelta = xMajor ? dx : dy, minorDelta = xMajor ? dy : dx;
  if (majorDelta == 0) return false;  // a degenerate segment produces nothing
  // The line's minor coordinate at the column's centre c: n = minorStart + (c - majorStart)
  // minorDelta / majorDelta = num / den, exactly (1/256 units; products below 2^59).
  const int64_t centre = int64_t{major} * kSubPixelOne + kSubPixelOne / 2;
  int64_t num = minorStart * majorDelta + (centre - majorStart) * minorDelta;
  if (majorDelta < 0) num = -num, majorDelta = -majorDelta;
  const int64_t denominator = majorDelta * kSubPixelOne;
  const int64_t below = floorDivide(num, denominator);  // floor of n in pixels
  const bool onPixelEdge = below * denominator == num;
  auto produces = [&](int64_t n) {
    const int32_t p = static_cast<int32_t>(n);
    return xMajor ? diamondExitProduces(ax, ay, bx, by, major, p) : diamondExitProduces(ax, ay, bx, by, p, major);
  };
  for (const int64_t n : {below, below - 1}) {
    if (n != below && !onPixelEdge) break;  // the only candidate off a pixel edge is floor(n)
    if (produces(n)) {
      *minor = static_cast<int32_t>(n);
      return true;
    }
  }
  return false;
}

bool bresenhamFragmentSpan(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t* first, int32_t* last) {
  const int64_t dx = bx - ax, dy = by - ay;
  const bool xMajor = isXMajor(dx, dy);
  const int64_t majorStart = xMajor ? ax : ay, majorEnd = xMajor ? bx : by;
  if (majorStart == majorEnd) return false;
  const int32_t dir = majorEnd > majorStart ? 1 : -1;
  // A fragment's diamond lies within its column, so the produced columns lie between the
  // endpoints' columns widened by one (the perturbation can reach into the next column).
  const int32_t from = static_cast<int32_t>(floorDivide(majorStart, kSubPixelOne)) - dir;
  const int32_t to = static_cast<int32_t>(floorDivide(majorEnd, kSubPixelOne)) + dir;
  int32_t minor;
  int32_t m = from;
  while (!bresenhamFragmentAt(ax, ay, bx, by, m, &minor)) {
    if (m == to) return false;
    m += dir;
  }
  *first = m;
  for (m = to; !bresenhamFragmentAt(ax, ay, bx, by, m, &minor); m -= dir) {
  }
  *last = m;
  return true;
}

}  // namespace tessera::raster::rules
