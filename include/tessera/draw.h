// One draw, start to finish (raster/draw*.cpp): vertex fetch, vertex shading, primitive
// assembly, setup and coverage (raster.h), fragment shading, the per-fragment operations and
// attachment writes. The Vulkan front (icd/) fills a DrawState from the bound pipeline, the
// dynamic state and the render pass instance, and runs the draw at execution time (drawReference, or a Scene on the binned path).
//
// Kernels are reached only through shader_abi.h function pointers; what the draw loop must know
// about them (interpolation of each fragment input, outputs written, discard...) comes as
// plain data in StageInterface.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "tessera/raster.h"
#include "tessera/shader_abi.h"
#include "tessera/transform_feedback.h"

namespace tessera {
class ThreadPool;
}

namespace tessera::raster {

constexpr uint32_t kMaxVertexBindings = 32;
constexpr uint32_t kMaxVertexAttributes = 32;

struct VertexBinding {
  const uint8_t* base = nullptr;  // buffer memory + bound offset
  uint64_t size = 0;              // bytes readable from base (reads beyond give zero)
  uint32_t stride = 0;
  VkVertexInputRate inputRate = VK_VERTEX_INPUT_RATE_VERTEX;
  // VK_EXT_vertex_attribute_divisor: an instance-rate binding advances every `divisor`
  // instances (0: never, every instance reads firstInstance's element).
  uint32_t divisor = 1;
};

struct VertexAttribute {
  uint32_t location = 0, binding = 0, offset = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
};

// One attachment's layer as the draw writes it (images are linear per subresource).
struct AttachmentView {
  uint8_t* base = nullptr;  // texel (0, 0) of the rendered layer; null: no attachment
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint64_t rowPitch = 0;
  uint32_t texelSize = 0;   // bytes per sample of this plane
  uint32_t samples = 1;     // samples per pixel, stored one after another (icd/image.cpp)
  // The view's other layers (clears reach them; draws render the first only).
  uint64_t layerPitch = 0;
  uint32_t layerCount = 1;
};

struct BlendAttachment {
  bool enable = false;
  VkBlendFactor srcColor = VK_BLEND_FACTOR_ONE, dstColor = VK_BLEND_FACTOR_ZERO;
  VkBlendOp colorOp = VK_BLEND_OP_ADD;
  VkBlendFactor srcAlpha = VK_BLEND_FACTOR_ONE, dstAlpha = VK_BLEND_FACTOR_ZERO;
  VkBlendOp alphaOp = VK_BLEND_OP_ADD;
  VkColorComponentFlags writeMask = 0xF;
};

struct StencilFace {
  VkStencilOp failOp = VK_STENCIL_OP_KEEP, passOp = VK_STENCIL_OP_KEEP, depthFailOp = VK_STENCIL_OP_KEEP;
  VkCompareOp compareOp = VK_COMPARE_OP_ALWAYS;
  uint32_t compareMask = 0xFF, writeMask = 0xFF, reference = 0;
};

// What the draw loop needs to know about the fragment stage (from spirv_jit's GraphicsFacts).
struct FragmentInterface {
  uint8_t inputComponents[abi::kMaxInterfaceLocations] = {};
  uint8_t inputInterpolation[abi::kMaxInterfaceLocations] = {};  // 0 smooth, 1 noperspective, 2 flat
  uint8_t colorOutputs = 0;  // bit i: the shader writes location i (attachment i changes)
  // The shader writes Location 0 Index 1, the second input of attachment 0's blender
  // ("Dual-Source Blending"; outputs location abi::kSecondColorLocation).
  bool writesSecondColor = false;
  uint32_t centroidInputs = 0;  // bit l: location l is interpolated at the centroid
  bool writesFragDepth = false;
  bool writesSampleMask = false;
  bool perSampleShading = false;  // SampleId, SamplePosition or Sample inputs: shade per sample
  bool canDiscard = false;
  bool hasSideEffects = false;
  bool earlyFragmentTests = false;
  bool postDepthCoverage = false;  // SampleMaskIn after the early tests (VK_EXT_post_depth_coverage)
  bool writesStencilRef = false;   // FragStencilRefEXT: the stencil reference per fragment
  bool readsInputAttachments = false;  // subpassLoad
  // SampleMask input: the draw loop fills FragmentBatch::sampleMaskIn only for such shaders.
  bool readsSampleMaskIn = false;
  // Bit c: the shader reads FragCoord component c (all, unless the compiler says otherwise).
  uint8_t fragCoordReads = 0xF;
  uint8_t directColorLocations = 0;  // bit l: the kernel can write location l itself (FragmentBatch::direct)
  uint32_t directBlend[abi::kMaxColorAttachments] = {};  // the blend state of those writes (abi::packBlend)
  uint8_t directSamples = 1;  // and the samples per pixel they address (1 or 4)
  // The ClipDistance and CullDistance input array sizes it reads (abi::kFragmentDistanceWords).
  uint8_t clipDistances = 0, cullDistances = 0;
};

// What the draw loop needs to know about the geometry stage (from spirv_jit's GraphicsFacts).
struct GeometryInterface {
  uint32_t inputVertices = 0;   // per input primitive: 1, 2, 4 (lines with adjacency), 3, 6
  uint32_t outputTopology = 0;  // 0 points, 1 line strips, 2 triangle strips
  uint32_t maxVertices = 0;     // OutputVertices
  uint32_t invocations = 1;     // Invocations
  uint32_t vertexWords = 0;     // words of an emitted vertex record (abi::GeometryBatch)
  bool writesLayer = false;     // Layer output: each primitive renders into its layer
  uint8_t clipDistances = 0, cullDistances = 0;  // ClipDistance, CullDistance sizes written (recorded)
  uint8_t inputComponents[abi::kMaxInterfaceLocations] = {};   // per-vertex inputs read
  uint8_t outputComponents[abi::kMaxInterfaceLocations] = {};  // outputs written (recorded)
};

// What the draw loop needs to know about the tessellation stages ("Tessellation"; from
// spirv_jit's GraphicsFacts of both stages and the pipeline's tessellation state).
struct TessellationInterface {
  uint32_t patchControlPoints = 0;  // VkPipelineTessellationStateCreateInfo::patchControlPoints
  uint32_t outputVertices = 0;      // OutputVertices: control shader invocations per patch
  uint32_t patchBytes = 0;          // the control kernel's Output variables (TessControlBatch::patchMemory)
  bool usesBarrier = false;
  uint64_t controlStackBytes = 0;
  uint8_t domain = 1;               // 1 triangles, 2 quads, 3 isolines
  uint8_t spacing = 1;              // 1 equal, 2 fractional even, 3 fractional odd
  bool clockwise = false, pointMode = false;
  bool lowerLeftOrigin = false;     // VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
  uint8_t controlInputComponents[abi::kMaxInterfaceLocations] = {};  // vertex outputs the control stage reads
  uint8_t evalOutputComponents[abi::kMaxInterfaceLocations] = {};    // what the evaluation stage writes
  uint8_t evalClipDistances = 0, evalCullDistances = 0;              // and its ClipDistance, CullDistance sizes
  // The evaluation stage writes Layer / ViewportIndex (abi::VertexBatch::layerViewport), which
  // select each primitive's layer and viewport when no geometry stage follows.
  bool evalWritesLayer = false, evalWritesViewportIndex = false;
  // Runs the control kernel for one patch (spirv_jit's runTessControlPatch: fibers at barriers).
  void (*runControl)(abi::TessControlBatchFn, uint32_t simdWidth, bool usesBarrier, uint64_t stackBytes,
                     abi::TessControlBatch*) = nullptr;
};

// The pipeline statistics ("Pipeline Statistics Queries"), by the bit position of their
// VkQueryPipelineStatisticFlagBits.
enum PipelineStatistic : uint32_t {
  kInputAssemblyVertices = 0,
  kInputAssemblyPrimitives = 1,
  kVertexShaderInvocations = 2,
  kGeometryShaderInvocations = 3,
  kGeometryShaderPrimitives = 4,
  kClippingInvocations = 5,
  kClippingPrimitives = 6,
  kFragmentShaderInvocations = 7,
  kTessellationControlShaderPatches = 8,
  kTessellationEvaluationShaderInvocations = 9,
  kComputeShaderInvocations = 10,
  kPipelineStatistics = 11
};

struct DrawState {
  uint32_t simdWidth = 8;
  // The fragment kernel's SIMD width when it differs from the other stages' (a fragment stage
  // created with VkPipelineShaderStageRequiredSubgroupSizeCreateInfo: its subgroup size); 0:
  // simdWidth. Fragment batches hold this many lanes.
  uint32_t fragmentSimdWidth = 0;
  uint32_t fragmentWidth() const { return fragmentSimdWidth ? fragmentSimdWidth : simdWidth; }
  abi::VertexBatchFn vertexShader = nullptr;
  // Null: no geometry stage. Otherwise it runs on each input primitive (topology's, with
  // adjacency) after vertex shading, and its output primitives are rasterized instead.
  abi::GeometryBatchFn geometryShader = nullptr;
  GeometryInterface geometry;
  // Null: no tessellation. Otherwise the draw's topology is a patch list: each patch's control
  // shader, the tessellator and the evaluation shader run after vertex shading (before the
  // geometry stage if there is one) and their primitives are rasterized instead.
  abi::TessControlBatchFn tessControlShader = nullptr;
  abi::VertexBatchFn tessEvalShader = nullptr;
  TessellationInterface tessellation;
  abi::FragmentBatchFn fragmentShader = nullptr;  // null: no fragment shader (depth only)
  FragmentInterface fragment;
  uint8_t vertexOutputComponents[abi::kMaxInterfaceLocations] = {};
  uint8_t vertexClipDistances = 0, vertexCullDistances = 0;  // ClipDistance, CullDistance sizes written
  // The vertex stage writes Layer / ViewportIndex (shaderOutputLayer, shaderOutputViewportIndex:
  // abi::VertexBatch::layerViewport): without tessellation or geometry stages they select each
  // primitive's layer and viewport, the provoking vertex's values.
  bool vertexWritesLayer = false, vertexWritesViewportIndex = false;
  // Bit l: the vertex kernel fetches the attribute at location l itself from
  // abi::VertexBatch::buffers (jit::GraphicsFacts::fetchedLocations); the draw does not.
  uint32_t vertexFetchedLocations = 0;
  const abi::BoundResources* resources = nullptr;  // graphics bind point

