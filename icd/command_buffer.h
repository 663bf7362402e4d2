// Command pools and command buffers. Recording appends fixed-size records to an arena owned
// by the command buffer; each record type is one struct with its data and its execute() —
// the recorder (record<T>()) and the executor come from that one definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "handles.h"
#include "tessera/draw.h"
#include "tessera/shader_abi.h"

namespace tessera {

struct Device;
struct Queue;
struct CommandPool;
struct RenderPass;
struct ImageView;

// Multisampled render to single-sampled: an input attachment of the subpass that reads an
// implicit multisampled image instead of the single-sampled attachment ("the subpass input is
// multisampled"): a descriptor whose view state starts at `base` with aspect `aspect` reads `ms`.
struct InputRedirect {
  const uint8_t* base;
  uint32_t aspect;
  raster::AttachmentView ms;
};

// The render pass instance (or dynamic rendering) in progress when commands execute: draws
// and vkCmdClearAttachments write these attachments. Set at execution time, so secondary
// command buffers recorded inside a render pass draw into whatever their primary began.
struct RenderTargets {
  bool active = false;
  uint32_t colorCount = 0;
  raster::AttachmentView color[abi::kMaxColorAttachments];
  raster::AttachmentView depth, stencil;
  raster::Rect renderArea{};
  uint32_t layers = 1;  // framebuffer layers / VkRenderingInfo::layerCount (load-op clears)
  // The subpass's (or VkRenderingInfo's) view mask: non-zero runs each draw once per view
  // into the view's layer (icd/multiview.h); `layers` is then 1 and unused.
  uint32_t viewMask = 0;
  // Multisample resolves done when the subpass (or the render pass instance) ends.
  struct Resolve {
    raster::AttachmentView src, dst;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    VkResolveModeFlagBits mode = VK_RESOLVE_MODE_NONE;
  };
  Resolve resolves[abi::kMaxColorAttachments + 2];
  uint32_t resolveCount = 0;
  // The subpass's input attachments that read implicit images (in the recording command
  // buffer's arena); ExecContext::draw redirects the descriptors of draws that read inputs.
  const InputRedirect* inputRedirects = nullptr;
  uint32_t inputRedirectCount = 0;
};

// Fills `rect` of layer `layer` of an attachment with an encoded texel, every sample, in
// parallel row bands (large whole-row fills with streaming stores): render pass clears that no
// draw follows (icd/cmd_render_pass.cpp).
void fillAttachmentRect(const raster::AttachmentView& target, const uint8_t texel[16], const raster::Rect& rect, uint32_t layer);

struct ExecContext {
  Device* device;
  Queue* queue;
  RenderTargets targets{};
  // The active occlusion query's count of passing samples ("Occlusion Queries").
  bool occlusionActive = false;
  uint64_t occlusionSamples = 0;
  // "Pipeline Statistics Queries": running counters (raster::PipelineStatistic order), counted
  // while any statistics query is active; a query keeps the counters at its begin
  // (QueryPool::statisticsBase) and writes the differences at its end.
  uint64_t statistics[raster::kPipelineStatistics] = {};
  uint32_t statisticsQueries = 0;
  // Adds n to a statistic while a query counts (the compute side; draws count in raster).
  void countStatistic(raster::PipelineStatistic which, uint64_t n) {
    if (statisticsQueries) statistics[which] += n;
  }
  // Inside a conditional rendering block whose predicate discards ("Conditional Rendering",
  // icd/cmd_conditional_rendering.cpp): draws, dispatches and vkCmdClearAttachments do
  // nothing. Secondary command buffers run with this context, so they inherit it.
  bool conditionalDiscard = false;
  // "Transform Feedback": the bound buffers and bytes written (vkCmdBindTransformFeedbackBuffersEXT,
  // vkCmdBegin/EndTransformFeedbackEXT, icd/cmd_transform_feedback.cpp) and whether capture is
  // active; a stream-0 query counts primitives from the counts it saw at its begin.
  FeedbackTargets feedback;
  // "Primitives Generated Queries" (VK_EXT_primitives_generated_query): running counts per
  // vertex stream (DrawState::primitivesGenerated), counted while any such query is active; a
  // query keeps its stream's count at its begin (QueryPool::countBase) and writes the
  // difference at its end, so queries of several streams (or pools) may be active at once.
  uint32_t primitivesGeneratedQueries = 0;
  uint64_t primitivesGenerated[kMaxTransformFeedbackStreams] = {};
  // Active transform feedback stream queries: their counts run in feedback.primitivesWritten /
  // primitivesNeeded per stream, kept at each query's begin likewise.
  uint32_t feedbackQueries = 0;
  // The draw's capture target: the execution's when capture or a stream query is active.
  FeedbackTargets* feedbackFor() { return feedback.capturing || feedbackQueries ? &feedback : nullptr; }
  // Draws since the last other command, accumulated and drawn together (raster::Scene). Any
  // command that is not a draw flushes it first (CommandBuffer::execute), so everything else
  // sees the draws done, in order; so does the end of every command buffer.
  raster::Scene* scene = nullptr;  // the queue's (Queue::scene), created on first use
  // Multiview: each view's copy of a draw's resources (naming its ViewIndex), kept until the
  // scene that points at them is flushed.
  std::deque<abi::BoundResources> viewResources;
  // Multisampled render to single-sampled: copies of descriptor sets whose input attachments
  // read implicit images, and the view states they point at (redirectInputs), kept likewise.
  std::deque<std::unique_ptr<uint8_t[]>> redirectedSets;
  std::deque<abi::ImageViewState> redirectedViews;
  // Runs a draw into the current targets: once, or once per view of targets.viewMask.
  void draw(const raster::DrawState& state, const raster::DrawCall& call);
  // Render pass load clears and end-of-pass resolves go into the scene too (binned path):
  // clear(region) / resolve(region) over the current targets' render area, in order with the
  // draws around them.
  bool regionsJoinScene() const;
  void clear(const raster::ClearRegion& region);
  void resolve(const raster::ResolveRegion& region);
  raster::Scene& queueScene();  // the queue's scene (Queue::scene), created on first use
  void flushDraws();

