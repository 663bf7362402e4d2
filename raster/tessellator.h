// The fixed-function tessellator ("Tessellation": "Tessellator Patch Discard", "Tessellator
// Spacing", "Triangle Tessellation", "Quad Tessellation", "Isoline Tessellation", and the
// appendix "Tessellation Invariance"): turns one patch's outer and inner tessellation levels
// into domain coordinates (TessCoord) and the points, lines or triangles joining them. The
// tessellation evaluation shader then runs once per coordinate.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::raster {

enum class TessDomain : uint8_t { Triangles, Quads, Isolines };
enum class TessSpacing : uint8_t { Equal, FractionalEven, FractionalOdd };

// VkPhysicalDeviceLimits::maxTessellationGenerationLevel, which the Vulkan front reports.
constexpr uint32_t kMaxTessellationLevel = 64;

struct TessMode {
  TessDomain domain = TessDomain::Triangles;
  TessSpacing spacing = TessSpacing::Equal;
  bool clockwise = false;        // VertexOrderCw (else VertexOrderCcw)
  bool pointMode = false;        // PointMode
  bool lowerLeftOrigin = false;  // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT (maintenance2)
};

struct TessCoord {
  float u, v, w;  // w is 0 for quads and isolines
};

struct Tessellation {
  std::vector<TessCoord> coords;   // each distinct vertex once
  std::vector<uint32_t> indices;   // primitives as indices into coords
  uint32_t verticesPerPrimitive = 3;  // 1 points, 2 lines, 3 triangles
  uint32_t primitiveCount() const { return uint32_t(indices.size() / verticesPerPrimitive); }
};

// One edge's subdivision: the level clamped as the spacing says ("Tessellator Spacing") and the
// number of segments it is rounded up to.
struct EdgeSubdivision {
  double level = 1;    // f, clamped
  uint32_t segments = 1;  // n
};
EdgeSubdivision subdivideLevel(TessSpacing spacing, float level);

// The n + 1 positions in [0, 1] of an edge's vertices, in increasing order: equal segments, or
// for fractional spacing n - 2 segments of length 1/f and two shorter, equal ones at both ends.
// Symmetric (position n - k is exactly 1 - position k, "Tessellation Invariance" rule 3) and
// quantized to multiples of 2^-24, so that 1 - x is exact for every coordinate (rule 8).
std::vector<float> edgePositions(TessSpacing spacing, EdgeSubdivision edge);

// Tessellates one patch. Returns false (and leaves `out` empty) when the patch is discarded: a
// relevant outer level not greater than 0, or NaN. Levels are TessLevelOuter[4] and
// TessLevelInner[2] as the control shader wrote them.
bool tessellate(const TessMode& mode, const float outer[4], const float inner[2], Tessellation& out);

}  // namespace tessera::raster
