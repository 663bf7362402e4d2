// Hierarchical Z for the binned path's tile pass (issue 12, "Early rejection"): the smallest and
// largest depth stored in each 4x4-pixel cell of the tile being drawn, on a D32_SFLOAT
// attachment of 1 or 4 samples or a single-sample D24 or D16 one, so that the block walker
// drops a triangle, or a block of it, whose fragments all fail the depth test there before it
// computes their coverage or depths (FragmentStage::blockTriangle). Dropping them is exact: the block depth test would have
// rejected every one of those fragments, and in the pipelines where the walker tests depth
// before shading (FragmentStage::blockDepthTests_) a fragment that fails has no other effect.
//
// Cells are computed when first asked for and forgotten when the stage writes them; anything
// else that may write the attachment (clears, resolves, other draws, another tile) makes the
// owner start over (begin) or forget everything (forget).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "tessera/raster.h"

namespace tessera::raster {

// The depths a primitive's covered samples can have, lo <= z <= hi (fragmentDepthInterval).
struct DepthInterval {
  float lo, hi;
};

// Whether every fragment depth in `z` fails compare op `op` ("Depth Test": a fragment passes
// when z op stored) against every stored depth in [storedMin, storedMax]. A NaN stored depth
// fails every op but NOT_EQUAL and ALWAYS, which never reject: the bounds leave NaNs out.
// An interval with a NaN end rejects only under NEVER.
bool failsEverywhere(VkCompareOp op, DepthInterval z, float storedMin, float storedMax);

// The fragment depths of a set-up triangle's covered pixel centres: linear interpolation of its
// vertices' depths with weights >= 0 that sum to 1 (in double: pixel_weights.h
// interpolatedDepth), the bias added, then clampFragmentDepth, which is monotone; so the vertices'
// smallest and largest depths, widened by far more than the interpolation's rounding, bound them.
// Vertices that are not finite give (-inf, +inf): nothing is rejected but by NEVER.
DepthInterval fragmentDepthInterval(const SetupTriangle& t);
// The same depths as a D24 (`bits` 24) or D16 (16) block test compares them: converted to the
// format and decoded (block_depth.h blockDepthTestUnorm), both steps non-decreasing, so the
// ends' conversions bound every depth's. `bits` 0 (D32_SFLOAT): `z` itself.
DepthInterval quantizedDepthInterval(DepthInterval z, uint32_t bits);

class TileDepthBounds {
 public:
  // 4x4 pixels, aligned as the block walker's 4x4 blocks are unless a triangle's blocks start
  // at 2 mod 4 (then a block spans two cells). Measured on 2-16 pixel triangles drawn front to
  // back, 8x8 cells were almost never wholly covered by nearer ones, so almost never rejected.
  static constexpr int32_t kCellShift = 2;
  static constexpr int32_t kCellsPerRow = 64 >> kCellShift;  // of a 64x64 tile
  static constexpr int32_t kCells = kCellsPerRow * kCellsPerRow;

  // A new tile (at most 64x64 pixels, cells from its top-left corner): nothing known.
  void begin(const Rect& tile) {
    tile_ = tile;
    begun_ = true;
    forgetCells();
  }
  // The attachment may have changed where nothing here saw it: nothing known until begin.
  void forget() {
    begun_ = false;
    forgetCells();
  }
  // The depth attachment the bounds describe.
  struct DepthPlane {
    const uint8_t* base;
    uint64_t rowPitch;   // bytes a row
    // 24 or 16: a single-sample D24 plane (4 bytes a texel, the depth in the low 24 bits) or
    // D16 one, whose cells hold the decoded values the block test compares; 0: D32_SFLOAT, with
    // `samples` (1 or 4) floats a pixel, side by side, all of them in the pixel's cell.
    uint32_t unormBits;
    uint32_t samples;
  };
  // Whether the bounds may be used for `tile` of `plane`, whose pixels in `readable` may be read
  // (render area ∩ attachment): begun for that tile. A different plane or readable area than
  // the last call's starts the cells over.
  bool use(const DepthPlane& plane, const Rect& tile, const Rect& readable);
  // Whether some cell's bounds are known (begun, and computed since).
  bool anyKnown() const { return anyKnown_; }
  // Whether fragments with depths in `z` anywhere in `r` (inside the tile and the readable
  // area) all fail `op` against what is stored there. `compute` false: only from cells already
  // known (no for any other), the blocks' questions: computing the cells a large triangle's
  // blocks had just written, for blocks that were then drawn anyway, cost the demo's scene of
  // lit cubes 5% more instructions.
  bool rejects(const Rect& r, VkCompareOp op, DepthInterval z, bool compute = true);
  // rejects(r, op, z, false) for a block's non-empty rectangle, inline: no at once when its
  // first cell is unknown (most blocks where nothing is hidden).
  bool blockRejects(const Rect& r, VkCompareOp op, DepthInterval z) {
    const uint32_t first = uint32_t(((r.y0 - tile_.y0) >> kCellShift) * kCellsPerRow + ((r.x0 - tile_.x0) >> kCellShift));
    return known(first) && rejects(r, op, z, false);
  }
  // The stage wrote depths inside `r`: its cells are computed again when next asked for.
  void changed(const Rect& r);

 private:
  void computeCell(uint32_t cell);
  bool known(uint32_t cell) const { return known_[cell >> 6] >> (cell & 63) & 1; }
  void forgetCells() {
    for (uint64_t& k : known_) k = 0;
    anyKnown_ = false;
  }

  Rect tile_{};
  Rect readable_{};
  const uint8_t* base_ = nullptr;
  uint64_t rowPitch_ = 0;
  uint32_t unormBits_ = 0;
  uint32_t samples_ = 1;
  bool begun_ = false;
  uint64_t known_[kCells / 64] = {};  // bit c: min_[c] and max_[c] hold cell c's bounds
  bool anyKnown_ = false;             // computed since forgetCells (some bit may be clear again)
  float min_[kCells];
  float max_[kCells];
};

}  // namespace tessera::raster
