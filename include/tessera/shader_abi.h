// The contract between the Vulkan front (icd/) and compiled shader kernels (spirv_jit/):
// how descriptors are laid out in a descriptor set's memory, what a compute kernel is handed
// when it runs, and the kernel's signature. Kernels read these structures directly, by the
// offsets fixed here, so every field's position is part of the contract (static_asserts below).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera {
class DecodedView;  // decoded_texture.h
namespace abi {
struct YcbcrSamplingState;  // sampling.h
}
}

namespace tessera::abi {

// ---- Limits that size the structures below ------------------------------------------------
constexpr uint32_t kMaxBoundSets = 8;          // VkPhysicalDeviceLimits::maxBoundDescriptorSets
constexpr uint32_t kMaxDynamicBuffers = 32;    // 16 uniform + 16 storage dynamic buffers
constexpr uint32_t kMaxPushConstantBytes = 256;
constexpr uint32_t kMaxImageLevels = 16;

// ---- Descriptors ---------------------------------------------------------------------------
// Every descriptor occupies kDescriptorSize bytes of the set's memory, at
//   binding's offset (from the set layout) + arrayElement * kDescriptorSize,
// except inline uniform blocks, whose bytes are stored in place (descriptorCount bytes at the
// binding's offset, 16-byte aligned).
constexpr uint32_t kDescriptorSize = 32;

// UNIFORM_BUFFER, STORAGE_BUFFER and their _DYNAMIC forms. A null descriptor (or an unwritten
// one) has address == nullptr and range == 0, so every bounds-checked access falls outside.
struct BufferDescriptor {
  uint8_t* address;   // buffer memory + descriptor offset (a dynamic offset is NOT included)
  uint64_t range;     // bytes accessible from address (VK_WHOLE_SIZE already resolved)
  uint64_t reserved[2];
};

// UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER.
struct TexelBufferDescriptor {
  uint8_t* address;       // buffer memory + view offset
  uint32_t elementCount;  // texels in the view (range / texel size)
  uint32_t format;        // VkFormat of the view
  uint32_t texelSize;     // bytes per texel
  uint32_t reserved[3];
};

// One mip level of an image view, for the view's single aspect.
// Block-compressed views (ETC2/EAC, sampled only): width/height/depth count texels, while
// rowPitch is the bytes of one row of blocks, slicePitch of one z slice of block rows, and the
// view's texelSize is the block size; texel (i,j) lies in the block at
// base + (j / blockHeight) * rowPitch + (i / blockWidth) * texelSize. An uncompressed view of a
// compressed image (BLOCK_TEXEL_VIEW_COMPATIBLE) instead counts blocks: one texel per block.
struct ImageLevel {
  uint8_t* base;      // texel (0,0,0) of the view's first array layer at this level
  uint32_t width, height, depth;
  uint32_t reserved;
  uint64_t rowPitch;    // bytes between rows (of texel blocks)
  uint64_t slicePitch;  // bytes between z slices
  uint64_t layerPitch;  // bytes between array layers
};

// What image instructions need to know about a VkImageView. Owned by the image view object
// and referenced from descriptors; valid while the view exists.
struct ImageViewState {
  uint32_t format;      // VkFormat of the view
  uint32_t viewType;    // VkImageViewType
  uint32_t aspect;      // the single VkImageAspectFlagBits this view reads
  uint32_t levelCount;  // levels[] entries in use (view's levelCount)
  uint32_t layerCount;  // view's layerCount (6 per cube)
  uint32_t samples;     // VkSampleCountFlagBits value as a count (1, 2, 4, ...)
  uint32_t texelSize;   // bytes per texel (per sample) of the aspect
  uint32_t swizzle[4];  // VkComponentSwizzle for r, g, b, a, IDENTITY already resolved
  // What the sampler module's batched sampling routines make of this view
  // (tessera::classifyViewForRoutines, sampling_batch.h), computed when the state is filled;
  // 0: none, sampling runs the reference per lane.
  uint32_t fastSampling;
  ImageLevel levels[kMaxImageLevels];
  // A view of an image whose texels the sampler module keeps decoded (decoded_texture.h), what
  // the fixed-point routines sample instead of its blocks; null otherwise. Kernels never read it.
  // Copies that change the state's meaning (a cube's face views, redirected input attachments)
  // set it null.
  DecodedView* decoded;
  // A view created with a sampler Y'CbCr conversion (VkSamplerYcbcrConversionInfo): its planes
  // and the conversion, which sampling applies (sampler/ycbcr_sampling.cpp); null otherwise.
  // Kernels never read it (a view with a conversion samples through the reference only).
  const YcbcrSamplingState* ycbcr;
};

// SAMPLED_IMAGE, STORAGE_IMAGE, INPUT_ATTACHMENT, SAMPLER, COMBINED_IMAGE_SAMPLER.
struct SamplerState;  // defined by the sampler module (filtering issue); opaque here
struct ImageDescriptor {
  const ImageViewState* view;    // null for SAMPLER and for null descriptors
  const SamplerState* sampler;   // set for SAMPLER and COMBINED_IMAGE_SAMPLER
  uint64_t reserved[2];
};

static_assert(sizeof(BufferDescriptor) == kDescriptorSize);
static_assert(sizeof(TexelBufferDescriptor) == kDescriptorSize);
static_assert(sizeof(ImageDescriptor) == kDescriptorSize);
static_assert(offsetof(ImageViewState, levels) == 48);
static_assert(sizeof(ImageLevel) == 48);

// ---- Bound state ---------------------------------------------------------------------------
// What vkCmdBindDescriptorSets and vkCmdPushConstants leave for one bind point. Kernels find
// set s at sets[s]; a binding's descriptors at sets[s] + (layout offset of the binding).
// dynamicOffsets are indexed in pipeline-layout order: the dynamic descriptors of set 0 (in
// binding order, array elements consecutively), then those of set 1, and so on.
struct BoundResources {
  const uint8_t* sets[kMaxBoundSets];
  uint32_t dynamicOffsets[kMaxDynamicBuffers];
  alignas(16) uint8_t pushConstants[kMaxPushConstantBytes];
  // ViewIndex of the draw (multiview: a draw runs once per view of the subpass's view mask,
  // each with a copy of its resources naming the view; 0 otherwise). It lives here rather
  // than in the batches because the draw's resources pointer reaches the vertex and the
  // fragment kernels unchanged, whichever draw path fills their batches.
  uint32_t viewIndex;
  // Layer for the fragment stage: the layer a geometry stage sent the primitives of the draw
  // using these resources to (raster/draw_geometry.cpp makes a copy per layer; 0 otherwise).
  uint32_t layer;
  // The device's word that turns non-zero when its work must stop (a lost device: the
  // watchdog's deadline passed, or a failure): kernels leave every loop at its next back-edge
  // once it is set (short innermost loops excepted: spirv_jit/cancel_polls.h), and the draw and
  // dispatch loops stop taking work. Null: never.
  const volatile uint32_t* cancel;
};
// Whether the cancel word is set, read from C++ (the draw and dispatch loops): an atomic load,
// since another thread (Device::lose, a watchdog) sets it while the work runs (TSan reported the
// plain volatile read as a data race).
inline bool cancelRequested(const volatile uint32_t* cancel) {
  return cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED) != 0;
}
static_assert(offsetof(BoundResources, dynamicOffsets) == 8 * kMaxBoundSets);
static_assert(offsetof(BoundResources, pushConstants) == 8 * kMaxBoundSets + 4 * kMaxDynamicBuffers);