 private:
  void drawOne(const raster::DrawState& state, const raster::DrawCall& call);
  const abi::BoundResources* redirectInputs(const abi::BoundResources& resources);
};

// What vkCmdSet* (dynamic state) and the vertex/index buffer binds leave for later draws.
struct GraphicsRecordState {
  // vkCmdSetViewport / vkCmdSetScissor (and their WithCount forms, which also set the counts).
  VkViewport viewports[raster::kMaxViewports] = {};
  VkRect2D scissors[raster::kMaxViewports] = {};
  uint32_t viewportCount = 1, scissorCount = 1;
  float lineWidth = 1.0f;
  uint32_t lineStippleFactor = 1;  // vkCmdSetLineStippleEXT (VK_EXT_line_rasterization)
  uint16_t lineStipplePattern = 0xFFFF;
  float depthBias[3] = {};  // constant, clamp, slope
  // vkCmdSetDepthBias2EXT's representation (VK_EXT_depth_bias_control); vkCmdSetDepthBias sets
  // the default, the format's r.
  raster::RasterState::DepthBiasRepresentation depthBiasRepresentation = raster::RasterState::DepthBiasRepresentation::Format;
  float blendConstants[4] = {};
  float depthBounds[2] = {0, 1};
  uint32_t stencilCompareMask[2] = {0xFF, 0xFF}, stencilWriteMask[2] = {0xFF, 0xFF}, stencilReference[2] = {};
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool depthTest = false, depthWrite = false, depthBoundsTest = false, stencilTest = false;
  VkCompareOp depthCompare = VK_COMPARE_OP_NEVER;
  VkStencilOpState stencilOps[2] = {};  // failOp, passOp, depthFailOp, compareOp used
  bool rasterizerDiscard = false, depthBiasEnable = false, primitiveRestart = false;
  uint32_t colorWriteEnables = ~0u;  // bit i: vkCmdSetColorWriteEnableEXT's value for attachment i
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;  // vkCmdSetLogicOpEXT (extendedDynamicState2LogicOp)
  uint32_t patchControlPoints = 0;       // vkCmdSetPatchControlPointsEXT (extendedDynamicState2PatchControlPoints)
  // VK_EXT_extended_dynamic_state3 (icd/cmd_dynamic_state3.cpp).
  bool lowerLeftOrigin = false, depthClampEnable = false, alphaToOne = false, depthClipEnable = true;
  bool provokingVertexLast = false, lineStippleEnable = false, negativeOneToOne = false;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  uint32_t sampleMask = ~0u;
  // VK_EXT_sample_locations: vkCmdSetSampleLocationsEXT's locations, vkCmdSetSampleLocationsEnableEXT.
  raster::SampleLocations sampleLocations;
  bool sampleLocationsEnable = false;
  VkLineRasterizationModeEXT lineMode = VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  // Its colour blend states, per colour attachment (bit i or element i: attachment i).
  uint32_t colorBlendEnables = 0;
  VkColorBlendEquationEXT blendEquations[abi::kMaxColorAttachments] = {};
  static_assert(abi::kMaxColorAttachments == 8, "one initializer per attachment");
  VkColorComponentFlags colorWriteMasks[abi::kMaxColorAttachments] = {0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF};
  bool logicOpEnable = false, alphaToCoverage = false;
  uint32_t rasterizationSamples = 1;  // vkCmdSetRasterizationSamplesEXT
  // vkCmdSetVertexInputEXT (VK_EXT_vertex_input_dynamic_state): bindings by number (stride,
  // rate, divisor; the buffers come from the binds) and the attributes.
  struct VertexInputBinding {
    uint32_t stride = 0, divisor = 1;
    VkVertexInputRate inputRate = VK_VERTEX_INPUT_RATE_VERTEX;
  } vertexInputBindings[raster::kMaxVertexBindings];
  raster::VertexAttribute vertexInputAttributes[raster::kMaxVertexAttributes];
  uint32_t vertexInputAttributeCount = 0;
  struct VertexBuffer {
    const uint8_t* base = nullptr;
    uint64_t size = 0;
    uint32_t stride = 0;
    bool strideSet = false;  // vkCmdBindVertexBuffers2 with strides
  } vertexBuffers[raster::kMaxVertexBindings];
  const uint8_t* indexBase = nullptr;
  uint64_t indexSize = 0;
  VkIndexType indexType = VK_INDEX_TYPE_UINT32;
};

// Chunks of host memory from the pool's allocator; records never move once written.
class CommandArena {
 public:
  explicit CommandArena(const VkAllocationCallbacks* allocator) : allocator_(allocator) {}
  ~CommandArena() { release(); }
  void* allocate(size_t size, size_t align);  // nullptr when the host is out of memory
  // A large block in a chunk of its own, linked behind the current chunk so that later small
  // allocations keep filling that one (the implicit multisampled images of
  // VK_EXT_multisampled_render_to_single_sampled, cmd_render_pass.cpp). 64-byte aligned.
  void* allocateSeparate(size_t size);
  void release();                            // frees every chunk (vkResetCommandBuffer)

