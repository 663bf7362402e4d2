// The fragment half of a draw: triangles through setup and coverage (raster.h), quads gathered
// into batches of W/4, inputs interpolated ("Interpolation"), the fragment kernel, then the
// per-fragment operations in the spec's order ("Fragment Operations": depth bounds, stencil,
// depth; "Blending"; "Color Write Mask") and the attachment writes through the texel codec.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <cstdlib>

#include "block_depth.h"
#include "draw_internal.h"
#include "logic_op.h"
#include "pixel_weights.h"
#include "stencil_rules.h"
#include "tessera/blend_unorm8.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera::raster {
namespace {

float asFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
uint32_t asWord(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// A texel of `size` bytes (at most 16): the common sizes as one fixed-size copy each, which the
// compiler makes a single store, rather than a call into the C library's memcpy per sample.
void copyTexel(uint8_t* dst, const uint8_t* src, uint32_t size) {
  switch (size) {
    case 4: std::memcpy(dst, src, 4); return;
    case 8: std::memcpy(dst, src, 8); return;
    case 16: std::memcpy(dst, src, 16); return;
    case 2: std::memcpy(dst, src, 2); return;
    case 1: *dst = *src; return;
    default: std::memcpy(dst, src, size); return;
  }
}

// "Blend Factors": s the first source colour, s1 the second ("Dual-Source Blending"), d the
// destination, k the blend constants.
float blendFactor(VkBlendFactor f, const float* s, const float* s1, const float* d, const float* k, int c, bool alpha) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return alpha ? 1.0f : std::min(s[3], 1 - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: return 0;
  }
}

// "Blend Operations".
float blendOp(VkBlendOp op, float s, float sf, float d, float df) {
  switch (op) {
    case VK_BLEND_OP_SUBTRACT: return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT: return d * df - s * sf;
    case VK_BLEND_OP_MIN: return std::min(s, d);
    case VK_BLEND_OP_MAX: return std::max(s, d);
    default: return s * sf + d * df;  // ADD
  }
}

// "Multisample Coverage": alpha to coverage gives the first round(alpha x samples) samples
// (Tessera's choice of bit pattern; the spec asks only for a monotonic number of samples, and
// with one sample the fragment is covered when alpha >= 0.5).
uint32_t alphaToCoverageMask(float alpha, uint32_t samples) {
  if (!(alpha > 0)) return 0;  // NaN and negative alpha cover nothing
  const float scaled = std::min(alpha, 1.0f) * float(samples);
  const uint32_t n = std::min(samples, uint32_t(scaled + 0.5f));
  return (1u << n) - 1;
}


// TESSERA_INLINE_SAMPLING=0 keeps every sample on the runtime call (inline_sample.h): to
// compare the two, or to rule the inline path out when hunting a wrong pixel.
bool inlineSamplingEnabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("TESSERA_INLINE_SAMPLING");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return enabled;
}

}  // namespace

FragmentStage::FragmentStage(const DrawState& state, bool blocks) : blocks_(blocks) {
  if (blocks_) {
    blockBatch_ = std::make_unique<abi::FragmentBatch>();
    if (inlineSamplingEnabled()) {
      inlineSampling_ = std::make_unique<abi::InlineSampleState[]>(abi::kInlineSampleSlots);
      blockBatch_->inlineSampling = inlineSampling_.get();
    }
  }
  retarget(state);
}