// ---- Compute kernels -----------------------------------------------------------------------
struct ComputeDispatchState {
  const BoundResources* resources;
  uint32_t workgroupCount[3];  // NumWorkgroups (vkCmdDispatch's counts)
  uint32_t baseWorkgroup[3];   // vkCmdDispatchBase's base
};

// One workgroup in flight. Invocations are numbered by LocalInvocationIndex and handed to the
// kernel W at a time: batch b runs invocations [b*W, b*W + W), lanes past the workgroup's
// size inactive.
struct WorkgroupState {
  const ComputeDispatchState* dispatch;
  uint32_t workgroupId[3];   // WorkgroupId, the base already added
  uint32_t reserved;
  uint8_t* sharedMemory;     // the workgroup's Workgroup-storage variables
  void* scheduler;           // runtime's barrier scheduler (see yieldAtBarrier)
};

// The machine code of a compute pipeline: runs one batch of one workgroup.
using ComputeBatchFn = void (*)(WorkgroupState* workgroup, uint32_t batchIndex);
// The same for a kernel whose workgroup barriers are coroutine suspend points: runs the batch to
// its first barrier (or its end) and returns its coroutine frame, whose first word is the
// function that resumes it (called with the frame) or null once the batch has finished. The
// frame's memory comes from tessera_rt_coroutine_frame(workgroup, bytes, batchIndex).
using ResumableComputeBatchFn = void* (*)(WorkgroupState* workgroup, uint32_t batchIndex);

