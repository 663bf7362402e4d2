// The rasterizer's rules (raster/): from a clip-space triangle to the pixels it covers, with
// the depth and interpolation weights of every fragment. Implemented in raster/ from the
// specification's "Rasterization" chapter and "Fixed-Function Vertex Post-Processing"
// (clipping, perspective division, viewport transformation), each rule in one named place.
//
// What is NOT here: vertex fetch and shading, fragment shading, depth/stencil tests, blending
// and attachment writes. The draw loop (built on this contract) runs the vertex shader, hands
// each triangle's clip-space positions to setupTriangle, bins the results into tiles and calls
// rasterizeTriangle per tile, then shades the quads it receives.
//
// Single-sample rasterization samples at the pixel centre; with 2, 4, 8 or 16 samples at the
// standard sample locations ("Multisampling", kStandardSampleLocations below): coverage per
// sample, the depth at each sample, and centroid weights for the Centroid decoration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "tessera/shader_abi.h"

namespace tessera::raster {

struct Viewport {
  float x, y, width, height, minDepth, maxDepth;  // VkViewport
};

// Pixels [x0, x1) x [y0, y1).
struct Rect {
  int32_t x0, y0, x1, y1;
};

// rasterizationSamples Tessera supports and their standard locations: shader_abi.h's
// kStandardSampleLocations (the kernels' SamplePosition and InterpolateAtSample use them too).
using abi::isSupportedSampleCount;
using abi::kMaxSamples;
using abi::kStandardSampleLocations;
using abi::standardSampleLocation;

// VK_EXT_sample_locations: a draw's own sample locations (sampleLocationsEnable; a 1x1 pixel
// grid, maxSampleLocationGridSize), sample s at (x[s], y[s]) sixteenths of a pixel from the
// pixel's top-left corner (sampleLocationSubPixelBits 4; sampleLocationCoordinateRange [0,
// 15/16]). The rasterizer's coverage and depth, SamplePosition, FragCoord and the Centroid
// location of per-sample shading, and InterpolateAtSample all use them instead of the table.
struct SampleLocations {
  uint8_t x[kMaxSamples] = {}, y[kMaxSamples] = {};
};

// "Multiple Viewports" (multiViewport): viewports and scissors a draw may select from with
// ViewportIndex (maxViewports).
inline constexpr uint32_t kMaxViewports = 16;

struct RasterState {
  uint32_t samples = 1;  // rasterizationSamples: 1 (pixel centre), 2, 4, 8 or 16 (standard locations)
  // VK_EXT_sample_locations: with samples > 1, sample at customLocations instead of the
  // standard locations.
  bool customSampleLocations = false;
  SampleLocations customLocations;
  // Fill Quad::samplePersp/sampleLinear (only per-sample shading reads them: the draw loop sets
  // this, so ordinary multisampled draws do not pay for a weight set per sample and pixel).
  bool sampleWeights = false;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depthClampEnable = false;  // depth clamped to the viewport's range (and, by default, no z clipping)
  // VkPipelineRasterizationDepthClipStateCreateInfoEXT::depthClipEnable when the pipeline gives
  // one; FollowClamp when it does not (then z is clipped unless depthClampEnable). rules::clipsDepth
  // decides from both ("Primitive Clipping").
  enum class DepthClip : uint8_t { FollowClamp, Enabled, Disabled };
  DepthClip depthClip = DepthClip::FollowClamp;
  // VkPipelineViewportDepthClipControlCreateInfoEXT::negativeOneToOne: the clip volume's near
  // plane is z_c = -w_c and the viewport maps z_d in [-1, 1] to [minDepth, maxDepth].
  bool negativeOneToOne = false;
  // The device enabled VK_EXT_depth_range_unrestricted: a float depth attachment then keeps
  // fragment depths outside [0, 1] (rules::fragmentDepthRange).
  bool depthRangeUnrestricted = false;
  bool depthBiasEnable = false;
  float depthBiasConstantFactor = 0, depthBiasClamp = 0, depthBiasSlopeFactor = 0;
  // VK_EXT_depth_bias_control's VkDepthBiasRepresentationEXT ("Depth Bias Computation"): r is
  // the attachment format's minimum resolvable difference (Format), the constant 2^-n of its
  // depth bits or mantissa bits plus one (ForceUnorm), or 1 (Float). Tessera's r is always the
  // exact value (depthBiasExact).
  enum class DepthBiasRepresentation : uint8_t { Format, ForceUnorm, Float };
  DepthBiasRepresentation depthBiasRepresentation = DepthBiasRepresentation::Format;
  // The line width ("Line Segments": the pipeline's lineWidth or vkCmdSetLineWidth), also that
  // of a polygon's edges in polygon mode LINE.
  float lineWidth = 1.0f;
  // VK_EXT_line_rasterization ("Line Segments"): VkPipelineRasterizationLineStateCreateInfoEXT's
  // lineRasterizationMode (DEFAULT without the structure; a value the extension does not name
  // draws as DEFAULT), and "Line Stipple": stippledLineEnable, the factor r and the pattern p,
  // from the pipeline or vkCmdSetLineStippleEXT. Lines of polygon mode LINE follow both.
  VkLineRasterizationModeEXT lineMode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  bool lineStippleEnable = false;
  uint32_t lineStippleFactor = 1;  // valid usage: [1, 256]; rules::clampStippleFactor
  uint16_t lineStipplePattern = 0xFFFF;
  // Format of the depth attachment, for the depth bias unit r ("Depth Bias"): UNORM formats use
  // 2^-bits, float formats the exponent of the primitive's maximum depth; UNDEFINED: none.
  VkFormat depthFormat = VK_FORMAT_UNDEFINED;
  Viewport viewport{};
  Rect scissor{};  // already intersected with the render area / framebuffer
};

// Client-defined clip half-spaces ("Primitive Clipping": the view volume "may be further
// restricted by as many as maxClipDistances client-defined half-spaces"): ClipDistance[i] of
// each vertex, linearly interpolated along the primitive; the part where an interpolated
// distance is negative is outside. maxClipDistances = maxCombinedClipAndCullDistances = 8.
inline constexpr uint32_t kMaxUserClipPlanes = 8;

// One triangle of the draw: its vertices' clip-space positions (the vertex shader's Position)
// in the order primitive assembly produced them, and their clip distances (the first
// `clipDistances` of each row; 0: none written).
struct ClipTriangle {
  float position[3][4];
  uint32_t clipDistances = 0;
  float clipDistance[3][kMaxUserClipPlanes];
};

// One triangle ready to rasterize (after clipping, perspective division, viewport transform,
// culling and setup). Clipping may turn one ClipTriangle into several of these; every one
// refers back to the original triangle's three vertices, so that the draw loop interpolates
// vertex outputs from those three vertices only.
// The fields the binned path's tile pass reads for every triangle come first and fill the first
// two of its three cache lines (alignas(64): an element of a vector of them starts a line); the
// barycentric maps of clipped triangles, read only when identityWeights is false, take the
// third. A scene of small triangles reads one record per triangle and tile from memory, so the
// lines it touches are most of its traffic.
struct alignas(64) SetupTriangle {
  // User-provided and empty: set-up appends records by the million (emplace_back), and the
  // value-initialization of a constructor-less struct zeroes all of it first, the third cache
  // line included (a quarter of tris_small's set-up, perf). Set-up writes every field the tile
  // pass reads, and the barycentric maps whenever identityWeights is false.
  SetupTriangle() {}
  // Window coordinates of the (clipped) triangle's vertices, snapped to the sub-pixel grid
  // (subPixelPrecisionBits = 8), as integers in 1/256 pixel.
  int64_t x[3], y[3];
  float z[3];         // window depth (after viewport transform, before bias)
  float invW[3];      // 1 / w_clip of each vertex
  // clipBary and windowBary (below) are both the identity (every unclipped triangle): the
  // weights need no mapping back (pixel::originalWeights).
  bool identityWeights = false;
  // Every vertex has the same 1/w (an affine triangle: 2D, UI, full-screen passes): the
  // perspective-correct weights a_k/w / sum_j a_j/w are the window-space ones a_k exactly
  // (pixel::perspectiveWeights skips the division).
  bool uniformW = false;
  // Every vertex has the same window depth (a screen-aligned quad, a full-screen pass): linear
  // interpolation gives that depth exactly at every sample, which pixel::depthAt returns
  // without summing the weighted depths (whose rounding could only move it away).
  bool flatDepth = false;
  bool frontFacing;
  bool sampleWeights = false;  // RasterState::sampleWeights
  // The vertices lie at most kSmallTriangleSpan apart on either axis (and `bounds`, as always,
  // within their bounding box): the block walker tests a single-sample triangle's pixels with
  // 32-bit edge values (raster/block_edges.h, BlockEdges::small).
  bool smallSpan = false;
  // RasterState::customSampleLocations: the bounds take in every pixel whose square meets the
  // box (a custom location may lie anywhere in [0, 15/16]); rasterizeTriangle's `custom`
  // gives the locations.
  bool customLocations = false;
  float depthBias;    // the polygon's bias, already computed and clamped ("Depth Bias")
  // The range fragment depth (bias added) is clamped to: the viewport's [min, max] depth with
  // depthClampEnable, else [0, 1] ("Depth Clamping and Range Adjustment", "Depth Bias").
  float depthMin, depthMax;
  // Covered pixels lie inside (bounding box ∩ scissor ∩ viewport rectangle); with samples > 1
  // the box takes in every pixel with some sample location inside the triangle's bounding box.
  Rect bounds;
  uint32_t samples = 1;  // RasterState::samples: where rasterizeTriangle samples
  // Barycentric coordinates of each (clipped) vertex relative to the ORIGINAL triangle, in clip
  // space (weights for perspective-correct interpolation) and in window space (for
  // NoPerspective). Read only when identityWeights is false: set-up leaves them unwritten for
  // an unclipped triangle (both would be the identity), so that writing its record touches two
  // cache lines, not three (most of a small-triangle scene's set-up time was that write).
  float clipBary[3][3];
  float windowBary[3][3];
};
// SetupTriangle::smallSpan's limit: 64 pixels, in 1/256 pixel (subPixelPrecisionBits = 8).
inline constexpr int64_t kSmallTriangleSpan = int64_t(64) << 8;
// Where the third cache line starts: the tile pass touches only what lies before it for an
// unclipped triangle.
inline constexpr size_t kSetupTriangleHotBytes = 128;
static_assert(offsetof(SetupTriangle, samples) + sizeof(uint32_t) <= kSetupTriangleHotBytes &&
              offsetof(SetupTriangle, clipBary) >= offsetof(SetupTriangle, samples));

// Clips, projects, culls and sets up one triangle; appends 0 or more SetupTriangles to `out`.
// Returns the number appended. Degenerate (zero-area) and culled triangles give none.
uint32_t setupTriangle(const ClipTriangle& tri, const RasterState& state, std::vector<SetupTriangle>& out);
// What setupTriangle derives from the RasterState alone; callers that set up many triangles
// of one draw compute it once (triangleSetupConstants) and pass it in.
struct TriangleSetupConstants {
  Rect clipRect;             // scissor ∩ the viewport's pixels
  float depthMin, depthMax;  // SetupTriangle::depthMin/depthMax
  uint32_t samples;          // SetupTriangle::samples
  bool customLocations;      // SetupTriangle::customLocations
};
TriangleSetupConstants triangleSetupConstants(const RasterState& state);
uint32_t setupTriangle(const ClipTriangle& tri, const RasterState& state, const TriangleSetupConstants& constants,
                       std::vector<SetupTriangle>& out);
// setupTriangle without its shortcut for triangles inside every clip half-space (the polygon
// path for every triangle): the tests require the same results from both.
uint32_t setupTriangleAsPolygon(const ClipTriangle& tri, const RasterState& state, std::vector<SetupTriangle>& out);

// A 2x2 pixel quad (the unit fragment shading works in: derivatives come from its pixels).
// Pixels are ordered (x, y), (x+1, y), (x, y+1), (x+1, y+1). Pixels that are not covered are
// still given their depth and weights (helper invocations need them for derivatives).
struct Quad {
  int32_t x, y;        // top-left pixel; always even
  uint32_t coverage;   // bit p: pixel p covered (some sample of it; inside the tile/scissor)
  // Bit s of sampleCoverage[p]: sample s of pixel p is covered. With one sample, bit 0 equals
  // the pixel's coverage bit.
  uint32_t sampleCoverage[4];
  float z[4];          // window depth at the pixel centre, bias added, clamped as the spec says
  // The depth at each of the `samples` sample locations (bias added, clamped), for the
  // per-sample depth test ("Depth Test": the sample's own z); entries from `samples` on are
  // not written. With one sample entry 0 equals z[].
  float sampleZ[4][kMaxSamples];
  float baryPersp[4][3];   // perspective-correct weights of the ORIGINAL triangle's vertices
  float baryLinear[4][3];  // window-space (NoPerspective) weights of the original vertices
  // The same weights at the Centroid location ("Interpolation Decorations": a location inside
  // both the pixel and the primitive): the pixel centre when every sample of the pixel is
  // covered or samples == 1 (then equal to baryPersp/baryLinear), else the lowest-numbered
  // covered sample's location. Uncovered (helper) pixels: the centre.
  float centroidPersp[4][3];
  float centroidLinear[4][3];
  // With samples > 1 and RasterState::sampleWeights: the same weights at each sample location,
  // for per-sample shading ("Sample Shading": each invocation's inputs are evaluated at its
  // sample). Not filled otherwise.
  float samplePersp[4][kMaxSamples][3];
  float sampleLinear[4][kMaxSamples][3];
  float invW[4];       // interpolated 1/w (FragCoord.w)
  float pointCoord[4][2];  // points only: PointCoord of each pixel ("Basic Point Rasterization")
  // RECTANGULAR_SMOOTH lines only ("Smooth Lines"): each pixel's coverage value, the area of the
  // pixel square the line's rectangle covers, which the fragment stage multiplies into colour
  // location 0's alpha after shading.
  float lineCoverage[4];
};

// Emits every quad of `tri` with at least one covered pixel inside `tile` (tile corners even),
// in a fixed order (rows of quads top to bottom, left to right), through `sink`.
using QuadSink = std::function<void(const Quad&)>;
// `custom`: the draw's VK_EXT_sample_locations locations when tri.customLocations (null: the
// standard ones).
void rasterizeTriangle(const SetupTriangle& tri, const Rect& tile, const QuadSink& sink,
                       const SampleLocations* custom = nullptr);

}  // namespace tessera::raster

