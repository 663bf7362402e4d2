// Hierarchical Z of one tile (tile_depth_bounds.h).
#include "tile_depth_bounds.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <limits>

#include "block_depth.h"    // the D24/D16 texels and decode
#include "draw_internal.h"  // floatToUnorm
#include "rules.h"

namespace tessera::raster {

bool failsEverywhere(VkCompareOp op, DepthInterval z, float storedMin, float storedMax) {
  // Written so that a NaN end of `z` makes each comparison false (no rejection).
  switch (op) {
    case VK_COMPARE_OP_NEVER: return true;
    case VK_COMPARE_OP_LESS: return z.lo >= storedMax;            // no z < stored
    case VK_COMPARE_OP_LESS_OR_EQUAL: return z.lo > storedMax;    // no z <= stored
    case VK_COMPARE_OP_GREATER: return z.hi <= storedMin;         // no z > stored
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return z.hi < storedMin;  // no z >= stored
    case VK_COMPARE_OP_EQUAL: return z.lo > storedMax || z.hi < storedMin;
    default: return false;  // NOT_EQUAL passes against NaN; ALWAYS always
  }
}

DepthInterval fragmentDepthInterval(const SetupTriangle& t) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (float z : t.z)
    if (!std::isfinite(z)) return {-kInf, kInf};
  const rules::DepthRange range{t.depthMin, t.depthMax};
  if (t.flatDepth) {
    // pixel_weights.h flatDepthOf: that depth exactly.
    const float z = rules::clampFragmentDepth(double(t.z[0]) + t.depthBias, range);
    return {z, z};
  }
  const double lo = std::min({t.z[0], t.z[1], t.z[2]}), hi = std::max({t.z[0], t.z[1], t.z[2]});
  // Three products and sums in double move the interpolated depth by a few units of 2^-53 of the
  // largest |z|; 2^-40 of it (and the smallest normal double, for depths of 0) is far beyond.
  const double margin = std::max(std::fabs(lo), std::fabs(hi)) * 0x1p-40 + 0x1p-1022;
  return {rules::clampFragmentDepth(lo - margin + t.depthBias, range),
          rules::clampFragmentDepth(hi + margin + t.depthBias, range)};
}

DepthInterval quantizedDepthInterval(DepthInterval z, uint32_t bits) {
  if (!bits) return z;
  const double maxValue = unormDepthMax(bits);
  return {decodeUnormDepth(floatToUnorm(z.lo, maxValue), bits), decodeUnormDepth(floatToUnorm(z.hi, maxValue), bits)};
}

