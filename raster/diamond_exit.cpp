// "Bresenham Line Segment Rasterization" (VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT): the
// diamond-exit rule, decided exactly.
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

}  // namespace tessera::raster::rules