namespace tessera::raster {

// ---- Points and lines ------------------------------------------------------------------------
// pointSizeRange and lineWidthRange as Tessera reports them (largePoints, wideLines; lavapipe's
// maxima), and their granularity: a size or width is used with its half snapped to the 1/256
// sub-pixel grid, so every multiple of 1/128 in the range is drawn exactly. strictLines is false:
// lines of VK_LINE_RASTERIZATION_MODE_DEFAULT are the non-strict parallelograms of "Basic Line
// Segment Rasterization"; VK_EXT_line_rasterization's RECTANGULAR and BRESENHAM modes draw the
// rectangles and the diamond-exit fragments of that section and of "Bresenham Line Segment
// Rasterization", with or without "Line Stipple".
inline constexpr float kPointSizeRange[2] = {1.0f, 255.0f};
inline constexpr float kLineWidthRange[2] = {1.0f, 255.0f};
inline constexpr float kPointLineGranularity = 1.0f / 128;

// A point ready to rasterize, after clipping, perspective division and the viewport transform.
// Tessera reports pointClippingBehavior ALL_CLIP_PLANES, so a point whose vertex lies outside
// any plane of the view volume (x, y, the z range unless depthClampEnable; or w <= 0) is
// discarded whole ("Primitive Clipping"); its pixels are further limited by viewport/scissor.
struct SetupPoint {
  float x, y;        // window coordinates of the vertex (the square's centre), unrounded
  float z;           // window depth, already clamped as the fragments' depth is (the same for all)
  float invW;
  float size;        // PointSize clamped to pointSizeRange
  // The weights of the original primitive's vertices at the point: {1, 0, 0} for a point
  // primitive; a vertex of a clipped polygon drawn in polygon mode POINT carries its clipping
  // weights (clip space for perspective inputs, framebuffer space for NoPerspective ones).
  float clipBary[3] = {1, 0, 0};
  float windowBary[3] = {1, 0, 0};
  bool frontFacing = true;  // points are front-facing; polygon mode POINT: the polygon's facing
  // With one sample exactly the pixels the square covers; with samples > 1 the smallest
  // rectangle holding every pixel with a sample in the square. ∩ scissor and viewport.
  Rect bounds;
  uint32_t samples = 1;  // RasterState::samples
  bool customLocations = false;  // RasterState::customSampleLocations (bounds as SetupTriangle's)
};
// False when the point is clipped away (view volume; the caller applies clip distances with
// pointInsideClipDistances) or its square covers no pixel of the scissor and viewport.
bool setupPoint(const float position[4], float pointSize, const RasterState& state, SetupPoint* out);
// Whether a point leaves the view-volume clipping whole ("Primitive Clipping": a finite
// position inside the clip volume), whether or not its square then covers a pixel: what
// VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT counts for a point.
bool pointLeavesClipping(const float position[4], const RasterState& state);
// "Primitive Clipping" with pointClippingBehavior ALL_CLIP_PLANES: a point outside any
// client-defined half-space (a negative ClipDistance) is discarded.
bool pointInsideClipDistances(const float* clipDistance, uint32_t count);
// "CullDistance": a primitive is discarded before rasterization when, for some i < count, every
// one of its `vertexCount` vertices has a negative CullDistance[i]. cullDistance[v] points at
// vertex v's values.
bool culledByCullDistances(const float* const* cullDistance, uint32_t vertexCount, uint32_t count);
// Quads with a sample (the pixel centre, or with 4 samples a standard location) in the square
// ("Basic Point Rasterization"); every weight is that of the single vertex (baryPersp,
// baryLinear, centroidPersp, centroidLinear = {1, 0, 0}), sampleZ = z; pointCoord per pixel,
// at the pixel centre.
void rasterizePoint(const SetupPoint& point, const Rect& tile, const QuadSink& sink,
                    const SampleLocations* custom = nullptr);  // as rasterizeTriangle's

// A line segment after clipping (against the view volume, as for triangles: new endpoints
// carry weights of the original two vertices), projection and viewport transform.
struct ClipLine {
  float position[2][4];
  uint32_t clipDistances = 0;  // as ClipTriangle's
  float clipDistance[2][kMaxUserClipPlanes];
};
struct SetupLine {
  float x[2], y[2];         // window coordinates of the (clipped) endpoints, snapped (exact)
  float z[2], invW[2];
  // Weights of the original primitive's vertices at each endpoint, clip space (perspective)
  // and window space (NoPerspective): a line's two endpoints ([e][2] = 0), or for an edge of a
  // polygon drawn in polygon mode LINE the triangle's three vertices.
  float clipBary[2][3];
  float windowBary[2][3];
  // Polygon mode LINE: the polygon's depth bias ("Depth Bias", added before the clamp) and
  // facing. Line primitives: 0 and front-facing.
  float depthBias = 0;
  bool frontFacing = true;
  // The range each fragment's interpolated depth is clamped to, as SetupTriangle's.
  float depthMin, depthMax;
  float width = 1;  // RasterState::lineWidth clamped to lineWidthRange (rules::clampLineWidth)
  // Every pixel with a sample location in the parallelogram's or rectangle's bounding box;
  // BRESENHAM: exactly the box of the fragments it produces.
  Rect bounds;
  uint32_t samples = 1;  // RasterState::samples
  bool customLocations = false;  // RasterState::customSampleLocations (bounds as SetupTriangle's)
  bool sampleWeights = false;  // RasterState::sampleWeights
  // RasterState::lineMode as rasterizeLine applies it: DEFAULT, RECTANGULAR, BRESENHAM or
  // RECTANGULAR_SMOOTH.
  VkLineRasterizationModeEXT mode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  // BRESENHAM: the width w in fragments (rules::bresenhamLineWidth) and the major-axis
  // coordinate of the first fragment of the segment it rasterizes (rules::bresenhamFragmentSpan),
  // where the stipple counter is stippleOrigin.
  int32_t bresenhamWidth = 1;
  int32_t bresenhamFirst = 0;
  // "Line Stipple" (RasterState::lineStippleEnable): fragments whose counter s selects a 0 bit
  // of the pattern are discarded. stippleOrigin is s at the segment's start p_a (DEFAULT,
  // RECTANGULAR, RECTANGULAR_SMOOTH: s at a location is floor(stippleOrigin + its distance along
  // the segment)), or s of its first fragment (BRESENHAM: s grows by one per fragment along the
  // major axis).
  bool stipple = false;
  uint16_t stipplePattern = 0xFFFF;
  uint32_t stippleFactor = 1;
  double stippleOrigin = 0;
};
// `stippleCounter`: "Line Stipple"'s s at the line's first vertex (line.position[0]), 0 for an
// independent segment or the first of a strip, else lineStippleAdvance of the strip's earlier
// segments summed (LineStippleCounter, raster/draw_internal.h). A segment whose start is
// clipped away starts with the counter of its unclipped start carried to the visible part
// (the spec leaves that value implementation-dependent).
uint32_t setupLine(const ClipLine& line, const RasterState& state, double stippleCounter, std::vector<SetupLine>& out);
inline uint32_t setupLine(const ClipLine& line, const RasterState& state, std::vector<SetupLine>& out) {
  return setupLine(line, state, 0.0, out);
}
// How far "Line Stipple"'s counter moves along the whole (unclipped) segment from position a to
// position b (clip space): DEFAULT and RECTANGULAR lines its length in pixels (the unit-length
// rectangles, fractions carried over to the next segment of a strip, the spec's preferred
// behaviour), BRESENHAM lines the number of fragments it produces. 0 when an endpoint cannot
// be projected (w <= 0: the spec leaves the counter of clipped segments
// implementation-dependent).
double lineStippleAdvance(const float a[4], const float b[4], const RasterState& state);
// Line rasterization by SetupLine::mode:
//  - DEFAULT: non-strict lines ("Basic Line Segment Rasterization": with strictLines false,
//    the parallelogram, its minor-axis edges `width` long, its edges on the polygon tie-break
//    rule; raster/lines.cpp says why not Bresenham's diamond-exit rule);
//  - RECTANGULAR: the rectangle of that section, `width` wide, centred on the segment, its ends
//    perpendicular to it, samples on its edges following the polygon tie-break rule;
//  - BRESENHAM ("Bresenham Line Segment Rasterization"): the diamond-exit rule's fragments of
//    the segment moved (w - 1) / 2 against the minor axis, each the first of a run of w along
//    the minor axis; every sample of those pixels covered;
//  - RECTANGULAR_SMOOTH ("Smooth Lines"): RECTANGULAR's rectangle; every pixel whose square it
//    overlaps (with stipple: whose square the kept unit-length rectangles overlap) is covered,
//    all its samples, with Quad::lineCoverage the area they cover.
// Weights: baryPersp/baryLinear (and centroidPersp/centroidLinear) hold the two original
// endpoints' weights in [0] and [1], [2] = 0; z (and sampleZ at each sample) interpolated
// along the segment (BRESENHAM: the run's first fragment's values for the whole run, at the
// pixel centre). With 4 samples the parallelogram or rectangle is tested at each sample location.
// With SetupLine::stipple, fragments (DEFAULT, RECTANGULAR: samples) the stipple discards are
// not covered.
void rasterizeLine(const SetupLine& line, const Rect& tile, const QuadSink& sink,
                   const SampleLocations* custom = nullptr);  // as rasterizeTriangle's

// ---- "Polygon Mode" (polygon_mode.cpp): applied after clipping and culling. LINE: each edge
// of the clipped polygon as a line segment (rasterizeLine's rule), in the polygon's vertex
// order, the last edge closing it; POINT: each vertex of the clipped polygon as a point of size
// 1.0 (the spec lets the size be PointSize or 1.0; 1.0 needs no PointSize at vertices that
// clipping made). Edges and vertices made by clipping are drawn like the others (Vulkan has no
// edge flags). Every fragment gets the polygon's facing and depth bias; weights refer to the
// original triangle's three vertices. Returns the number appended; culled or zero-area
// polygons give none.
uint32_t setupPolygonEdges(const ClipTriangle& tri, const RasterState& state, std::vector<SetupLine>& out);
uint32_t setupPolygonVertices(const ClipTriangle& tri, const RasterState& state, std::vector<SetupPoint>& out);

}  // namespace tessera::raster