// ---- Graphics kernels ----------------------------------------------------------------------
// Vertex and fragment kernels take W invocations per call, like compute batches. Interface
// values (vertex attributes, vertex outputs, fragment inputs and outputs) travel as 32-bit
// words in structure-of-arrays form: component c of location l of lane i is at
//   [(l * 4 + c) * W + i]
// so a kernel reads or writes one <W x i32> vector per component.
// rasterizationSamples Tessera supports: 1, 2, 4, 8 and 16 (every count with standard sample
// locations; 32 and 64 have none).
constexpr uint32_t kMaxSamples = 16;
// "Multisampling", Table "Standard sample locations": with n samples, sample s at
// (kStandardSampleLocations[log2 n][s][0], [s][1]) in pixel units from the pixel's top-left
// corner. Every coordinate is a multiple of 1/16, so exact on the rasterizer's 1/256 grid. The
// rasterizer samples coverage and depth there; FragmentBatch::samplePosition and the kernels'
// InterpolateAtSample read the same table.
inline constexpr float kStandardSampleLocations[5][kMaxSamples][2] = {
    {{0.5f, 0.5f}},
    {{0.75f, 0.75f}, {0.25f, 0.25f}},
    {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}},
    {{0.5625f, 0.3125f}, {0.4375f, 0.6875f}, {0.8125f, 0.5625f}, {0.3125f, 0.1875f},
     {0.1875f, 0.8125f}, {0.0625f, 0.4375f}, {0.6875f, 0.9375f}, {0.9375f, 0.0625f}},
    {{0.5625f, 0.5625f}, {0.4375f, 0.3125f}, {0.3125f, 0.625f}, {0.75f, 0.4375f},
     {0.1875f, 0.375f}, {0.625f, 0.8125f}, {0.8125f, 0.6875f}, {0.6875f, 0.1875f},
     {0.375f, 0.875f}, {0.5f, 0.0625f}, {0.25f, 0.125f}, {0.125f, 0.75f},
     {0.0f, 0.5f}, {0.9375f, 0.25f}, {0.875f, 0.9375f}, {0.0625f, 0.0f}}};
// Whether `samples` is a count Tessera supports (a power of two from 1 to kMaxSamples).
constexpr bool isSupportedSampleCount(uint32_t samples) {
  return samples != 0 && samples <= kMaxSamples && (samples & (samples - 1)) == 0;
}
// Sample s's standard location (x, y) for `samples` samples per pixel (a supported count, s <
// samples); the pixel centre for anything else.
constexpr const float* standardSampleLocation(uint32_t samples, uint32_t s) {
  if (!isSupportedSampleCount(samples) || s >= samples) return kStandardSampleLocations[0][0];
  return kStandardSampleLocations[__builtin_ctz(samples)][s];
}