void FragmentStage::retarget(const DrawState& state) {
  if (!quads_.empty()) shadeBatch();
  flushOcclusion();
  viewport_ = 0;
  // The previous state may be gone (a stage outlives the scene it drew): only our own copy of
  // its width is read.
  const bool resize = simdWidth_ != state.fragmentWidth();
  simdWidth_ = state.fragmentWidth();
  s_ = &state;
  testsEnabled_ = (s_->depthTest && s_->depth.base) || (s_->stencilTest && s_->stencil.base) ||
                  (s_->depthBoundsTest && s_->depth.base);
  // Early per-fragment tests where the result cannot differ ("Early Fragment Test Mode"):
  // forced by the shader, or when the shader neither changes depth, the stencil reference or
  // coverage nor discards nor writes memory (so skipping it for failed fragments is invisible),
  // nor reads input attachments while the tests write depth or stencil: the attachment may be
  // one of them, and the shader must read what was there before its own fragment's write
  // (CTS rasterization_order_attachment_access.{depth,stencil}.samples_1.multi_draw_barriers).
  const bool testsWrite = (s_->depth.base && s_->depthTest && s_->depthWrite) || (s_->stencil.base && s_->stencilTest);
  early_ = testsEnabled_ && (s_->fragment.earlyFragmentTests ||
                             (!s_->fragment.writesFragDepth && !s_->fragment.writesStencilRef && !s_->fragment.canDiscard &&
                              !s_->fragment.hasSideEffects && !(s_->fragment.readsInputAttachments && testsWrite) &&
                              !s_->fragment.writesSampleMask && !s_->alphaToCoverage));
  countBeforeShading_ = s_->fragment.earlyFragmentTests && s_->occlusionSamples;
  if (blocks_) {
    abi::FragmentBatch& fb = *blockBatch_;
    fb.resources = s_->resources;
    if (inlineSampling_)
      for (uint32_t i = 0; i < abi::kInlineSampleSlots; ++i) {
        abi::InlineSampleState& e = inlineSampling_[i];
        e.view = nullptr, e.sampler = nullptr, e.usable = 0;  // the level ranges stay
      }
    fb.sampleCount = std::max(s_->raster.samples, 1u);
    fb.sampleId = 0;
    fb.samplePosition[0] = fb.samplePosition[1] = 0.5f;
    for (uint32_t j = 0; j < abi::kMaxSimdWidth; ++j)
      fb.pointCoord[0][j] = fb.pointCoord[1][j] = fb.centroid[0][j] = fb.centroid[1][j] = 0.5f;
  }
  depthInfo_ = s_->depth.base ? formatInfo(s_->depth.format) : nullptr;
  depthKind_ = DepthKind::Codec;
  if (depthInfo_ && blocks_) {
    depthKind_ = s_->depth.format == VK_FORMAT_D32_SFLOAT || s_->depth.format == VK_FORMAT_D32_SFLOAT_S8_UINT ? DepthKind::Float32
                 : s_->depth.format == VK_FORMAT_D16_UNORM || s_->depth.format == VK_FORMAT_D16_UNORM_S8_UINT   ? DepthKind::Unorm16
                 : s_->depth.format == VK_FORMAT_X8_D24_UNORM_PACK32 || s_->depth.format == VK_FORMAT_D24_UNORM_S8_UINT
                     ? DepthKind::Unorm24
                     : DepthKind::Codec;
  }
  for (uint32_t i = 0; i < s_->colorCount && i < abi::kMaxColorAttachments; ++i) {
    Unorm8Target& t = unorm8_[i];
    const bool bgra = s_->color[i].format == VK_FORMAT_B8G8R8A8_UNORM;
    const uint32_t shift[4] = {bgra ? 16u : 0u, 8u, bgra ? 0u : 16u, 24u};
    std::copy(shift, shift + 4, t.shift);
    t.keep = 0;
    for (uint32_t c = 0; c < 4; ++c)
      if (!(s_->blend[i].writeMask >> c & 1)) t.keep |= 0xFFu << shift[c];
    for (int c = 0; c < 4; ++c) {
      t.constants[c] = std::clamp(s_->blendConstants[c], 0.0f, 1.0f);
      t.constantBytes[c] = blendInputUnorm8(s_->blendConstants[c]);
    }
  }
  // The depth test is the only test; early, no side effects and the sample mask keeping what the
  // block test writes: the walker may run it on whole blocks.
  const bool depthOnly = blocks_ && s_->depthTest && s_->depth.base && !(s_->stencilTest && s_->stencil.base) &&
                         !s_->depthBoundsTest;
  const bool earlyBlocks = early_ && !s_->fragment.hasSideEffects &&
                           (s_->raster.samples <= 1 ? (s_->sampleMask & 1) != 0 : s_->raster.samples == 4);
  depthOnlyD32_ = depthOnly && depthKind_ == DepthKind::Float32 && s_->depth.texelSize == 4 &&
                  std::max(s_->depth.samples, 1u) == std::max(s_->raster.samples, 1u) && s_->raster.samples <= kMaxSamples;
  depthStencilLanes_ = blocks_ && s_->stencilTest && s_->stencil.base && !s_->depthBoundsTest;
  // D24 and D16 (the depth buffers OpenGL programs get through zink, and many Vulkan programs
  // pick): the same block test for one sample (block_depth.h's blockDepthTestUnorm).
  const bool singleSample = s_->raster.samples <= 1 && std::max(s_->depth.samples, 1u) == 1;
  blockDepthUnormBits_ = !(depthOnly && earlyBlocks && singleSample)                          ? 0
                         : depthKind_ == DepthKind::Unorm24 && s_->depth.texelSize == 4 ? 24
                         : depthKind_ == DepthKind::Unorm16 && s_->depth.texelSize == 2 ? 16
                                                                                         : 0;
  blockDepthTests_ = (depthOnlyD32_ && earlyBlocks) || blockDepthUnormBits_ != 0;
  const bool depthTested = s_->depthTest && s_->depth.base;
  blockStencilTests_ = depthStencilLanes_ && early_ && !s_->fragment.hasSideEffects && s_->raster.samples <= 1 &&
                       (s_->sampleMask & 1) != 0 && s_->stencil.texelSize == 1 && s_->stencil.samples <= 1 &&
                       (!depthTested || (depthKind_ == DepthKind::Float32 && s_->depth.texelSize == 4 &&
                                         s_->depth.samples <= 1));
  blockDepthD32_ = blockDepthTests_ && !blockStencilTests_ && !blockDepthUnormBits_ && s_->raster.samples <= 1
                       ? blockDepthTestD32Function()
                       : nullptr;
  // Another path may write the depth attachment from here on (depthBounds_).
  if (!blockDepthTests_) depthBounds_.forget();
  needPerspective_ = needLinear_ = false;
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l) {
    if (!s_->fragment.inputComponents[l] || !rasterizedOutputs(*s_)[l]) continue;
    needPerspective_ |= s_->fragment.inputInterpolation[l] == 0;
    needLinear_ |= s_->fragment.inputInterpolation[l] == 1;
  }
  needPerspective_ |= s_->fragment.clipDistances || s_->fragment.cullDistances;  // forEachDistanceInput
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  // (With several samples the tests read each sample's depth, computed with the same weights.)
  needCentreDepth_ = testsEnabled_ || (s_->fragmentShader && (s_->fragment.fragCoordReads & 0xC));
  directColor_ = 0;
  const bool afterShaderChangesCoverage = s_->fragment.writesSampleMask || s_->alphaToCoverage || s_->alphaToOne;
  // The kernel addresses the samples it was compiled for (1, or 4 per pixel: FragmentBatch::
  // directSamples); per-sample shading never reaches the block walker.
  if (blocks_ && s_->fragmentShader && samples == s_->fragment.directSamples && !afterShaderChangesCoverage &&
      !(testsEnabled_ && !early_)) {
    for (uint32_t i = 0; i < s_->colorCount && i < abi::kMaxColorAttachments; ++i) {
      const AttachmentView& att = s_->color[i];
      const bool unorm8 = att.format == VK_FORMAT_R8G8B8A8_UNORM || att.format == VK_FORMAT_B8G8R8A8_UNORM;
      // The kernel blends as it was compiled to: the draw's blend state must be that one.
      const BlendAttachment& b = s_->blend[i];
      const uint32_t blend = b.enable ? abi::packBlend(b.srcColor, b.dstColor, b.colorOp, b.srcAlpha, b.dstAlpha, b.alphaOp) : 0u;
      const bool sameBlend = blend == s_->fragment.directBlend[i] && (blend != 0) == b.enable;
      if (att.base && unorm8 && std::max(att.samples, 1u) == samples && b.writeMask && sameBlend && !s_->logicOpEnable &&
          (s_->fragment.directColorLocations >> i & 1) && (s_->fragment.colorOutputs >> i & 1))
        directColor_ |= 1u << i;
    }
  }
  // The colour attachments this loop writes (the others keep their contents or are the kernel's).
  uint32_t loopWrites = 0;
  for (uint32_t i = 0; s_->fragmentShader && i < s_->colorCount && i < abi::kMaxColorAttachments; ++i)
    if (s_->color[i].base && s_->blend[i].writeMask && (s_->fragment.colorOutputs >> i & 1)) loopWrites |= 1u << i;
  loopWrites &= ~directColor_;
  const uint8_t coordReads = s_->fragmentShader ? s_->fragment.fragCoordReads : 0;
  laneNeeds_ = (testsEnabled_ || loopWrites ? kLanePixels | kLaneSampleZ : 0u) | (coordReads & 3 ? kLaneFragXY : 0u) |
               (coordReads & 0xC ? kLaneFragZW : 0u);
  // With 4 samples only a kernel compiled for them (its own writes address each sample).
  const uint32_t allSamples = (1u << samples) - 1;
  wholeBlocksInKernel_ = blocks_ && s_->fragmentShader && (samples == 1 || samples == s_->fragment.directSamples) &&
                         !testsEnabled_ && !loopWrites && !afterShaderChangesCoverage &&
                         (s_->sampleMask & allSamples) == allSamples;
  kernelBlocks_ = blocks_ && s_->fragmentShader && (samples == 1 || samples == s_->fragment.directSamples) && !loopWrites &&
                  !afterShaderChangesCoverage && (s_->sampleMask & allSamples) != 0 && (!testsEnabled_ || blockDepthTests_ || blockStencilTests_);
  if (blocks_) {
    abi::FragmentBatch& fb = *blockBatch_;
    for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
      abi::FragmentBatch::DirectColor& d = fb.direct[i];
      d = {};
      if (!(directColor_ >> i & 1)) continue;
      d.pitch = int64_t(s_->color[i].rowPitch);
      std::copy(unorm8_[i].shift, unorm8_[i].shift + 4, d.shift);
      d.keep = unorm8_[i].keep;
      std::copy(unorm8_[i].constants, unorm8_[i].constants + 4, d.constants);
    }
  }
  const uint32_t W = simdWidth_;
  if (resize) {
    inputs_.assign(abi::kFragmentInputWords * W, 0);
    outputs_.assign(abi::kMaxInterfaceLocations * 4 * W, 0);
  } else {
    // A location the fragment shader reads and no vertex output feeds reads 0, as with a
    // fresh stage (the words of other locations are written before every batch).
    for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
      if (s_->fragment.inputComponents[l]) std::fill_n(&inputs_[size_t(l) * 4 * W], 4 * W, 0u);
    if (s_->fragment.clipDistances || s_->fragment.cullDistances)
      std::fill_n(&inputs_[size_t(abi::kFragmentDistanceWords) * W], 2 * abi::kMaxClipDistances * W, 0u);
  }
  // A second blend source the shader does not write is undefined ("Dual-Source Blending"):
  // zeros, so that both draw paths read the same words whatever ran before.
  if (!s_->fragment.writesSecondColor)
    std::fill_n(&outputs_[size_t(abi::kSecondColorLocation) * 4 * W], 4 * W, 0u);
}

