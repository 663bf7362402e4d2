// The SPIR-V JIT's interface to the Vulkan front: compile a compute shader into an
// abi::ComputeBatchFn, a vertex or fragment shader into an abi::VertexBatchFn or
// abi::FragmentBatchFn. Everything that changes the generated code is in the request and
// therefore in the cache key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/shader_abi.h"
#include "tessera/transform_feedback.h"

namespace tessera::jit {

// Where a descriptor binding lives, from the pipeline layout.
struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t type = 0;          // VkDescriptorType
  uint32_t count = 0;         // array size (bytes for inline uniform blocks)
  uint32_t offset = 0;        // byte offset of the binding in the set's memory
  int32_t dynamicIndex = -1;  // index of its first dynamic offset in abi::BoundResources, or -1
};

struct ShaderInterface {
  uint32_t simdWidth = 8;
  std::vector<DescriptorBinding> bindings;
  // Fragment stages: each colour location's blend state (abi::packBlend; 0 none), so that the
  // kernel's own attachment writes blend as the pipeline does (GraphicsFacts::directBlend).
  uint32_t colorBlend[abi::kMaxColorAttachments] = {};
  // Fragment stages: the pipeline's rasterizationSamples; the kernel's own attachment writes
  // are compiled for 1 or 4 samples per pixel (GraphicsFacts::directSamples).
  uint32_t colorSamples = 1;
  // Vertex stages: the pipeline's vertex input state ("Vertex Input Description"). The kernel
  // fetches and decodes the attributes whose formats it can decode itself (their locations in
  // GraphicsFacts::fetchedLocations) from abi::VertexBatch::buffers; the others arrive decoded
  // in VertexBatch::inputs. Addresses, sizes and strides are read at run time.
  struct VertexAttributeInput {
    uint32_t location = 0, binding = 0, offset = 0;
    uint32_t format = 0;  // VkFormat
  };
  struct VertexBindingInput {
    bool perInstance = false;  // VK_VERTEX_INPUT_RATE_INSTANCE
    uint32_t divisor = 1;      // VK_EXT_vertex_attribute_divisor (0: always firstInstance's element)
  };
  std::vector<VertexAttributeInput> vertexAttributes;
  std::vector<VertexBindingInput> vertexBindings;  // by binding number
  // VK_PIPELINE_CREATE_VIEW_INDEX_FROM_DEVICE_INDEX_BIT on the pipeline (or, with graphics
  // pipeline libraries, the library) the stage belongs to: ViewIndex reads "as if ... decorated
  // as DeviceIndex", which is 0 (Tessera's device groups have one device).
  bool viewIndexFromDeviceIndex = false;

  const DescriptorBinding* find(uint32_t set, uint32_t binding) const {
    for (const DescriptorBinding& b : bindings)
      if (b.set == set && b.binding == binding) return &b;
    return nullptr;
  }
};

// One VkSpecializationMapEntry.
struct SpecializationEntry {
  uint32_t constantId;
  uint32_t offset;
  size_t size;
};

// A VkPipelineCache as the JIT sees it: serialized compiled code by 16-byte key. Implemented by
// the Vulkan front; must be safe to call from several threads.
class ExternalCache {
 public:
  virtual ~ExternalCache() = default;
  virtual bool find(const uint8_t key[16], std::vector<uint8_t>* blob) = 0;
  virtual void insert(const uint8_t key[16], const std::vector<uint8_t>& blob) = 0;
};

// Whether `blob` is an entry this installation (or, without a cache directory, this process)
// made for `key`: its digest matches (docs/SECURITY.md) and it is well formed. The lookups
// check this again; a VkPipelineCache keeps only such entries, so merges and its data carry
// nothing else.
bool isAuthenticCacheEntry(const uint8_t key[16], const uint8_t* blob, size_t size);

struct ComputeCompileRequest {
  std::span<const uint32_t> spirv;
  std::string_view entryPoint = "main";
  std::span<const SpecializationEntry> specialization;
  const void* specializationData = nullptr;
  size_t specializationDataSize = 0;
  ShaderInterface interface;
  bool optimize = true;        // SPIRV-Tools passes before translation
  bool useCache = true;        // false: compile from scratch, store nothing (benchmarks, tests)
  ExternalCache* external = nullptr;  // the application's VkPipelineCache, if any
  bool cacheOnly = false;      // fail with CompileRequired rather than compile
};