constexpr uint32_t kMaxSimdWidth = 16;
constexpr uint32_t kMaxInterfaceLocations = 32;  // maxVertexOutputComponents (128) / 4
constexpr uint32_t kMaxColorAttachments = 8;
// "Dual-Source Blending": a fragment output decorated Location 0 Index 1 (the blender's second
// input for attachment 0, maxFragmentDualSrcAttachments = 1) travels in this output location,
// which no other fragment output can have (maxFragmentOutputAttachments = kMaxColorAttachments).
constexpr uint32_t kSecondColorLocation = kMaxColorAttachments;
static_assert(kSecondColorLocation < kMaxInterfaceLocations);
constexpr uint32_t kMaxClipDistances = 8;
constexpr uint32_t kFragmentDistanceWords = kMaxInterfaceLocations * 4;
constexpr uint32_t kFragmentInputWords = kFragmentDistanceWords + 2 * kMaxClipDistances;  // per lane

// One vertex buffer binding as the vertex kernel reads it when it fetches attributes itself
// (GraphicsFacts::fetchedLocations): the bound memory from its offset, the bytes readable there
// and the binding's stride, read at run time (so dynamic strides need no other kernel).
struct VertexBuffer {
  const uint8_t* base;   // null: nothing bound (every fetch reads (0, 0, 0, 1))
  uint64_t size;         // a fetch whose bytes do not all lie below this reads (0, 0, 0, 1)
  uint32_t stride;
  uint32_t reserved;
};
constexpr uint32_t kMaxVertexBuffers = 32;  // maxVertexInputBindings

// W vertices: lane i shades vertex vertexIndex[i]; lanes >= count are inactive.
struct VertexBatch {
  const BoundResources* resources;
  uint32_t count;           // active lanes, from lane 0
  uint32_t instanceIndex;   // InstanceIndex (firstInstance included)
  uint32_t baseVertex;      // BaseVertex (vertexOffset of indexed draws, else firstVertex)
  uint32_t baseInstance;    // BaseInstance
  uint32_t drawIndex;       // DrawIndex
  uint32_t reserved;
  uint32_t vertexIndex[kMaxSimdWidth];  // VertexIndex per lane
  const uint32_t* inputs;   // attributes by location (decoded by the caller), SoA as above
  float* position;          // out: Position, [c * W + i]
  float* pointSize;         // out: PointSize, [i] (1.0 when the shader does not write it)
  float* clipDistance;      // out: ClipDistance[d], [d * W + i]
  float* cullDistance;      // out: CullDistance[d], [d * W + i]
  uint32_t* outputs;        // out: user outputs by location, SoA as above
  const VertexBuffer* buffers;  // by binding number: what the kernel fetches itself reads
  // Tessellation evaluation kernels take this batch too ("Tessellation Evaluation Shaders"):
  // lane i evaluates TessCoord (tessCoord[c * W + i], c = u, v, w) of the patch `patch`
  // (its control points and per-patch values, which are the same for every lane),
  // PrimitiveId primitiveId and PatchVertices patchVertices. Unused by vertex kernels.
  const float* tessCoord;
  const struct TessPatch* patch;
  uint32_t primitiveId;
  uint32_t patchVertices;
  // out: Layer [i] and ViewportIndex [W + i], written only by a kernel whose GraphicsFacts say
  // writesLayer / writesViewportIndex ("Layer", "ViewportIndex": shaderOutputLayer,
  // shaderOutputViewportIndex); the draw uses them when this stage is the last before
  // rasterization.
  uint32_t* layerViewport;
};
using VertexBatchFn = void (*)(VertexBatch* batch);

// ---- Tessellation --------------------------------------------------------------------------
// One patch's values as they travel between the stages: the tessellation control stage's
// inputs (the vertex stage's outputs for the patch's control points: position, point size and
// words by location per vertex) and, in another TessPatch, its outputs, which the tessellator
// (the levels) and the tessellation evaluation stage (everything) read. Words by location are
// [l * 4 + c]; per vertex v of at most kMaxPatchVertices (maxTessellationPatchSize).
constexpr uint32_t kMaxPatchVertices = 32;
struct TessPatch {
  float tessLevelOuter[4];
  float tessLevelInner[2];
  uint32_t reserved[2];
  uint32_t patch[kMaxInterfaceLocations * 4];  // outputs decorated Patch
  float position[kMaxPatchVertices][4];
  float pointSize[kMaxPatchVertices];
  uint32_t vertex[kMaxPatchVertices][kMaxInterfaceLocations * 4];
  // ClipDistance[d] at [v][d], CullDistance[d] at [v][kMaxClipDistances + d].
  float distances[kMaxPatchVertices][2 * kMaxClipDistances];
};