 private:
  struct Chunk {
    Chunk* next;
    size_t size;
    size_t used;
  };
  const VkAllocationCallbacks* allocator_;
  Chunk* head_ = nullptr;
};

struct RecordHeader {
  void (*execute)(const void* record, ExecContext& ctx);
  RecordHeader* next;
  bool joinsScene;  // a draw (the record type has kJoinsScene): no flush of the scene before it
};

// What vkCmdBindDescriptorSets and vkCmdPushConstants have left for one bind point, at record
// time. Commands that run shaders take an immutable arena copy (snapshotResources); the copy
// is reused until the state changes. Set memory is referenced, not copied: descriptors are read
// when the command executes.
struct Pipeline;
struct DescriptorSetLayout;
// What CommandBuffer::snapshotResources allocates: the resources kernels read, then where each
// set's descriptors are described, so that a draw in a multisampled-render-to-single-sampled
// subpass can find and redirect its input attachments when it executes
// (ExecContext::redirectInputs). Every resources pointer a draw records is the first member of
// one of these.
struct ResourceSnapshot {
  abi::BoundResources resources;
  const DescriptorSetLayout* setLayouts[abi::kMaxBoundSets];
  uint32_t setBytes[abi::kMaxBoundSets];
};
struct BindPointState {
  const Pipeline* pipeline = nullptr;  // vkCmdBindPipeline
  abi::BoundResources resources{};  // dynamicOffsets excepted: see setDynamicOffsets
  const abi::BoundResources* snapshot = nullptr;  // null after a change
  // vkCmdBindDescriptorSets's dynamic offsets, set by set (each in binding order). A snapshot
  // places them where the bound pipeline's kernels read them (Pipeline::dynamicOffsets): the
  // layout bound with need not number them as the pipeline's does (independent sets).
  uint32_t setDynamicOffsets[abi::kMaxBoundSets][abi::kMaxDynamicBuffers] = {};
  // The last push descriptor set (icd/cmd_push_descriptor.cpp): arena memory and its layout;
  // the next push to the same set starts from a copy of it.
  const uint8_t* pushedMemory = nullptr;
  const DescriptorSetLayout* pushedLayout = nullptr;
  // Each bound set's layout and size in bytes (null / 0: unbound), copied into snapshots
  // (ResourceSnapshot).
  const DescriptorSetLayout* setLayouts[abi::kMaxBoundSets] = {};
  uint32_t setBytes[abi::kMaxBoundSets] = {};
};

enum class CommandBufferState { Initial, Recording, Executable, Invalid };

struct CommandBuffer : DispatchableObject {
  CommandBuffer(CommandPool* pool, VkCommandBufferLevel level, const VkAllocationCallbacks* allocator)
      : pool(pool), level(level), arena(allocator) {}