  VertexBinding bindings[kMaxVertexBindings];
  VertexAttribute attributes[kMaxVertexAttributes];
  uint32_t attributeCount = 0;

  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitiveRestart = false;
  // VK_EXT_provoking_vertex ("Primitive Topologies", "Flat Shading"): the provoking vertex of
  // each primitive is its last vertex (VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT) instead of its
  // first. Flat inputs, and a geometry stage's PrimitiveId, Layer and ViewportIndex, come from
  // it; transform feedback writes it last (transformFeedbackPreservesProvokingVertex).
  bool provokingVertexLast = false;
  bool rasterizerDiscard = false;
  // "Transform Feedback": what the last pre-rasterization stage captures (null: it declares no
  // Xfb), and where, while transform feedback is active (null: inactive). Primitives are
  // captured in order as they leave the last pre-rasterization stage, before rasterizer
  // discard and set-up (raster/transform_feedback.cpp); `feedback` is updated as they are.
  const FeedbackLayout* feedbackLayout = nullptr;
  FeedbackTargets* feedback = nullptr;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  RasterState raster;  // raster.samples: rasterizationSamples
  // "Controlling the Viewport" with several viewports (multiViewport): viewport and scissor i
  // (the scissor intersected with the render area, as raster.scissor) for the primitives whose
  // ViewportIndex is i; raster.viewport and raster.scissor are element 0.
  uint32_t viewportCount = 1;
  Viewport viewports[kMaxViewports] = {};
  Rect scissors[kMaxViewports] = {};