// A compiled compute kernel. Its machine code lives as long as this object.
struct ComputeProgram {
  abi::ComputeBatchFn entry = nullptr;            // set unless `resumable`
  abi::ResumableComputeBatchFn resumableEntry = nullptr;  // set when `resumable`
  uint32_t localSize[3] = {1, 1, 1};
  uint32_t simdWidth = 8;
  uint32_t sharedMemoryBytes = 0;
  bool usesBarrier = false;
  // The kernel is a coroutine (resumableEntry): its barriers suspend it.
  bool resumable = false;
  bool zeroInitSharedMemory = false;
  // Stack the kernel's per-invocation memory (Function and Private variables, W copies each)
  // takes in one batch's frames; the runtime gives batches stacks at least this much larger
  // than its usual frame allowance.
  uint64_t stackBytes = 0;
  uint32_t invocationsPerWorkgroup() const { return localSize[0] * localSize[1] * localSize[2]; }
  uint32_t batchesPerWorkgroup() const { return (invocationsPerWorkgroup() + simdWidth - 1) / simdWidth; }

  virtual ~ComputeProgram() = default;
};

enum class CompileStatus { Success, InvalidSpirv, Unsupported, InternalError, CompileRequired };

struct CompileResult {
  CompileStatus status = CompileStatus::InternalError;
  std::string message;  // why it failed (names the problem), empty on success
  std::shared_ptr<const ComputeProgram> program;
  bool cacheHit = false;  // found in the application's pipeline cache
};

CompileResult compileCompute(const ComputeCompileRequest& request);

// ---- Vertex and fragment kernels -----------------------------------------------------------
enum class GraphicsStage : uint32_t { Vertex, Fragment, Geometry, TessControl, TessEval };
// Geometry shader limits (VkPhysicalDeviceLimits::maxGeometryOutputVertices and
// maxGeometryShaderInvocations, which the Vulkan front reports): a module beyond them is refused.
constexpr uint32_t kMaxGeometryOutputVertices = 1024;
constexpr uint32_t kMaxGeometryInvocations = 32;
enum class Interpolation : uint8_t { Smooth, NoPerspective, Flat };

// What the draw loop must know about a compiled stage's interface and behaviour.
struct GraphicsFacts {
  // Fragment inputs by location: read (component bits) and how each is interpolated.
  uint8_t inputComponents[abi::kMaxInterfaceLocations] = {};
  Interpolation inputInterpolation[abi::kMaxInterfaceLocations] = {};
  uint32_t centroidInputs = 0;  // bit l: location l is decorated Centroid (and not flat)
  // Outputs by location (vertex: varyings; fragment: colour attachments), component bits.
  uint8_t outputComponents[abi::kMaxInterfaceLocations] = {};
  bool writesPointSize = false;
  // ClipDistance and CullDistance array sizes: written (pre-rasterization stages) or read
  // (fragment stage).
  uint32_t clipDistances = 0, cullDistances = 0;
  bool writesFragDepth = false;
  bool writesSampleMask = false;
  // "Sample Shading": the interface has a SampleId or SamplePosition input or an input decorated
  // Sample, so the fragment shader runs once per covered sample (minSampleShading 1.0).
  bool perSampleShading = false;
  bool canDiscard = false;        // OpKill / OpTerminateInvocation / OpDemoteToHelperInvocation
  bool hasSideEffects = false;    // stores or atomics on buffers or images
  bool earlyFragmentTests = false;  // EarlyFragmentTests execution mode
  // PostDepthCoverage execution mode (SPV_KHR_post_depth_coverage): SampleMaskIn is the
  // coverage left after the early fragment tests.
  bool postDepthCoverage = false;
  // FragStencilRefEXT output (SPV_EXT_shader_stencil_export): the stencil test's reference
  // per fragment.
  bool writesStencilRef = false;
  // subpassLoad: the shader reads input attachments (perhaps the attachments it renders to,
  // in rasterization order: VK_EXT_rasterization_order_attachment_access).
  bool readsInputAttachments = false;
  bool readsSampleMaskIn = false;  // the SampleMask input (FragmentBatch::sampleMaskIn)
  // Bit c: the kernel reads FragmentBatch::fragCoord[c] (FragCoord, interpolateAt*, implicit
  // image coordinates); the draw loop may leave the others unset.
  uint8_t fragCoordReads = 0;
  // Bit l: the kernel writes location l straight into an 8-bit UNORM attachment when the batch
  // names one (FragmentBatch::direct): the location's four components are 32-bit floats.
  uint8_t directColorLocations = 0;
  // Per direct location, the blend state compiled into the kernel's writes (abi::packBlend; 0:
  // none); the draw loop names the attachment only when the draw's blend state is this one.
  uint32_t directBlend[abi::kMaxColorAttachments] = {};
  // The samples per pixel of the attachments those writes address (1 or 4): the draw loop
  // names an attachment only when the draw rasterizes with this many samples.
  uint8_t directSamples = 1;
  // Vertex and tessellation evaluation stages: the entry point writes Layer / ViewportIndex
  // (VertexBatch::layerViewport; shaderOutputLayer, shaderOutputViewportIndex).
  bool writesLayer = false, writesViewportIndex = false;
  // Vertex stages: bit l: the kernel fetches and decodes the attribute at location l itself
  // (ShaderInterface::vertexAttributes); the caller leaves VertexBatch::inputs' location l unset.
  uint32_t fetchedLocations = 0;
  // Geometry stages ("Geometry Shading"): the execution modes and the emitted record's layout
  // (abi::GeometryBatch). inputVertices: 1 points, 2 lines, 4 lines with adjacency, 3
  // triangles, 6 triangles with adjacency. outputTopology: 0 points, 1 line strip, 2 triangle
  // strip. Input components by location are inputComponents (per vertex); outputs
  // outputComponents, recorded in increasing location order after the header.
  struct Geometry {
    uint32_t inputVertices = 0;
    uint32_t outputTopology = 0;
    uint32_t maxVertices = 0;
    uint32_t invocations = 1;
    uint32_t vertexWords = 0;  // abi::kGeometryRecordHeader + 4 per written output location
    bool writesPrimitiveId = false, writesLayer = false, writesViewportIndex = false;
  } geometry;
  // Tessellation stages ("Tessellation"): the execution modes either stage may declare (0:
  // not declared; the pipeline combines the two stages'), and what the control stage's
  // kernel needs to run. domain: 1 triangles, 2 quads, 3 isolines; spacing: 1 equal, 2
  // fractional even, 3 fractional odd; order: 1 VertexOrderCw, 2 VertexOrderCcw.
  struct Tessellation {
    uint8_t domain = 0, spacing = 0, order = 0;
    bool pointMode = false;
    uint32_t outputVertices = 0;  // OutputVertices
    uint32_t patchBytes = 0;      // control stage: bytes of its Output variables (TessControlBatch::patchMemory)
    bool usesBarrier = false;     // control stage: OpControlBarrier, so batches of a patch run as fibers
  } tessellation;
};