namespace {

bool sameRect(const Rect& a, const Rect& b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

}  // namespace

bool TileDepthBounds::use(const DepthPlane& plane, const Rect& tile, const Rect& readable) {
  if (!begun_) return false;
  if (tile.x1 - tile.x0 > 64 || tile.y1 - tile.y0 > 64 || !sameRect(tile, tile_)) {
    forget();  // drawing elsewhere: nothing known here any more
    return false;
  }
  const uint32_t samples = plane.unormBits ? 1 : plane.samples;
  if (plane.base != base_ || plane.rowPitch != rowPitch_ || plane.unormBits != unormBits_ || samples != samples_ ||
      !sameRect(readable, readable_)) {
    base_ = plane.base, rowPitch_ = plane.rowPitch, unormBits_ = plane.unormBits, samples_ = samples, readable_ = readable;
    forgetCells();
  }
  return true;
}

void TileDepthBounds::computeCell(uint32_t cell) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const int32_t x0 = tile_.x0 + int32_t((cell % kCellsPerRow) << kCellShift);
  const int32_t y0 = tile_.y0 + int32_t((cell / kCellsPerRow) << kCellShift);
  const Rect r = rules::intersect(rules::intersect(Rect{x0, y0, x0 + 4, y0 + 4}, tile_), readable_);
  float lo = kInf, hi = -kInf;
  if (unormBits_) {
    // D24 or D16: the decoded values (no NaN among them).
    for (int32_t y = r.y0; y < r.y1; ++y)
      for (int32_t x = r.x0; x < r.x1; ++x) {
        const float v = decodeUnormDepth(readUnorm(unormTexel(base_, rowPitch_, x, y, unormBits_), unormBits_), unormBits_);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  } else if (r.x1 - r.x0 == 4 && r.y1 - r.y0 == 4) {
    // MINPS and MAXPS return their second operand when either is NaN: with the running bound
    // second, a NaN depth leaves it as it was (the bounds leave NaNs out: failsEverywhere).
    // A row's four pixels are `samples_` 16-byte vectors (a pixel's samples side by side).
    const uint8_t* row = base_ + uint64_t(r.y0) * rowPitch_ + uint64_t(r.x0) * 4 * samples_;
    __m128 rowLo = _mm_set1_ps(kInf), rowHi = _mm_set1_ps(-kInf);
    for (int y = 0; y < 4; ++y, row += rowPitch_)
      for (uint32_t k = 0; k < samples_; ++k) {
        const __m128 v = _mm_loadu_ps(reinterpret_cast<const float*>(row) + 4 * k);
        rowLo = _mm_min_ps(v, rowLo);
        rowHi = _mm_max_ps(v, rowHi);
      }
    // The four lanes: no NaN among them any more.
    rowLo = _mm_min_ps(rowLo, _mm_movehl_ps(rowLo, rowLo));
    rowHi = _mm_max_ps(rowHi, _mm_movehl_ps(rowHi, rowHi));
    lo = _mm_cvtss_f32(_mm_min_ss(rowLo, _mm_shuffle_ps(rowLo, rowLo, 1)));
    hi = _mm_cvtss_f32(_mm_max_ss(rowHi, _mm_shuffle_ps(rowHi, rowHi, 1)));
  } else {
    // A cell cut by the tile or the readable area (`v < lo ? v : lo` keeps lo for a NaN v).
    for (int32_t y = r.y0; y < r.y1; ++y)
      for (uint64_t at = uint64_t(r.x0) * samples_; at < uint64_t(r.x1) * samples_; ++at) {
        float v;
        std::memcpy(&v, base_ + uint64_t(y) * rowPitch_ + at * 4, sizeof v);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
  }
  min_[cell] = lo, max_[cell] = hi;
  known_[cell >> 6] |= uint64_t(1) << (cell & 63);
  anyKnown_ = true;
}

bool TileDepthBounds::rejects(const Rect& r, VkCompareOp op, DepthInterval z, bool compute) {
  if (rules::isEmpty(r)) return true;
  const int32_t cx0 = (r.x0 - tile_.x0) >> kCellShift, cx1 = (r.x1 - 1 - tile_.x0) >> kCellShift;
  const int32_t cy0 = (r.y0 - tile_.y0) >> kCellShift, cy1 = (r.y1 - 1 - tile_.y0) >> kCellShift;
  for (int32_t cy = cy0; cy <= cy1; ++cy)
    for (int32_t cx = cx0; cx <= cx1; ++cx) {
      const uint32_t cell = uint32_t(cy * kCellsPerRow + cx);
      if (!known(cell)) {
        if (!compute) return false;
        computeCell(cell);
      }
      if (!failsEverywhere(op, z, min_[cell], max_[cell])) return false;
    }
  return true;
}

void TileDepthBounds::changed(const Rect& r) {
  if (rules::isEmpty(r)) return;
  const int32_t cx0 = (r.x0 - tile_.x0) >> kCellShift, cx1 = (r.x1 - 1 - tile_.x0) >> kCellShift;
  const int32_t cy0 = (r.y0 - tile_.y0) >> kCellShift, cy1 = (r.y1 - 1 - tile_.y0) >> kCellShift;
  for (int32_t cy = cy0; cy <= cy1; ++cy)
    for (int32_t cx = cx0; cx <= cx1; ++cx) {
      const uint32_t cell = uint32_t(cy * kCellsPerRow + cx);
      known_[cell >> 6] &= ~(uint64_t(1) << (cell & 63));
    }
}

}  // namespace tessera::raster