  // "Multisampling" / "Sample Mask Test" / "Multisample Coverage": the pipeline's sample mask
  // (word 0 of pSampleMask), alpha to coverage and alpha to one.
  uint32_t sampleMask = ~0u;
  bool alphaToCoverage = false, alphaToOne = false;
  bool sampleShading = false;  // sampleShadingEnable with minSampleShading x samples > 1
  // Active occlusion query: samples that pass the per-fragment tests are added here.
  uint64_t* occlusionSamples = nullptr;
  // Active pipeline statistics query ("Pipeline Statistics Queries"): the execution's running
  // counters, kPipelineStatistics of them indexed by the bit of their
  // VkQueryPipelineStatisticFlagBits, added to atomically (countStatistic); null: none counts.
  uint64_t* statistics = nullptr;
  // Active primitives generated queries (VK_EXT_primitives_generated_query, "Primitives
  // Generated Queries"): kMaxTransformFeedbackStreams running counters, one per vertex stream;
  // every primitive the last pre-rasterization stage emits to stream s is added to element s,
  // transform feedback or not, rasterizer discard or not; null: none counts. Added to on the
  // thread that records the draw into the paths (in order, before any binning).
  uint64_t* primitivesGenerated = nullptr;

  bool depthTest = false, depthWrite = false;
  VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
  bool depthBoundsTest = false;
  float minDepthBounds = 0, maxDepthBounds = 1;
  bool stencilTest = false;
  StencilFace stencilFront, stencilBack;