// The invocations of one patch's tessellation control shader ("Tessellation Control Shaders"),
// W per batch: batch b runs InvocationId b*W + i in lane i, lanes past outputVertices inactive.
// The shader's Output variables live in patchMemory (the compiler's layout, shared by the
// patch's batches, so that one invocation reads what another wrote before a barrier); when a
// batch ends it copies its invocations' per-vertex outputs, and every patch output, into `out`.
// A barrier with more than one batch yields to the other batches (fibers), as in compute
// workgroups: patchMemory and scheduler sit where abi::WorkgroupState keeps its shared memory
// and scheduler, so the kernels share that code (static_asserts below).
struct TessControlBatch {
  const BoundResources* resources;
  uint32_t outputVertices;  // invocations of the patch (OutputVertices)
  uint32_t primitiveId;     // PrimitiveId: the patch's index in the draw
  uint32_t patchVertices;   // PatchVertices: control points in the input patch
  uint32_t reserved;
  uint8_t* patchMemory;
  void* scheduler;
  const TessPatch* in;
  TessPatch* out;
};
using TessControlBatchFn = void (*)(TessControlBatch* batch, uint32_t batchIndex);
static_assert(offsetof(TessControlBatch, patchMemory) == offsetof(WorkgroupState, sharedMemory));
static_assert(offsetof(TessControlBatch, scheduler) == offsetof(WorkgroupState, scheduler));

// W geometry shader invocations ("Geometry Shading"): lane i runs invocation invocationId[i]
// of input primitive primitiveIdIn[i]; lanes >= count are inactive. The input primitive's
// vertices (1 to 6, as the input execution mode says) arrive per vertex v:
//   inPosition[(v * 4 + c) * W + i], inPointSize[v * W + i],
//   inputs[((v * kMaxInterfaceLocations + l) * 4 + c) * W + i],
//   ClipDistance[d] at inDistances[(v * 2 * kMaxClipDistances + d) * W + i], CullDistance[d]
//   at inDistances[(v * 2 * kMaxClipDistances + kMaxClipDistances + d) * W + i].
// OpEmitVertex appends one record of GraphicsFacts' vertexWords words per emitting lane, word w
// of the lane's k-th vertex at vertices[(k * vertexWords + w) * W + i], and counts it in
// emitted[i] (records past the OutputVertices count are dropped). A record is the header below,
// then 4 words per output location the shader writes, in increasing location order, then its
// ClipDistance and CullDistance elements (GraphicsFacts::clipDistances, cullDistances).
// Vertex streams (GeometryStreams, OpEmitStreamVertex / OpEndStreamPrimitive): every record
// says its stream in kGeometryFlags; the emitted count and OutputVertices cover all streams
// together, and each stream has its own strip ("Geometry Shading": the stream's primitives are
// built from its vertices only).
// stripOpen is the kernel's own state, bit s for stream s: set by emitting to s, cleared by
// ending s's primitive (the caller zeroes it and emitted).
constexpr uint32_t kMaxGeometryInputVertices = 6;
constexpr uint32_t kMaxVertexStreams = 4;  // maxTransformFeedbackStreams
constexpr uint32_t kGeometryStripStart = 1u;  // kGeometryFlags bit: the vertex starts a strip of its stream
constexpr uint32_t kGeometryStreamShift = 1;  // kGeometryFlags bits 1..2: the vertex's stream
constexpr uint32_t kGeometryStreamMask = 3u;
inline uint32_t geometryStream(uint32_t flags) { return flags >> kGeometryStreamShift & kGeometryStreamMask; }
enum GeometryRecordWord : uint32_t {
  kGeometryFlags = 0,         // bit 0: the vertex starts a new strip of its stream (first, or after
                              // OpEnd(Stream)Primitive); bits 1..2: its stream
  kGeometryPosition = 1,      // 4 words
  kGeometryPointSize = 5,     // 1.0 unless written
  kGeometryPrimitiveId = 6,   // PrimitiveId written, else the input's PrimitiveId
  kGeometryLayer = 7,         // 0 unless written
  kGeometryViewportIndex = 8, // 0 unless written
  kGeometryRecordHeader = 9,
};
struct GeometryBatch {
  const BoundResources* resources;
  uint32_t count;
  uint32_t reserved;
  uint32_t primitiveIdIn[kMaxSimdWidth];
  uint32_t invocationId[kMaxSimdWidth];
  const float* inPosition;
  const float* inPointSize;
  const uint32_t* inputs;
  const float* inDistances;
  uint32_t* vertices;                 // out: the emitted records
  uint32_t emitted[kMaxSimdWidth];    // in/out: zero on entry
  uint32_t stripOpen[kMaxSimdWidth];  // kernel state, bit s: stream s's strip is open; zero on entry
};
using GeometryBatchFn = void (*)(GeometryBatch* batch);