namespace {
// The smallest rectangle with even corners holding `r` (quads start at even pixels).
Rect evenRect(const Rect& r) { return Rect{r.x0 & ~1, r.y0 & ~1, r.x1 + (r.x1 & 1), r.y1 + (r.y1 & 1)}; }
}  // namespace

void FragmentStage::triangle(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t c, uint32_t provoking,
                             uint32_t primitiveId, std::vector<SetupTriangle>& scratch) {
  ClipTriangle tri;
  const uint32_t slots[3] = {a, b, c};
  for (int v = 0; v < 3; ++v) std::memcpy(tri.position[v], vertices.position(slots[v]), 16);
  countStatistic(*s_, kClippingInvocations, 1);
  if (!userClipping(vertices, slots, 3, tri.clipDistances, tri.clipDistance)) return;
  // "Polygon Mode": LINE and POINT draw the clipped, not culled polygon's edges or vertices.
  if (s_->polygonMode == VK_POLYGON_MODE_LINE) {
    std::vector<SetupLine> edges;
    setupPolygonEdges(tri, raster(), edges);
    countStatistic(*s_, kClippingPrimitives, !edges.empty());
    for (const SetupLine& sl : edges) setUpLine(vertices, slots, provoking, primitiveId, sl, evenRect(sl.bounds));
    return;
  }
  if (s_->polygonMode == VK_POLYGON_MODE_POINT) {
    std::vector<SetupPoint> points;
    setupPolygonVertices(tri, raster(), points);
    countStatistic(*s_, kClippingPrimitives, !points.empty());
    for (const SetupPoint& p : points) setUpPoint(vertices, slots, provoking, primitiveId, p, evenRect(p.bounds));
    return;
  }
  scratch.clear();
  setupTriangle(tri, raster(), scratch);
  countStatistic(*s_, kClippingPrimitives, !scratch.empty());
  for (const SetupTriangle& st : scratch)
    setUpTriangle(vertices, slots, provoking, primitiveId, st, evenRect(st.bounds));
}

void FragmentStage::setUpTriangle(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking,
                                  uint32_t primitiveId, const SetupTriangle& st, const Rect& tile) {
  if (tile.x0 >= tile.x1 || tile.y0 >= tile.y1) return;
  vertices_ = &vertices;
  slots_[0] = slots[0], slots_[1] = slots[1], slots_[2] = slots[2];
  flatSlot_ = slots[provoking < 3 ? provoking : 0];
  primitiveId_ = primitiveId;
  frontFacing_ = st.frontFacing;
  isPoint_ = false;
  if (walksBlocks(st)) {
    blockTriangle(st, tile);
    return;
  }
  depthBounds_.forget();  // the quads' tests may write depth
  const uint32_t quadsPerBatch = simdWidth_ / 4;
  rasterizeTriangle(
      st, tile,
      [&](const Quad& q) {
        quads_.push_back(q);
        if (quads_.size() == quadsPerBatch) shadeBatch();
      },
      customLocations());
  if (!quads_.empty()) shadeBatch();
}

void FragmentStage::line(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t primitiveId,
                         std::vector<SetupLine>& scratch, double stippleCounter) {
  ClipLine l;
  std::memcpy(l.position[0], vertices.position(a), 16);
  std::memcpy(l.position[1], vertices.position(b), 16);
  const uint32_t ends[2] = {a, b};
  countStatistic(*s_, kClippingInvocations, 1);
  if (!userClipping(vertices, ends, 2, l.clipDistances, l.clipDistance)) return;
  scratch.clear();
  setupLine(l, raster(), stippleCounter, scratch);
  countStatistic(*s_, kClippingPrimitives, !scratch.empty());
  const uint32_t slots[3] = {a, b, a};  // the third weight is 0
  const uint32_t provoking = lineProvokingVertex(*s_);
  for (const SetupLine& sl : scratch) setUpLine(vertices, slots, provoking, primitiveId, sl, evenRect(sl.bounds));
}

void FragmentStage::setUpLine(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking,
                              uint32_t primitiveId, const SetupLine& sl, const Rect& tile) {
  if (tile.x0 >= tile.x1 || tile.y0 >= tile.y1) return;
  vertices_ = &vertices;
  slots_[0] = slots[0], slots_[1] = slots[1], slots_[2] = slots[2];
  flatSlot_ = slots[provoking < 3 ? provoking : 0];
  primitiveId_ = primitiveId;
  frontFacing_ = sl.frontFacing;  // lines are front-facing; a polygon's edges have its facing
  isPoint_ = false;
  smoothLine_ = sl.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT && scalesAlphaZero();
  depthBounds_.forget();  // its quads' tests may write depth
  const uint32_t quadsPerBatch = simdWidth_ / 4;
  rasterizeLine(
      sl, tile,
      [&](const Quad& q) {
        quads_.push_back(q);
        if (quads_.size() == quadsPerBatch) shadeBatch();
      },
      customLocations());
  if (!quads_.empty()) shadeBatch();
  smoothLine_ = false;
}

bool FragmentStage::scalesAlphaZero() const {
  if (!(s_->fragment.colorOutputs & 1)) return false;
  if (s_->colorCount == 0 || !s_->color[0].base) return true;
  const FormatInfo* f = formatInfo(s_->color[0].format);
  const NumericFormat n = f && f->componentCount ? f->components[0].numeric : NumericFormat::None;
  return n != NumericFormat::UInt && n != NumericFormat::SInt;
}

void FragmentStage::point(const ShadedVertices& vertices, uint32_t slot, float pointSize, uint32_t primitiveId) {
  SetupPoint p;
  countStatistic(*s_, kClippingInvocations, 1);
  if (!pointSurvivesUserClipping(vertices, slot)) return;
  // "Pipeline Statistics Queries": a point inside the clip volume leaves clipping even when its
  // square covers no pixel (a point on the viewport's edge), as lavapipe counts it.
  if (!pointLeavesClipping(vertices.position(slot), raster())) return;
  countStatistic(*s_, kClippingPrimitives, 1);
  if (!setupPoint(vertices.position(slot), pointSize, raster(), &p)) return;
  const uint32_t slots[3] = {slot, slot, slot};
  setUpPoint(vertices, slots, 0, primitiveId, p, evenRect(p.bounds));
}

void FragmentStage::setUpPoint(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking,
                               uint32_t primitiveId, const SetupPoint& p, const Rect& tile) {
  if (tile.x0 >= tile.x1 || tile.y0 >= tile.y1) return;
  vertices_ = &vertices;
  slots_[0] = slots[0], slots_[1] = slots[1], slots_[2] = slots[2];
  flatSlot_ = slots[provoking < 3 ? provoking : 0];
  primitiveId_ = primitiveId;
  frontFacing_ = p.frontFacing;  // points are front-facing; a polygon's vertices have its facing
  isPoint_ = true;
  depthBounds_.forget();  // its quads' tests may write depth
  const uint32_t quadsPerBatch = simdWidth_ / 4;
  rasterizePoint(
      p, tile,
      [&](const Quad& q) {
        quads_.push_back(q);
        if (quads_.size() == quadsPerBatch) shadeBatch();
      },
      customLocations());
  if (!quads_.empty()) shadeBatch();
  isPoint_ = false;
}

void FragmentStage::flush() {
  if (!quads_.empty()) shadeBatch();
  flushOcclusion();
}

