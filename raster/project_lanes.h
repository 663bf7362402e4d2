// Projection of many vertices at once for set-up: the inside test (vertexTriviallyInside, clip.h)
// and projectVertex (polygon.h) of each vertex, as loops over arrays that the compiler
// vectorizes. Used for the vertices of a chunk's triangles (draw_binned.cpp: setUpChunk), where
// calling the two functions per vertex cost more than the rest of set-up.
#pragma once

#include <cstddef>
#include <cstdint>

#include "polygon.h"
#include "tessera/raster.h"

namespace tessera::raster {

// Structure-of-arrays positions in, per-vertex results out (`n` of each).
struct ProjectLanes {
  const float *x, *y, *z, *w;  // clip-space position
  int64_t *sx, *sy;            // ProjectedVertex::sx, sy (only where inside)
  double* windowZ;             // ProjectedVertex::z (only where inside)
  float* invW;                 // ProjectedVertex::invW (only where inside)
  uint8_t* inside;             // vertexTriviallyInside
};

// For every i < n: inside[i] = vertexTriviallyInside(position i, state) and, where it is true,
// sx, sy, windowZ, invW as projectVertex gives them, bit for bit (the same IEEE operations in
// the same order; tests/unit/raster/project_lanes_test.cpp compares the two on random vertices).
// The other lanes' outputs are unspecified.
void projectLanes(const RasterState& state, size_t n, const ProjectLanes& lanes);

}  // namespace tessera::raster