// ---- Inline sampling -----------------------------------------------------------------------
// A fragment kernel samples the common case itself (spirv_jit/inline_sample.cpp): an
// implicit-LOD 2D sample of an R8G8B8A8 / B8G8R8A8 UNORM view whose levels have power-of-two
// sides, NEAREST or LINEAR (the same for magnification and minification), REPEAT or
// CLAMP_TO_EDGE, the same level (mipmapMode NEAREST) or pair of levels (LINEAR) for the whole
// batch. What it needs of the view and the sampler is kept here by the runtime
// (tessera_rt_inline_sample_refresh, filled by the sampler module's refreshInlineSampleState),
// one entry per sampling instruction, per thread: the kernel compares the descriptors'
// view and sampler with the entry's, and the batch's level(s) with the entry's (mipmapMode
// NEAREST: every lane's ρ_max² within the level's range; LINEAR: each quad's λ computed as
// the routine computes it), and takes the runtime call for anything else. The results are the
// batched routine's bit for bit (sampling_batch.h).
// An implicit-LOD cube sample (samplerCube, vec3) has such an entry too (usable ==
// kInlineUsableCube): the kernel selects each lane's face and face derivatives as the cube
// batches do (sampler/cube_batch.cpp), then samples the face (layer f of the levels) with
// CLAMP_TO_EDGE as above, per lane; a batch with a LINEAR footprint reaching a face edge, or a
// direction that is not finite and non-zero, takes the call.
// A kernel's first kInlineSampleSlots inlined sampling instructions have an entry each; later
// ones always call (two instructions sharing an entry would refresh it in turn, batch after
// batch, and a refresh under another sampler's LOD parameters bisects its ranges again).
constexpr uint32_t kInlineSampleSlots = 8;
constexpr uint32_t kInlineUsable2D = 1;        // InlineSampleState::usable: a 2D view's entry
constexpr uint32_t kInlineUsableCube = 2;      // a cube view's entry (a 2D instruction never takes it, nor a cube one a 2D entry)
constexpr uint32_t kInlineLinear = 1;          // InlineSampleState::flags: LINEAR filtering (else NEAREST)
constexpr uint32_t kInlineClampU = 2;          // CLAMP_TO_EDGE on u (else REPEAT)
constexpr uint32_t kInlineClampV = 4;          // CLAMP_TO_EDGE on v (else REPEAT)
constexpr uint32_t kInlineBgra = 8;            // B8G8R8A8: bytes 0 and 2 trade places
constexpr uint32_t kInlineMipLinear = 16;      // mipmapMode LINEAR between levels[0] and levels[1]
// An anisotropic sampler: the kernel samples a batch itself only where every active quad's
// footprint is isotropic, ρ_max² <= kIsotropicSquaredRatio ρ_min² (η = 1: one sample, the
// isotropic λ), and calls for the others.
constexpr uint32_t kInlineIsotropicOnly = 32;
// "Texel Anisotropic Filtering" as Tessera does it (sampler/sampler_lod.cpp anisotropicFootprint):
// a footprint whose axes differ by at most 1 + 2^-8 is sampled isotropically; the test is
// ρ_max² <= (1 + 2^-8)² ρ_min² on the squared sums, in double. Here because the kernel's inline
// sampling decides it too.
constexpr double kIsotropicSquaredRatio = 1.0 + 0x1p-7 + 0x1p-16;  // (1 + 2^-8)², exact
struct InlineSampleLevel {
  const uint8_t* base;         // the level's texel (0, 0)
  int32_t rowPitch;            // bytes; rowPitch x height < 2^31
  int32_t widthMask, heightMask;  // the level's size - 1 (powers of two: REPEAT keeps the low bits)
  float width, height;         // the level's size
  int32_t layerPitch;          // cube entries: face f's texel (0, 0) at base + f layerPitch (5 layerPitch + rowPitch x height < 2^31); 0 otherwise
};
struct InlineSampleState {
  const ImageViewState* view;  // the key: null for an empty entry
  const SamplerState* sampler;
  uint32_t usable;             // kInlineUsable2D / kInlineUsableCube: the kernel samples this pair itself (at `level`); 0: it calls
  uint32_t flags;              // kInline*
  // The batch's level d (levels[0]) and, for mipmapMode LINEAR, min(d + 1, q) (levels[1]).
  InlineSampleLevel levels[2];
  uint32_t level;              // d
  float baseWidth, baseHeight; // level 0's size (ρ)
  float rho2Lo, rho2Hi;        // mipmapMode NEAREST: d is every lane's whose ρ_max², in float, is in [lo, hi);
                               // LINEAR: level 0 alone (d_hi = 0, δ snapped to 0) for ρ_max² < hi (0 unless d = 0)
  // mipmapMode LINEAR: the sampler's terms of "LOD Operation" as selectLaneLevels holds them:
  // clamp(bias, ±16), max(minLod, 0), maxLod, q = levels - 1.
  double lodBias, lodMin, lodMax, lodQ;
  // Ranges of ρ_max² per level, kept while the sampler's bias, clamps and the view's level
  // count stay the same (rangeContext): computing one is a bisection.
  uint32_t rangeContext[4];
  uint32_t knownRanges;        // bit k: rangeLo[k], rangeHi[k] computed; bit 31: levelZeroAlone
  float levelZeroAlone;        // mipmapMode LINEAR's bound on ρ_max² for level 0 alone, once computed
  float rangeLo[kMaxImageLevels], rangeHi[kMaxImageLevels];
};