void FragmentStage::flushOcclusion() {
  if (occlusionSamples_ && s_->occlusionSamples) {
    std::atomic_ref<uint64_t>(*s_->occlusionSamples).fetch_add(occlusionSamples_, std::memory_order_relaxed);
    occlusionSamples_ = 0;
  }
  if (fragmentInvocations_) countStatistic(*s_, kFragmentShaderInvocations, fragmentInvocations_);
  fragmentInvocations_ = 0;
}

void FragmentStage::shadeBatch() {
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const uint32_t allSamples = (1u << samples) - 1;
  // "Sample Shading": once per covered sample when the pipeline asks for it
  // (minSampleShading x samples > 1) or the shader does (SampleId, SamplePosition, Sample
  // inputs); else once per pixel.
  const bool perSample = samples > 1 && (s_->sampleShading || s_->fragment.perSampleShading);
  abi::FragmentBatch fb{};
  fb.resources = s_->resources;
  fb.frontFacing = frontFacing_;
  fb.primitiveId = primitiveId_;
  fb.viewportIndex = viewport_;
  fb.sampleCount = samples;
  float locationFloats[2 * kMaxSamples];  // FragmentBatch::sampleLocations (InterpolateAtSample)
  if (customLocations()) {
    for (uint32_t k = 0; k < kMaxSamples; ++k) {  // the centre past `samples` (the kernel reads all)
      const std::array<float, 2> l = sampleLocation(samples, k);
      locationFloats[2 * k] = l[0], locationFloats[2 * k + 1] = l[1];
    }
    fb.sampleLocations = locationFloats;
  }
  // Per lane: the pixel, its covered samples (after the sample mask test), each sample's depth.
  LaneState lanes{};
  for (uint32_t q = 0; q < quads_.size(); ++q) {
    const Quad& quad = quads_[q];
    for (uint32_t p = 0; p < 4; ++p) {
      const uint32_t lane = 4 * q + p;
      lanes.px[lane] = quad.x + int32_t(p & 1);
      lanes.py[lane] = quad.y + int32_t(p >> 1);
      // "Sample Mask Test" (before shading): samples outside pSampleMask are not covered.
      if (quad.coverage >> p & 1)
        lanes.sampleBits[lane] = (samples == 1 ? 1u : quad.sampleCoverage[p]) & s_->sampleMask & allSamples;
      for (uint32_t k = 0; k < samples; ++k) lanes.sampleZ[k][lane] = samples == 1 ? quad.z[p] : quad.sampleZ[p][k];
      if (smoothLine_) lanes.lineCoverage[lane] = quad.lineCoverage[p];
      fb.fragCoord[3][lane] = quad.invW[p];
      fb.pointCoord[0][lane] = isPoint_ ? quad.pointCoord[p][0] : 0.5f;
      fb.pointCoord[1][lane] = isPoint_ ? quad.pointCoord[p][1] : 0.5f;
      // The centroid location the rasterizer used for centroidPersp/centroidLinear.
      const uint32_t covered = samples == 1 ? 0u : quad.sampleCoverage[p];
      const bool partial = covered != 0 && covered != allSamples;
      const uint32_t first = partial ? uint32_t(__builtin_ctz(covered)) : 0;
      fb.centroid[0][lane] = partial ? sampleLocation(samples, first)[0] : 0.5f;
      fb.centroid[1][lane] = partial ? sampleLocation(samples, first)[1] : 0.5f;
    }
  }

  if (!perSample) {
    fb.sampleId = 0;
    fb.samplePosition[0] = fb.samplePosition[1] = 0.5f;
    for (uint32_t q = 0; q < quads_.size(); ++q) {
      const Quad& quad = quads_[q];
      for (uint32_t p = 0; p < 4; ++p) {
        const uint32_t lane = 4 * q + p;
        fb.fragCoord[0][lane] = float(lanes.px[lane]) + 0.5f;
        fb.fragCoord[1][lane] = float(lanes.py[lane]) + 0.5f;
        fb.fragCoord[2][lane] = quad.z[p];
        fb.sampleMaskIn[lane] = lanes.sampleBits[lane];
        // Centroid inputs at the centroid location ("Interpolation Decorations").
        interpolate(lane, quad.baryPersp[p], quad.baryLinear[p], samples > 1 ? s_->fragment.centroidInputs : 0u,
                    quad.centroidPersp[p], quad.centroidLinear[p]);
      }
    }
    runFragments(fb, lanes);
  } else {
    const LaneState all = lanes;
    for (uint32_t k = 0; k < samples; ++k) {
      // The invocations of sample k: FragCoord at the sample ("FragCoord": the location of
      // the sample), every input evaluated there, SampleMaskIn the one sample.
      fb.sampleId = k;
      const std::array<float, 2> location = sampleLocation(samples, k);
      fb.samplePosition[0] = location[0];
      fb.samplePosition[1] = location[1];
      bool any = false;
      for (uint32_t q = 0; q < quads_.size(); ++q) {
        const Quad& quad = quads_[q];
        for (uint32_t p = 0; p < 4; ++p) {
          const uint32_t lane = 4 * q + p;
          lanes.sampleBits[lane] = all.sampleBits[lane] & (1u << k);
          any |= lanes.sampleBits[lane] != 0;
          const float dx = location[0] - 0.5f, dy = location[1] - 0.5f;
          fb.fragCoord[0][lane] = float(lanes.px[lane]) + 0.5f + dx;
          fb.fragCoord[1][lane] = float(lanes.py[lane]) + 0.5f + dy;
          fb.fragCoord[2][lane] = quad.sampleZ[p][k];
          // 1/w at the sample: it is linear in window space, so the quad's pixels give its plane
          // (exact for triangles; interpolateAt* relies on FragCoord.w being at FragCoord.xy).
          fb.fragCoord[3][lane] = quad.invW[p] + dx * (quad.invW[1] - quad.invW[0]) + dy * (quad.invW[2] - quad.invW[0]);
          // Every input, Centroid ones included, is evaluated at the sample: that is also the
          // centroid location interpolateAtCentroid must agree with.
          fb.centroid[0][lane] = location[0];
          fb.centroid[1][lane] = location[1];
          fb.sampleMaskIn[lane] = lanes.sampleBits[lane];
          interpolate(lane, quad.samplePersp[p][k], quad.sampleLinear[p][k], 0u, nullptr, nullptr);
        }
      }
      if (any) runFragments(fb, lanes);
    }
  }
  quads_.clear();
}

void FragmentStage::interpolate(uint32_t lane, const float* persp, const float* linear, uint32_t centroidLocations,
                                 const float* centroidPersp, const float* centroidLinear) {
  const uint32_t W = simdWidth_;
  // "Interpolation": flat from the provoking vertex (flatSlot_: "Flat Shading"), else the
  // barycentric blend of the original triangle's three vertices (perspective-correct or in
  // window space).
  for (size_t k = 0; k < vertices_->locations.size(); ++k) {
    const uint32_t loc = vertices_->locations[k];
    const uint8_t interp = s_->fragment.inputInterpolation[loc];
    const bool centroid = centroidLocations >> loc & 1;
    for (uint32_t comp = 0; comp < 4; ++comp) {
      uint32_t word;
      if (interp == 2) {
        word = vertices_->outputs(flatSlot_)[4 * k + comp];
      } else {
        const float* bary = interp == 1 ? (centroid ? centroidLinear : linear) : (centroid ? centroidPersp : persp);
        const float v0 = asFloat(vertices_->outputs(slots_[0])[4 * k + comp]);
        const float v1 = asFloat(vertices_->outputs(slots_[1])[4 * k + comp]);
        const float v2 = asFloat(vertices_->outputs(slots_[2])[4 * k + comp]);
        word = asWord(pixel::interpolate(v0, v1, v2, bary[1], bary[2]));
      }
      inputs_[(loc * 4 + comp) * W + lane] = word;
    }
  }
  // ClipDistance and CullDistance inputs: "linearly interpolated across the primitive"
  // (perspective-correct, as the other smooth inputs).
  forEachDistanceInput([&](uint32_t inputWord, uint32_t vertexWord) {
    const float v0 = asFloat(vertices_->words[size_t(slots_[0]) * vertices_->stride + vertexWord]);
    const float v1 = asFloat(vertices_->words[size_t(slots_[1]) * vertices_->stride + vertexWord]);
    const float v2 = asFloat(vertices_->words[size_t(slots_[2]) * vertices_->stride + vertexWord]);
    inputs_[inputWord * W + lane] = asWord(pixel::interpolate(v0, v1, v2, persp[1], persp[2]));
  });
}