  CommandPool* pool;
  VkCommandBufferLevel level;
  CommandBufferState state = CommandBufferState::Initial;
  VkCommandBufferUsageFlags usage = 0;
  VkResult firstError = VK_SUCCESS;  // kept until reset; vkEndCommandBuffer returns it
  CommandArena arena;
  RecordHeader* first = nullptr;
  RecordHeader* last = nullptr;
  BindPointState compute;   // VK_PIPELINE_BIND_POINT_COMPUTE
  BindPointState graphics;  // VK_PIPELINE_BIND_POINT_GRAPHICS
  GraphicsRecordState graphicsState;
  // The render pass instance being recorded (vkCmdNextSubpass continues it).
  struct PassRecording {
    const RenderPass* pass = nullptr;
    const ImageView* const* views = nullptr;  // by attachment index, in the arena
    uint32_t subpass = 0;
    raster::Rect area{};
    uint32_t layers = 1;
    // The begin info's clear values, in the arena: attachments are cleared at their first use.
    const VkClearValue* clearValues = nullptr;
    uint32_t clearValueCount = 0;
    // Multisampled render to single-sampled: each attachment's implicit multisampled storage,
    // [2a] its colour or depth plane and [2a+1] its stencil plane, allocated at the first
    // subpass that needs it and reused by later ones (in the arena; null when no subpass of
    // the render pass enables it).
    raster::AttachmentView* implicit = nullptr;
  } passRecording;

  // nullptr for bind points Tessera does not have (ray tracing, ...).
  BindPointState* bindPoint(VkPipelineBindPoint bindPoint) {
    if (bindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) return &compute;
    if (bindPoint == VK_PIPELINE_BIND_POINT_GRAPHICS) return &graphics;
    return nullptr;
  }
  // The bound descriptor sets, dynamic offsets and push constants of `bindPoint` as the next
  // recorded command must see them: an arena copy that stays valid (and unchanged) until the
  // command buffer is reset, shared by every command recorded while nothing changed. nullptr
  // after a host allocation failure (remembered, as for records) or for an unknown bind point.
  const abi::BoundResources* snapshotResources(VkPipelineBindPoint bindPoint);

  // Appends a record of type T (trivially destructible; its execute(ExecContext&) const runs
  // at submit time). Returns nullptr after an allocation failure, which is remembered.
  template <typename T>
  T* record() {
    static_assert(std::is_trivially_destructible_v<T>, "records live in an arena and are never destroyed");
    struct Node {
      RecordHeader header;
      T payload;
    };
    void* mem = arena.allocate(sizeof(Node), alignof(Node));
    if (!mem) {
      fail(VK_ERROR_OUT_OF_HOST_MEMORY);
      return nullptr;
    }
    Node* node = new (mem) Node{};
    node->header.execute = [](const void* rec, ExecContext& ctx) {
      reinterpret_cast<const Node*>(rec)->payload.execute(ctx);
    };
    node->header.joinsScene = requires { T::kJoinsScene; };
    if (last) last->next = &node->header;
    else first = &node->header;
    last = &node->header;
    return &node->payload;
  }

  // Copies an array the application owns into the arena (nullptr on failure or count 0).
  template <typename E>
  E* copyArray(const E* src, size_t count) {
    if (!count) return nullptr;
    void* mem = arena.allocate(sizeof(E) * count, alignof(E));
    if (!mem) {
      fail(VK_ERROR_OUT_OF_HOST_MEMORY);
      return nullptr;
    }
    std::memcpy(mem, src, sizeof(E) * count);
    return static_cast<E*>(mem);
  }
  template <typename E>
  E* allocateArray(size_t count) {
    void* mem = arena.allocate(sizeof(E) * (count ? count : 1), alignof(E));
    if (!mem) fail(VK_ERROR_OUT_OF_HOST_MEMORY);
    return static_cast<E*>(mem);
  }

  void fail(VkResult error) {
    if (firstError == VK_SUCCESS) firstError = error;
  }
  void reset();
  void execute(ExecContext& ctx) const;
};


struct CommandPool {
  Device* device = nullptr;
  const VkAllocationCallbacks* allocator = nullptr;
  VkAllocationCallbacks allocatorStorage{};
  VkCommandPoolCreateFlags flags = 0;
  std::vector<CommandBuffer*> buffers;
};

}  // namespace tessera