  uint32_t colorCount = 0;
  AttachmentView color[abi::kMaxColorAttachments];
  BlendAttachment blend[abi::kMaxColorAttachments];
  // "Logical Operations" (logicOp): with logicOpEnable, blending is off for every attachment and
  // the integer and normalized ones take logicOp of the fragment's value and theirs, bit by bit.
  bool logicOpEnable = false;
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;
  float blendConstants[4] = {};
  AttachmentView depth, stencil;
  Rect renderArea{};  // pixels that may be written (render area ∩ framebuffer)
};

struct DrawCall {
  uint32_t vertexCount = 0, instanceCount = 1, firstVertex = 0, firstInstance = 0;
  bool indexed = false;
  const uint8_t* indices = nullptr;  // index buffer memory + bound offset
  uint64_t indexBytes = 0;           // readable bytes from `indices` (beyond: index 0)
  VkIndexType indexType = VK_INDEX_TYPE_UINT32;
  uint32_t firstIndex = 0;           // indexed: vertexCount counts indices from here
  int32_t vertexOffset = 0;
  uint32_t drawIndex = 0;
};

// A render pass instance's multisample resolve of one attachment (colour, depth or stencil
// plane, by `aspect`) into a single-sample one over `area` and `layers` layers
// ("Multisample resolve operations"): AVERAGE, SAMPLE_ZERO, MIN or MAX (depth/stencil); colour
// AVERAGE for float and normalized formats, SAMPLE_ZERO for integer ones.
void resolveAttachment(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlags aspect,
                       VkResolveModeFlagBits mode, const Rect& area, uint32_t layers);

// The two ways to run a draw. Both give the same coverage, depth, stencil and (for exact
// formats) colour; the tests compare them on generated scenes.
//  - Reference: on the calling thread, one primitive after another (raster/draw_reference.cpp);
//    the simple, obviously ordered path, kept as the oracle.
//  - Binned: vertex shading and set-up in batches over a thread pool, primitives binned into
//    screen tiles, tiles drawn in parallel, each in primitive order (raster/draw_binned.cpp).
enum class RasterPath { Reference, Binned };

// The binned path's unit of work: the draws of one render pass instance, accumulated and run
// together (raster/draw_binned.cpp), so that a tile is drawn once for all of them while it is
// in cache and work hidden by a later opaque primitive is dropped. add() shades and sets up the
// draw at once (its state is copied; buffers and descriptors it points at must stay valid
// until flush()); flush() draws every tile and empties the scene. Draws with different
// attachments, or more than the scene holds, flush the earlier ones first. Results are those
// of running the draws one after another through drawReference.
// A clear of `rect` of a single-layer attachment to one encoded texel (every sample of each
// pixel), as a render pass's load operation asks ("Load Operations"): the caller encodes the
// clear value ("Clear Values").
struct ClearRegion {
  AttachmentView target;
  Rect rect{};
  uint8_t texel[16] = {};
  bool colour = false;  // a colour attachment (an opaque primitive covering a tile hides it)
};

// A render pass instance's multisample resolve of one single-layer attachment over `rect`
// (resolveAttachment's arguments), run by a scene tile by tile after the tile's primitives.
struct ResolveRegion {
  AttachmentView src, dst;
  VkImageAspectFlags aspect = 0;
  VkResolveModeFlagBits mode = VK_RESOLVE_MODE_NONE;
  Rect rect{};
};

class Scene {
 public:
  explicit Scene(ThreadPool& pool);
  ~Scene();
  Scene(const Scene&) = delete;
  Scene& operator=(const Scene&) = delete;
  // A clear that the following draws of the same render pass instance draw over: each tile
  // clears its part right before its primitives (the tile is then in cache), or not at all for
  // a colour clear under a primitive that overwrites the whole tile. In order with the draws.
  void addClear(const ClearRegion& clear, const Rect& renderArea);
  void add(const DrawState& state, const DrawCall& call);
  // A resolve at the end of the render pass instance whose draws the scene holds: each tile
  // resolves its part right after its primitives, while its samples are in cache, instead of a
  // pass over the whole multisampled attachment from memory afterwards. Nothing after it in
  // the scene may drop the work before it (a covering primitive of a later render pass).
  void addResolve(const ResolveRegion& resolve, const Rect& renderArea);
  // Whether the scene holds clears and no draw; takeClears() then hands them over in order
  // and empties the scene, for a caller with a faster way to fill whole rectangles.
  bool onlyClears() const;
  std::vector<ClearRegion> takeClears();
  void flush();
  bool empty() const;

 private:
  struct Window;
  struct Impl;
  void runTiles();
  void prepareRegionWindow(const Rect& renderArea);
  std::unique_ptr<Impl> impl_;
};

// TESSERA_RASTER=reference|binned (default binned), read once per process.
RasterPath defaultRasterPath();

// Runs one draw to completion on the reference path, or on the binned path as a scene of its
// own (rasterization order is submission order). The driver (icd/ExecContext::draw) uses
// drawReference or a Scene per queue, as defaultRasterPath() says.
void drawReference(const DrawState& state, const DrawCall& call);
void drawBinned(const DrawState& state, const DrawCall& call, ThreadPool& pool);

}  // namespace tessera::raster