// The per-sample tests of one sample ("Depth Bounds Test", "Stencil Test", "Depth Test" with
// their writes); false when the sample fails one of them.
// `stencilRef`: the shader's FragStencilRefEXT per lane, or null for the state's reference.
bool FragmentStage::sampleTests(const LaneState& lanes, uint32_t lane, uint32_t sample, float z, const int32_t* stencilRef) {
  const int32_t x = lanes.px[lane], y = lanes.py[lane];
  // "Depth Bounds Test".
  if (s_->depthBoundsTest && s_->depth.base) {
    const float stored = loadDepth(texelAt(s_->depth, x, y, sample));
    if (stored < s_->minDepthBounds || stored > s_->maxDepthBounds) return false;
  }
  // "Stencil Test", then "Depth Test"; the stencil ops depend on both results.
  bool depthPass = true;
  float zq = z;
  if (s_->depth.base) {
    // "Depth Test": z_f is converted to the attachment's format first.
    zq = quantizeDepth(z);
    if (s_->depthTest) {
      const float stored = loadDepth(texelAt(s_->depth, x, y, sample));
      depthPass = compare(s_->depthCompare, zq, stored);
    }
  }
  if (s_->stencilTest && s_->stencil.base) {
    const StencilFace& f = frontFacing_ ? s_->stencilFront : s_->stencilBack;
    // "Stencil Test": the reference is FragStencilRefEXT where the shader writes it
    // (VK_EXT_shader_stencil_export), its low bits as the attachment's 8.
    const uint32_t reference = stencilRef ? uint32_t(stencilRef[lane]) : f.reference;
    uint8_t* sp = texelAt(s_->stencil, x, y, sample);
    const uint8_t stored = *sp;
    const bool pass = compare(f.compareOp, uint8_t(reference & f.compareMask), uint8_t(stored & f.compareMask));
    VkStencilOp op = !pass ? f.failOp : depthPass ? f.passOp : f.depthFailOp;
    *sp = maskedStencilUpdate(op, stored, uint8_t(reference), uint8_t(f.writeMask));
    if (!pass) return false;
  }
  if (!depthPass) return false;
  if (s_->depth.base && s_->depthTest && s_->depthWrite) storeDepth(zq, texelAt(s_->depth, x, y, sample));
  return true;
}

// Runs the tests on every covered sample of every lane in `laneMask`; drops failing samples.
// `fragDepth`: the shader's FragDepth per lane, or null for each sample's rasterized depth.
void FragmentStage::runTests(LaneState& lanes, uint32_t laneMask, const float* fragDepth, const int32_t* stencilRef) {
  if (depthOnlyD32_) {
    runDepthTestD32(lanes, laneMask, fragDepth);
    return;
  }
  if (depthStencilLanes_) {
    runDepthStencilLanes(lanes, laneMask, fragDepth, stencilRef);
    return;
  }
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  for (uint32_t lane = 0; lane < simdWidth_; ++lane) {
    if (!(laneMask >> lane & 1)) continue;
    for (uint32_t k = 0; k < samples; ++k)
      if ((lanes.sampleBits[lane] >> k & 1) &&
          !sampleTests(lanes, lane, k, fragDepth ? fragDepth[lane] : lanes.sampleZ[k][lane], stencilRef))
        lanes.sampleBits[lane] &= ~(1u << k);
  }
}

// sampleTests with only the depth test on D32_SFLOAT, on every lane at once: with one sample the
// stored depths read and written per quad row (lanes 2p and 2p + 1 are adjacent pixels), with
// several per pixel; the comparison vectorized. D32's conversion is the identity (quantizeDepth).
namespace {

// runDepthTestD32 with 4 samples: a pixel's 4 stored depths are one 16-byte vector, compared
// with its 4 sample depths at once (the comparison operators on vectors compare element by
// element as the scalar ones do, NaN included).
typedef float SampleFloats __attribute__((vector_size(16)));
typedef int32_t SampleInts __attribute__((vector_size(16)));

template <typename Lanes, typename Compare>
void depthTestPixels4(const AttachmentView& d, bool write, uint32_t live, Lanes& lanes, const float* fragDepth,
                      Compare compare) {
  const SampleInts sampleBit = {1, 2, 4, 8};
  for (uint32_t m = live; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    uint8_t* texel = d.base + uint64_t(lanes.py[lane]) * d.rowPitch + uint64_t(lanes.px[lane]) * 16;
    SampleFloats stored, z;
    std::memcpy(&stored, texel, 16);
    if (fragDepth) z = SampleFloats{} + fragDepth[lane];
    else z = SampleFloats{lanes.sampleZ[0][lane], lanes.sampleZ[1][lane], lanes.sampleZ[2][lane], lanes.sampleZ[3][lane]};
    const SampleInts covered = (SampleInts{} + int32_t(lanes.sampleBits[lane])) & sampleBit;
    const SampleInts passed = compare(z, stored) & covered;  // the covered samples that pass
    const uint32_t bits = uint32_t(passed[0] | passed[1] | passed[2] | passed[3]);
    lanes.sampleBits[lane] = bits;
    if (write && bits) {
      const SampleFloats out = passed != 0 ? z : stored;
      std::memcpy(texel, &out, 16);
    }
  }
}

}  // namespace

