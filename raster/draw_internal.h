// Pieces of draw() shared between its files: shaded vertices and the fragment stage.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/draw.h"

namespace tessera::raster {

// The vertex stage's results for one instance: per vertex (slot), 4 position words, then 4
// words for each location in `locations` (the outputs the fragment stage reads).
struct ShadedVertices {
  std::vector<uint32_t> locations;
  uint32_t stride = 4;
  std::vector<uint32_t> words;
  std::vector<float> pointSize;  // per slot, when the topology is points
  const float* position(uint32_t slot) const { return reinterpret_cast<const float*>(&words[size_t(slot) * stride]); }
  const uint32_t* outputs(uint32_t slot) const { return &words[size_t(slot) * stride + 4]; }
};

void shadeVertices(const DrawState& s, const DrawCall& c, uint32_t instance, const std::vector<uint32_t>& vertexIndices,
                   ShadedVertices& out);

// Rasterizes triangles and shades their fragments in batches of W/4 quads, then runs the
// per-fragment operations and writes the attachments (draw_fragments.cpp).
class FragmentStage {
 public:
  explicit FragmentStage(const DrawState& state);
  // One triangle by its vertices' slots; a is the provoking vertex.
  void triangle(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t c, uint32_t primitiveId,
                std::vector<SetupTriangle>& scratch);
  // One line by its endpoints' slots (a provoking), one point by its slot; pointSize from the
  // vertex stage.
  void line(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t primitiveId, std::vector<SetupLine>& scratch);
  void point(const ShadedVertices& vertices, uint32_t slot, float pointSize, uint32_t primitiveId);
  void flush();

 private:
  // Per lane of a batch: the pixel, the samples still covered, and each sample's depth.
  struct LaneState {
    int32_t px[abi::kMaxSimdWidth], py[abi::kMaxSimdWidth];
    uint32_t sampleBits[abi::kMaxSimdWidth];
    float sampleZ[abi::kMaxSimdWidth][kMaxSamples];
  };
  void shadeBatch();
  // Interpolates the fragment inputs of `lane` with the given weights (Centroid locations in
  // `centroidLocations` with the centroid weights).
  void interpolate(uint32_t lane, const float* persp, const float* linear, uint32_t centroidLocations,
                   const float* centroidPersp, const float* centroidLinear);
  // Shades the batch's covered lanes and runs the per-sample operations on lanes.sampleBits.
  void runFragments(abi::FragmentBatch& fb, LaneState& lanes);

  const DrawState& s_;
  const ShadedVertices* vertices_ = nullptr;
  uint32_t slots_[3] = {};
  uint32_t primitiveId_ = 0;
  bool frontFacing_ = true;
  bool isPoint_ = false;
  std::vector<Quad> quads_;  // the batch being filled (one triangle)
  std::vector<uint32_t> inputs_, outputs_;
};

}  // namespace tessera::raster