// W fragments of one primitive as W/4 quads: lanes 4q..4q+3 are the pixels (x, y), (x+1, y),
// (x, y+1), (x+1, y+1) of quad q, so that derivatives come from the quad. Lanes whose
// coverage bit is clear run as helper invocations (their writes are dropped).
struct FragmentBatch {
  const BoundResources* resources;
  uint32_t coverage;        // bit i: lane i covered (not a helper)
  uint32_t frontFacing;     // FrontFacing (the whole batch is one primitive)
  uint32_t primitiveId;     // PrimitiveId
  uint32_t alive;           // out: covered lanes neither discarded nor demoted
  // FragCoord x, y (pixel centres; with per-sample shading the shaded sample's location), z, 1/w
  float fragCoord[4][kMaxSimdWidth];
  float pointCoord[2][kMaxSimdWidth]; // PointCoord s, t per lane (points; 0.5 otherwise)
  // Inputs by location, interpolated by the caller, SoA as above; then, from word
  // kFragmentDistanceWords * W, ClipDistance[d] at [(kFragmentDistanceWords + d) * W + i] and
  // CullDistance[d] at [(kFragmentDistanceWords + kMaxClipDistances + d) * W + i].
  const uint32_t* inputs;
  uint32_t* outputs;        // out: outputs by location (colour attachments), SoA as above
  float fragDepth[kMaxSimdWidth];      // out: FragDepth, when the shader writes it
  int32_t fragStencilRef[kMaxSimdWidth];  // out: FragStencilRefEXT, when the shader writes it
  uint32_t sampleMask[kMaxSimdWidth];  // out: SampleMask[0], when the shader writes it
  uint32_t sampleMaskIn[kMaxSimdWidth];  // SampleMaskIn[0]: the fragment's covered samples
  // Multisampling ("Sample Shading"): the batch's rasterizationSamples (1, 2, 4, 8 or 16; the
  // standard sample locations of kStandardSampleLocations), the sample this batch shades with per-sample
  // shading (SampleId; 0 otherwise) and its position in the pixel (SamplePosition; (0.5, 0.5)
  // when shading per pixel).
  uint32_t sampleCount;
  uint32_t sampleId;
  float samplePosition[2];
  // Per lane, the Centroid location ("Interpolation Decorations") as an offset from the pixel's
  // top-left corner (x, y in [0, 1]): (0.5, 0.5) unless the pixel is partly covered.
  float centroid[2][kMaxSimdWidth];
  // Colour attachments the kernel writes itself (the binned path's block walker; null rows
  // otherwise): for location l with row non-null, the kernel encodes its four float outputs as
  // 8-bit UNORM (clamp, times 255, round to nearest even, as the texel codec does), keeps the
  // bits of `keep` from the attachment (the write mask), and stores the alive lanes' texels
  // instead of writing outputs[l]. The batch's lanes are then a block of the attachment in
  // FragmentBatch order from the pixel at `row`: W = 16 a 4x4 block, W = 8 its half (4x2),
  // W = 4 one quad; `pitch` bytes from one pixel row to the next.
  // A kernel compiled for 4 samples per pixel (ShaderInterface::colorSamples) addresses pixel x
  // of a row as its 4 consecutive samples, and writes lane l's colour to the samples of
  // directSamples[l] (the samples left after the early tests), blending each with its own.
  struct DirectColor {
    uint8_t* row;
    int64_t pitch;
    uint32_t shift[4];  // bit position of R, G, B, A in the 32-bit texel
    uint32_t keep;      // texel bits kept from the attachment (components the write mask leaves out)
    uint32_t reserved;
    float constants[4];  // blend constants clamped to [0, 1], for a kernel compiled with blending
  };
  DirectColor direct[kMaxColorAttachments];
  const uint32_t* directSamples;  // per lane, for kernels compiled for 4 samples
  uint32_t viewportIndex;         // ViewportIndex: the viewport the primitive was sent to
  // kInlineSampleSlots entries owned by the thread's fragment stage, whose keys it clears at
  // every draw (a view may be destroyed and another made at its address between draws);
  // null: the kernel always calls the runtime.
  InlineSampleState* inlineSampling;
  // VK_EXT_sample_locations: the draw's own sample locations, (x, y) of sample s at
  // [2 s], [2 s + 1] (pixel units from the top-left corner), for InterpolateAtSample; null:
  // the standard ones (kStandardSampleLocations).
  const float* sampleLocations;
};
using FragmentBatchFn = void (*)(FragmentBatch* batch);