void FragmentStage::runDepthTestD32(LaneState& lanes, uint32_t laneMask, const float* fragDepth) {
  const uint32_t W = simdWidth_;
  const uint32_t live = lanesWithBits(W, lanes.sampleBits, laneMask);
  if (!live) return;
  const AttachmentView& d = s_->depth;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  if (samples == 4) {
    const bool write = s_->depthWrite;
    switch (s_->depthCompare) {
      case VK_COMPARE_OP_NEVER: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats, SampleFloats) { return SampleInts{}; }); break;
      case VK_COMPARE_OP_LESS: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a < b; }); break;
      case VK_COMPARE_OP_EQUAL: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a == b; }); break;
      case VK_COMPARE_OP_LESS_OR_EQUAL: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a <= b; }); break;
      case VK_COMPARE_OP_GREATER: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a > b; }); break;
      case VK_COMPARE_OP_NOT_EQUAL: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a != b; }); break;
      case VK_COMPARE_OP_GREATER_OR_EQUAL: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats a, SampleFloats b) { return a >= b; }); break;
      default: depthTestPixels4(d, write, live, lanes, fragDepth, [](SampleFloats, SampleFloats) { return SampleInts{} - 1; }); break;
    }
    return;
  }
  if (samples > 1) {
    // A pixel's samples are consecutive floats: read each lane's, then test sample by sample
    // across the lanes (with FragDepth, every sample compares the one value).
    float stored[kMaxSamples][abi::kMaxSimdWidth] = {};
    uint8_t* texel[abi::kMaxSimdWidth] = {};
    for (uint32_t m = live; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      texel[lane] = d.base + uint64_t(lanes.py[lane]) * d.rowPitch + uint64_t(lanes.px[lane]) * samples * 4;
      float v[kMaxSamples];
      std::memcpy(v, texel[lane], 4 * samples);
      for (uint32_t k = 0; k < samples; ++k) stored[k][lane] = v[k];
    }
    for (uint32_t k = 0; k < samples; ++k) {
      const float* z = fragDepth ? fragDepth : lanes.sampleZ[k];
      uint32_t withSample = 0;
      for (uint32_t m = live; m; m &= m - 1) {
        const uint32_t lane = uint32_t(__builtin_ctz(m));
        withSample |= (lanes.sampleBits[lane] >> k & 1) << lane;
      }
      const uint32_t pass = depthPassLanes(W, s_->depthCompare, z, stored[k], withSample);
      for (uint32_t failed = withSample & ~pass; failed; failed &= failed - 1)
        lanes.sampleBits[__builtin_ctz(failed)] &= ~(1u << k);
      if (s_->depthWrite)
        for (uint32_t m = pass; m; m &= m - 1) {
          const uint32_t lane = uint32_t(__builtin_ctz(m));
          std::memcpy(texel[lane] + 4 * k, &z[lane], 4);
        }
    }
    return;
  }
  const float* z = fragDepth ? fragDepth : lanes.sampleZ[0];
  float stored[abi::kMaxSimdWidth] = {};
  uint8_t* row[abi::kMaxSimdWidth / 2];
  for (uint32_t p = 0; p < W / 2; ++p) {
    const uint32_t pair = live >> (2 * p) & 3;
    if (!pair) continue;
    row[p] = d.base + uint64_t(lanes.py[2 * p]) * d.rowPitch + uint64_t(lanes.px[2 * p]) * 4;
    if (pair == 3) std::memcpy(&stored[2 * p], row[p], 8);
    else if (pair == 1) std::memcpy(&stored[2 * p], row[p], 4);
    else std::memcpy(&stored[2 * p + 1], row[p] + 4, 4);
  }
  const uint32_t pass = depthPassLanes(W, s_->depthCompare, z, stored, live);
  for (uint32_t failed = live & ~pass; failed; failed &= failed - 1) lanes.sampleBits[__builtin_ctz(failed)] = 0;
  if (!s_->depthWrite) return;
  for (uint32_t p = 0; p < W / 2; ++p) {
    const uint32_t pair = pass >> (2 * p) & 3;
    if (!pair) continue;
    if (pair == 3) std::memcpy(row[p], &z[2 * p], 8);
    else if (pair == 1) std::memcpy(row[p], &z[2 * p], 4);
    else std::memcpy(row[p] + 4, &z[2 * p + 1], 4);
  }
}

uint32_t FragmentStage::lanesWithSamples(const LaneState& lanes, uint32_t laneMask) const {
  return lanesWithBits(simdWidth_, lanes.sampleBits, laneMask);
}

void FragmentStage::runFragments(abi::FragmentBatch& fb, LaneState& lanes) {
  if (earlyTests(fb, lanes)) shadeAndWrite(fb, lanes);
}

bool FragmentStage::earlyTests(abi::FragmentBatch& fb, LaneState& lanes) {
  return earlyTests(fb, lanes, lanesWithBits(simdWidth_, lanes.sampleBits, ~0u));
}

bool FragmentStage::earlyTests(abi::FragmentBatch& fb, LaneState& lanes, uint32_t covered) {
  fb.coverage = covered;
  if (!fb.coverage) return false;
  if (early_) {
    runTests(lanes, fb.coverage, nullptr);
    fb.coverage = lanesWithSamples(lanes, fb.coverage);
    // "Built-In Variables", SampleMask: with the PostDepthCoverage execution mode the input
    // reflects the coverage after the early depth and stencil tests.
    if (s_->fragment.postDepthCoverage) std::memcpy(fb.sampleMaskIn, lanes.sampleBits, simdWidth_ * sizeof(uint32_t));
  }
  if (countBeforeShading_) countSamples(lanes.sampleBits, fb.coverage);
  if (early_ && !fb.coverage && !s_->fragment.hasSideEffects) return false;
  return true;
}

