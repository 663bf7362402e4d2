// Compares a real program's frame on Tessera with the same program's frame on lavapipe (the
// independent oracle), allowing exactly what the spec leaves to implementations:
// - Rasterization (Vulkan spec, "Rasterization" > "Polygons" > "Basic Polygon Rasterization"
//   and "Lines"): which pixels on a primitive's edge are covered depends on subPixelPrecisionBits
//   and on how an implementation treats sample points exactly on an edge, so pixels may differ
//   where lavapipe's frame itself has an edge (a pixel whose 3x3 neighbourhood is not one colour).
// - Arithmetic ("Precision and Operation of SPIR-V Instructions", "Fixed-Point Data
//   Conversions", "Texel Filtering"): floating-point operations, UNORM conversions and linear
//   filter weights are exact only to a few ULP or LSB, so elsewhere each channel may differ by
//   `channelTolerance`.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "wsi_fixture.h"

namespace tessera_test {

// Whether pixel (x, y) of `image` lies on an edge: some 3x3 neighbour has another colour.
inline bool onEdge(const Png& image, uint32_t x, uint32_t y) {
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = int(x) + dx, ny = int(y) + dy;
      if (nx < 0 || ny < 0 || nx >= int(image.width) || ny >= int(image.height)) continue;
      if (std::memcmp(image.at(nx, ny), image.at(x, y), 3) != 0) return true;
    }
  return false;
}

// How `tessera` differs from `lavapipe`, counted as described above.
struct FrameDifference {
  uint32_t interior = 0;    // pixels off lavapipe's edges differing by more than the tolerance
  uint32_t edge = 0;        // edge pixels differing by more than it
  uint32_t edgePixels = 0;  // lavapipe's edge pixels
  std::string first;        // the first interior difference, in words
  // An edge may move by its pixel, not vanish: at most a third of the edge pixels differ.
  bool matches() const { return interior == 0 && edge <= edgePixels / 3; }
};

// Both frames must have the same, non-zero size.
inline FrameDifference compareFrames(const Png& tessera, const Png& lavapipe, int channelTolerance) {
  FrameDifference d;
  for (uint32_t y = 0; y < lavapipe.height; ++y)
    for (uint32_t x = 0; x < lavapipe.width; ++x) {
      const bool isEdge = onEdge(lavapipe, x, y);
      d.edgePixels += isEdge;
      int worst = 0;
      for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(tessera.at(x, y)[c]) - int(lavapipe.at(x, y)[c])));
      if (worst <= channelTolerance) continue;
      if (isEdge) {
        ++d.edge;
        continue;
      }
      if (d.interior++ == 0) {
        const uint8_t *t = tessera.at(x, y), *l = lavapipe.at(x, y);
        d.first = "(" + std::to_string(x) + "," + std::to_string(y) + "): Tessera " + std::to_string(t[0]) + "," +
                  std::to_string(t[1]) + "," + std::to_string(t[2]) + ", lavapipe " + std::to_string(l[0]) + "," +
                  std::to_string(l[1]) + "," + std::to_string(l[2]);
      }
    }
  return d;
}

// Expects `tessera` to match `lavapipe` as described above; `what` names the program in failures.
inline void expectFramesMatch(const Png& tessera, const Png& lavapipe, int channelTolerance, const std::string& what) {
  ASSERT_FALSE(lavapipe.rgb.empty()) << what << ": no frame from lavapipe";
  ASSERT_FALSE(tessera.rgb.empty()) << what << ": no frame from Tessera";
  ASSERT_EQ(tessera.width, lavapipe.width) << what;
  ASSERT_EQ(tessera.height, lavapipe.height) << what;
  const FrameDifference d = compareFrames(tessera, lavapipe, channelTolerance);
  EXPECT_EQ(d.interior, 0u) << what << ": pixels off lavapipe's edges differ by more than " << channelTolerance
                            << "; first at " << d.first;
  EXPECT_LE(d.edge, d.edgePixels / 3) << what << ": " << d.edge << " of " << d.edgePixels << " edge pixels differ";
}

}  // namespace tessera_test