// A colour attachment's blend state as one word, for kernels compiled with it ("Blending"):
// bit 0 enable, then VkBlendFactor src colour, dst colour (5 bits each), VkBlendOp colour
// (3 bits), src alpha, dst alpha, alpha op. 0: no blending. Only the factors below the
// dual-source ones (< 15) and the five basic ops (< 5) have a packed form.
constexpr uint32_t packBlend(uint32_t srcColor, uint32_t dstColor, uint32_t colorOp, uint32_t srcAlpha, uint32_t dstAlpha,
                             uint32_t alphaOp) {
  if (srcColor >= 15 || dstColor >= 15 || srcAlpha >= 15 || dstAlpha >= 15 || colorOp >= 5 || alphaOp >= 5) return 0;
  return 1u | srcColor << 1 | dstColor << 6 | colorOp << 11 | srcAlpha << 14 | dstAlpha << 19 | alphaOp << 24;
}
struct UnpackedBlend {
  uint32_t srcColor, dstColor, colorOp, srcAlpha, dstAlpha, alphaOp;
};
constexpr UnpackedBlend unpackBlend(uint32_t b) {
  return {b >> 1 & 31, b >> 6 & 31, b >> 11 & 7, b >> 14 & 31, b >> 19 & 31, b >> 24 & 7};
}

}  // namespace tessera::abi