void FragmentStage::shadeAndWrite(abi::FragmentBatch& fb, LaneState& lanes) {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  int32_t* px = lanes.px;
  int32_t* py = lanes.py;
  uint32_t* sampleBits = lanes.sampleBits;
  const uint32_t coverage = fb.coverage;
  uint32_t alive = coverage;
  if (s_->fragmentShader) {
    fb.inputs = inputs_.data();
    fb.outputs = outputs_.data();
    // Read back only when the shader writes SampleMask; lanes it leaves unwritten keep all samples.
    if (s_->fragment.writesSampleMask) std::fill_n(fb.sampleMask, W, ~0u);
    // A kernel writing 4-sample attachments itself writes the samples left after the early tests.
    fb.directSamples = directColor_ && samples > 1 ? sampleBits : nullptr;
    // "Fragment shader invocations": the covered lanes (helpers are not counted).
    if (s_->statistics) fragmentInvocations_ += uint32_t(__builtin_popcount(fb.coverage));
    s_->fragmentShader(&fb);
    alive = fb.alive & coverage;
    // "Multisample Coverage": a smooth line's coverage value multiplies the alpha of colour
    // location 0 ("Smooth Lines"); then the SampleMask output and alpha to coverage (alpha of
    // location 0) remove samples; alpha to one then sets that alpha to 1.
    if (smoothLine_)
      for (uint32_t lane = 0; lane < W; ++lane)
        if (alive >> lane & 1) outputs_[3 * W + lane] = asWord(asFloat(outputs_[3 * W + lane]) * lanes.lineCoverage[lane]);
    const bool coverageChanges = s_->fragment.writesSampleMask || s_->alphaToCoverage || s_->alphaToOne;
    for (uint32_t lane = 0; coverageChanges && lane < W; ++lane) {
      if (!(alive >> lane & 1)) continue;
      if (s_->fragment.writesSampleMask) sampleBits[lane] &= fb.sampleMask[lane];
      if (s_->alphaToCoverage && (s_->fragment.colorOutputs & 1))
        sampleBits[lane] &= alphaToCoverageMask(asFloat(outputs_[3 * W + lane]), samples);
      if (s_->alphaToOne)
        for (uint32_t i = 0; i < s_->colorCount; ++i) outputs_[(i * 4 + 3) * W + lane] = asWord(1.0f);
    }
    // Covered lanes have samples: only a changed coverage can leave one without.
    if (coverageChanges) alive = lanesWithSamples(lanes, alive);
  }
  if (testsEnabled_ && !early_) {
    if (s_->fragment.writesFragDepth) {
      // "Depth Clamping and Range Adjustment" applies to the shader's FragDepth as to the
      // rasterized depth: the same range (rules::fragmentDepthRange).
      const rules::DepthRange range = rules::fragmentDepthRange(raster());
      for (uint32_t lane = 0; lane < W; ++lane)
        if (alive >> lane & 1) fb.fragDepth[lane] = rules::clampFragmentDepth(fb.fragDepth[lane], range);
    }
    runTests(lanes, alive, s_->fragment.writesFragDepth ? fb.fragDepth : nullptr,
             s_->fragment.writesStencilRef ? fb.fragStencilRef : nullptr);
    alive = lanesWithSamples(lanes, alive);
  }
  if (s_->occlusionSamples && !countBeforeShading_)  // "Sample Counting": samples that passed every test
    countSamples(sampleBits, alive);
  if (!s_->fragmentShader) return;

  // Colour attachments: location i writes attachment i, in every sample that passed.
  for (uint32_t i = 0; i < s_->colorCount; ++i) {
    const AttachmentView& att = s_->color[i];
    const BlendAttachment& blend = s_->blend[i];
    // An attachment no output location writes keeps its contents.
    if (!att.base || !blend.writeMask || !(s_->fragment.colorOutputs >> i & 1)) continue;
    if (fb.direct[i].row) continue;  // the kernel wrote it (FragmentBatch::direct)
    if (blocks_ && !s_->logicOpEnable &&
        (att.format == VK_FORMAT_R8G8B8A8_UNORM || att.format == VK_FORMAT_B8G8R8A8_UNORM ||
         att.format == VK_FORMAT_R8G8B8A8_UINT)) {
      writeRgba8(i, alive, lanes);
      continue;
    }
    const FormatInfo* f = formatInfo(att.format);
    if (!f) continue;
    const TexelKind kind = texelKind(*f);
    const NumericFormat numeric = f->components[0].numeric;
    const bool unorm = numeric == NumericFormat::UNorm || numeric == NumericFormat::Srgb;
    const bool snorm = numeric == NumericFormat::SNorm;
    // "Logical Operations": blending is off for every attachment; only integer and normalized
    // (not sRGB, not float) attachments take the operation, the others the value as it is.
    if (s_->logicOpEnable) {
      if (logicOpApplies(*f)) writeLogicOp(i, alive, lanes, *f);
      else writeUnblended(i, alive, lanes, *f);
      continue;
    }
    const bool blending = blend.enable && kind == TexelKind::Float;
    // 8-bit UNORM attachments blend in 8-bit fixed point (tessera/blend_unorm8.h).
    const bool blendsFixed8 = blending && blendsInUnorm8(*f);
    uint32_t k8[4] = {};
    if (blendsFixed8)
      for (int c = 0; c < 4; ++c) k8[c] = unorm8_[i].constantBytes[c];
    // The attachment's value is only needed to blend or to keep masked components.
    const bool needCurrent = blending || (blend.writeMask & 0xF) != 0xF;
    for (uint32_t lane = 0; lane < W; ++lane) {
      if (!(alive >> lane & 1)) continue;
      TexelValue out{};
      for (uint32_t c = 0; c < 4; ++c) out.u[c] = outputs_[(i * 4 + c) * W + lane];
      // The lane's sources at 8 bits, the same for each of its samples; the second source is
      // attachment 0's as below.
      uint32_t s8[4] = {}, s18[4] = {};
      if (blendsFixed8)
        for (int c = 0; c < 4; ++c) {
          s8[c] = blendInputUnorm8(out.f[c]);
          s18[c] = blendInputUnorm8(asFloat(outputs_[(abi::kSecondColorLocation * 4 + c) * W + lane]));
        }
      if (!needCurrent) {
        // Every sample gets the same value: encode it once.
        uint8_t encoded[16] = {};
        // The common 8-bit UNORM and sRGB RGBA/BGRA attachments (a swapchain's usual formats)
        // without the per-texel format lookup of the generic codec.
        if (!encodeBytes8(VkFormat(att.format), out.f, encoded)) encodeTexel(*f, out, encoded);
        for (uint32_t k = 0; k < samples; ++k)
          if (sampleBits[lane] >> k & 1) copyTexel(texelAt(att, px[lane], py[lane], k), encoded, att.texelSize);
        continue;
      }
      for (uint32_t k = 0; k < samples; ++k) {
        if (!(sampleBits[lane] >> k & 1)) continue;
        uint8_t* dst = texelAt(att, px[lane], py[lane], k);
        TexelValue result = out, cur{};
        decodeTexel(*f, dst, cur);
        if (blendsFixed8) {
          // The decoded destination c / 255 converts back to c exactly.
          uint32_t d8[4], r8[4];
          for (int c = 0; c < 4; ++c) d8[c] = blendInputUnorm8(cur.f[c]);
          blendUnorm8Texel(blend, s8, s18, d8, k8, r8);
          for (int c = 0; c < 4; ++c) result.f[c] = static_cast<float>(double(r8[c]) / 255.0);
        } else if (blending) {
          // "Blending": fixed-point attachments clamp sources, destination and constants first.
          // The second source is the Location 0 Index 1 output for every attachment: only
          // attachment 0 may use it (maxFragmentDualSrcAttachments), elsewhere it is undefined.
          float sv[4], s1[4], d[4], kc[4];
          for (int c = 0; c < 4; ++c) {
            sv[c] = out.f[c], d[c] = cur.f[c], kc[c] = s_->blendConstants[c];
            s1[c] = asFloat(outputs_[(abi::kSecondColorLocation * 4 + c) * W + lane]);
            if (unorm)
              sv[c] = std::clamp(sv[c], 0.0f, 1.0f), s1[c] = std::clamp(s1[c], 0.0f, 1.0f), d[c] = std::clamp(d[c], 0.0f, 1.0f),
              kc[c] = std::clamp(kc[c], 0.0f, 1.0f);
            if (snorm)
              sv[c] = std::clamp(sv[c], -1.0f, 1.0f), s1[c] = std::clamp(s1[c], -1.0f, 1.0f),
              d[c] = std::clamp(d[c], -1.0f, 1.0f), kc[c] = std::clamp(kc[c], -1.0f, 1.0f);
          }
          for (int c = 0; c < 4; ++c) {
            const bool alpha = c == 3;
            const float sf = blendFactor(alpha ? blend.srcAlpha : blend.srcColor, sv, s1, d, kc, c, alpha);
            const float df = blendFactor(alpha ? blend.dstAlpha : blend.dstColor, sv, s1, d, kc, c, alpha);
            result.f[c] = blendOp(alpha ? blend.alphaOp : blend.colorOp, sv[c], sf, d[c], df);
          }
        }
        // "Color Write Mask": unwritten components keep the attachment's value.
        for (uint32_t c = 0; c < 4; ++c)
          if (!(blend.writeMask >> c & 1)) result.u[c] = cur.u[c];
        encodeTexel(*f, result, dst);
      }
    }
  }
}

// The depth plane's texel codec ("Depth Test" reads and writes depth in the attachment's
// format). The binned path does the codec's arithmetic inline for the common formats: D32 as
// the float itself, D16/D24 as "Conversion From Normalized Fixed-Point to Floating-Point" and
// back, rounding to nearest even as texel_codec.cpp does.
float FragmentStage::loadDepth(const uint8_t* texel) const {
  switch (depthKind_) {
    case DepthKind::Float32: {
      float v;
      std::memcpy(&v, texel, 4);
      return v;
    }
    case DepthKind::Unorm16: {
      uint16_t v;
      std::memcpy(&v, texel, 2);
      return static_cast<float>(double(v) / 65535.0);
    }
    case DepthKind::Unorm24: {
      uint32_t v;
      std::memcpy(&v, texel, 4);
      return static_cast<float>(double(v & 0xFFFFFFu) / 16777215.0);
    }
    case DepthKind::Codec: break;
  }
  return decodeDepth(*depthInfo_, texel);
}

void FragmentStage::storeDepth(float z, uint8_t* texel) const {
  switch (depthKind_) {
    case DepthKind::Float32: std::memcpy(texel, &z, 4); return;
    case DepthKind::Unorm16: {
      const uint16_t v = uint16_t(floatToUnorm(z, 65535.0));
      std::memcpy(texel, &v, 2);
      return;
    }
    case DepthKind::Unorm24: {
      const uint32_t v = floatToUnorm(z, 16777215.0);  // upper 8 bits 0
      std::memcpy(texel, &v, 4);
      return;
    }
    case DepthKind::Codec: break;
  }
  encodeDepth(*depthInfo_, z, texel);
}