struct GraphicsCompileRequest {
  GraphicsStage stage = GraphicsStage::Vertex;
  std::span<const uint32_t> spirv;
  std::string_view entryPoint = "main";
  std::span<const SpecializationEntry> specialization;
  const void* specializationData = nullptr;
  size_t specializationDataSize = 0;
  ShaderInterface interface;
  bool optimize = true;
  bool useCache = true;               // false: compile from scratch, store nothing (benchmarks, tests)
  ExternalCache* external = nullptr;  // the application's VkPipelineCache, if any
  bool cacheOnly = false;             // fail with CompileRequired rather than compile
};

// A compiled vertex, fragment or geometry kernel; its machine code lives as long as this object.
struct GraphicsProgram {
  GraphicsStage stage = GraphicsStage::Vertex;
  abi::VertexBatchFn vertex = nullptr;      // stage Vertex
  abi::FragmentBatchFn fragment = nullptr;  // stage Fragment
  abi::GeometryBatchFn geometry = nullptr;  // stage Geometry
  abi::TessControlBatchFn tessControl = nullptr;  // stage TessControl (TessEval kernels are `vertex`)
  uint32_t simdWidth = 8;
  uint64_t stackBytes = 0;
  GraphicsFacts facts;
  virtual ~GraphicsProgram() = default;
};

struct GraphicsCompileResult {
  CompileStatus status = CompileStatus::InternalError;
  std::string message;
  std::shared_ptr<const GraphicsProgram> program;
  bool cacheHit = false;  // found in the application's pipeline cache
};

// "Transform Feedback Capture": what a vertex, tessellation evaluation or geometry stage's
// Xfb execution mode and XfbBuffer / XfbStride / Offset decorations capture (stream 0), read
// from the module's words (spirv_jit/feedback_layout.cpp). Not enabled for other stages, for a
// module without Xfb on that entry point, or for words it cannot read.
FeedbackLayout readFeedbackLayout(std::span<const uint32_t> spirv, std::string_view entryPoint, GraphicsStage stage);

// Validates, specializes, optimizes and compiles one stage, through the same caches as compute
// kernels: the application's pipeline cache, the process, the disk cache (code_cache.h).
GraphicsCompileResult compileGraphicsStage(const GraphicsCompileRequest& request);

// Runs the tessellation control kernel `fn` for one patch: ceil(outputVertices / W) batches on
// the calling thread, as fibers that switch at barriers when there are several and the kernel
// has barriers. stackBytes: the program's. The draw loop reaches it through a function pointer
// (raster::DrawState), as it reaches kernels.
void runTessControlPatch(abi::TessControlBatchFn fn, uint32_t simdWidth, bool usesBarrier, uint64_t stackBytes,
                         abi::TessControlBatch* batch);

// Runs count[0] x count[1] x count[2] workgroups (ids offset by base) on the thread pool and
// returns when all are done.
void runCompute(const ComputeProgram& program, const abi::BoundResources* resources, const uint32_t base[3],
                const uint32_t count[3]);

}  // namespace tessera::jit