float FragmentStage::quantizeDepth(float z) const {
  uint8_t bytes[4] = {};
  storeDepth(z, bytes);
  return loadDepth(bytes);
}

// "Logical Operations": the fragment's value encoded in the attachment's format, combined with
// the texel bit by bit, the components outside the write mask kept ("Color Write Mask").
void FragmentStage::writeLogicOp(uint32_t attachment, uint32_t alive, const LaneState& lanes, const FormatInfo& f) {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const AttachmentView& att = s_->color[attachment];
  uint8_t written[16];
  writtenBits(f, s_->blend[attachment].writeMask, written);
  const uint32_t bytes = std::min<uint32_t>(att.texelSize, sizeof written);
  for (uint32_t lane = 0; lane < W; ++lane) {
    if (!(alive >> lane & 1)) continue;
    TexelValue out{};
    for (uint32_t c = 0; c < 4; ++c) out.u[c] = outputs_[(attachment * 4 + c) * W + lane];
    uint8_t source[16] = {};
    encodeTexel(f, out, source);
    for (uint32_t k = 0; k < samples; ++k) {
      if (!(lanes.sampleBits[lane] >> k & 1)) continue;
      uint8_t* dst = texelAt(att, lanes.px[lane], lanes.py[lane], k);
      for (uint32_t b = 0; b < bytes; ++b) {
        const uint8_t result = logicOpByte(s_->logicOp, source[b], dst[b]);
        dst[b] = uint8_t((result & written[b]) | (dst[b] & ~written[b]));
      }
    }
  }
}

// An attachment the logic operation does not apply to (float, sRGB) while it is enabled: the
// fragment's value as it is, blending being off for every attachment.
void FragmentStage::writeUnblended(uint32_t attachment, uint32_t alive, const LaneState& lanes, const FormatInfo& f) {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const AttachmentView& att = s_->color[attachment];
  const uint32_t mask = s_->blend[attachment].writeMask;
  for (uint32_t lane = 0; lane < W; ++lane) {
    if (!(alive >> lane & 1)) continue;
    TexelValue out{};
    for (uint32_t c = 0; c < 4; ++c) out.u[c] = outputs_[(attachment * 4 + c) * W + lane];
    for (uint32_t k = 0; k < samples; ++k) {
      if (!(lanes.sampleBits[lane] >> k & 1)) continue;
      uint8_t* dst = texelAt(att, lanes.px[lane], lanes.py[lane], k);
      TexelValue result = out;
      if ((mask & 0xF) != 0xF) {
        TexelValue cur{};
        decodeTexel(f, dst, cur);
        for (uint32_t c = 0; c < 4; ++c)
          if (!(mask >> c & 1)) result.u[c] = cur.u[c];
      }
      encodeTexel(f, result, dst);
    }
  }
}

// The binned path's writer for R8G8B8A8_UNORM, B8G8R8A8_UNORM and R8G8B8A8_UINT attachments:
// the reference's arithmetic ("Blending" by the 8-bit fixed-point rule, "Color Write Mask",
// the codec's encode) on whole 32-bit texels in vector form (draw_blocks.cpp), without the texel codec's
// per-component dispatch. Lanes 2p and 2p + 1 of a batch are the two pixels of a quad's row, so
// with one sample a pair whose lanes are both alive is one 8-byte access.
void FragmentStage::writeRgba8(uint32_t attachment, uint32_t alive, const LaneState& lanes) {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const AttachmentView& att = s_->color[attachment];
  const BlendAttachment& blend = s_->blend[attachment];
  const uint32_t* shift = unorm8_[attachment].shift;
  const uint32_t keep = unorm8_[attachment].keep;
  const uint32_t* k = unorm8_[attachment].constantBytes;
  const float* out = reinterpret_cast<const float*>(&outputs_[attachment * 4 * W]);
  const float* out1 = reinterpret_cast<const float*>(&outputs_[abi::kSecondColorLocation * 4 * W]);
  // "Blending" applies to fixed- and floating-point attachments only: R8G8B8A8_UINT takes the
  // values clamped to [0, 255] (encodeUint8), as the texel codec encodes them.
  const bool uint8 = att.format == VK_FORMAT_R8G8B8A8_UINT;
  const bool blending = blend.enable && !uint8;
  const bool needCurrent = blending || keep;
  uint32_t texels[abi::kMaxSimdWidth];
  const auto encode = [&](const uint32_t* current) {
    if (uint8) encodeUint8(W, reinterpret_cast<const uint32_t*>(out), texels);
    else if (blending) blendUnorm8(W, blend, k, out, out1, current, shift, texels);
    else encodeUnorm8(W, out, shift, texels);
  };
  if (samples == 1) {
    uint32_t current[abi::kMaxSimdWidth] = {};
    if (needCurrent)
      for (uint32_t p = 0; p < W / 2; ++p) {
        const uint32_t pair = alive >> (2 * p) & 3;
        if (!pair) continue;
        const uint8_t* texel = texelAt(att, lanes.px[2 * p], lanes.py[2 * p]);
        if (pair == 3) std::memcpy(&current[2 * p], texel, 8);
        else if (pair == 1) std::memcpy(&current[2 * p], texel, 4);
        else std::memcpy(&current[2 * p + 1], texel + 4, 4);
      }
    encode(current);
    if (keep)
      for (uint32_t lane = 0; lane < W; ++lane) texels[lane] = (texels[lane] & ~keep) | (current[lane] & keep);
    for (uint32_t p = 0; p < W / 2; ++p) {
      const uint32_t pair = alive >> (2 * p) & 3;
      if (!pair) continue;
      uint8_t* texel = texelAt(att, lanes.px[2 * p], lanes.py[2 * p]);
      if (pair == 3) std::memcpy(texel, &texels[2 * p], 8);
      else if (pair == 1) std::memcpy(texel, &texels[2 * p], 4);
      else std::memcpy(texel + 4, &texels[2 * p + 1], 4);
    }
    return;
  }
  if (!needCurrent) {
    // Every covered sample of a lane gets the same texel.
    encode(nullptr);
    for (uint32_t lane = 0; lane < W; ++lane) {
      if (!(alive >> lane & 1)) continue;
      const uint32_t bits = lanes.sampleBits[lane];
      uint8_t* pixel = texelAt(att, lanes.px[lane], lanes.py[lane]);
      for (uint32_t sample = 0; sample < samples; ++sample)
        if (bits >> sample & 1) std::memcpy(pixel + sample * 4, &texels[lane], 4);
    }
    return;
  }
  // Per sample index: read the lanes' texels, blend all lanes at once, store those that have
  // the sample.
  for (uint32_t sample = 0; sample < samples; ++sample) {
    uint32_t lanesWithSample = 0;
    uint32_t current[abi::kMaxSimdWidth] = {};
    for (uint32_t lane = 0; lane < W; ++lane) {
      if (!(alive >> lane & 1) || !(lanes.sampleBits[lane] >> sample & 1)) continue;
      lanesWithSample |= 1u << lane;
      std::memcpy(&current[lane], texelAt(att, lanes.px[lane], lanes.py[lane], sample), 4);
    }
    if (!lanesWithSample) continue;
    encode(current);
    for (uint32_t lane = 0; lane < W; ++lane) {
      if (!(lanesWithSample >> lane & 1)) continue;
      const uint32_t stored = (texels[lane] & ~keep) | (current[lane] & keep);
      std::memcpy(texelAt(att, lanes.px[lane], lanes.py[lane], sample), &stored, 4);
    }
  }
}

}  // namespace tessera::raster
