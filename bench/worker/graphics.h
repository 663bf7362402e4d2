// Helpers for the graphics workloads (bench/worker/workloads/fill.cpp, tris_small.cpp, ...):
// a 1920x1080 RGBA8 render target (optionally with a D32 depth buffer and 4 samples resolved
// into the 1-sample image), dynamic rendering (Vulkan 1.3, no VkRenderPass objects), graphics
// pipelines from a vertex and a fragment shader, and the CPU side of the output checks.
// Everything is destroyed with the Device.
//
// Exact coordinates. Every workload uses a 2048x2048 viewport at (0,0) with the scissor and
// render area on the 1920x1080 target, so a pixel coordinate p becomes NDC p/1024 - 1 and back
// without rounding (1920 would need a division by 960). Vertices placed on a 1/16-pixel grid
// (the least sub-pixel precision Vulkan allows) therefore reach every driver's rasterizer
// exactly, and coverage no longer depends on how a driver rounds the viewport transform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "device.h"

namespace bench {

constexpr uint32_t kScreenWidth = 1920, kScreenHeight = 1080;
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr float kViewportEdge = 2048.0f;
constexpr int kSubpixel = 16;  // sub-pixel grid of generated vertices (1/16 px)

// NDC of a pixel coordinate under the 2048x2048 viewport (exact for multiples of 1/16).
inline float ndc(float pixel) { return pixel * (2.0f / kViewportEdge) - 1.0f; }

// The commands every graphics workload needs; a missing one makes it "unsupported".
extern const std::initializer_list<const char*> kGraphicsCommands;

// A vertex of flat_color.vert: position (NDC x, y and depth) and an RGBA8 colour that the
// whole primitive takes from its first vertex (flat), so colours are exact on every driver.
struct ColorVertex {
  float x, y, z;
  uint32_t rgba;  // R in the low byte
};

struct RenderTarget {
  uint32_t width = 0, height = 0;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  Image color;  // single-sample: rendered to, or the resolve target of msColor; read back
  VkImageView colorView = VK_NULL_HANDLE;
  Image msColor;  // when samples > 1
  VkImageView msColorView = VK_NULL_HANDLE;
  Image depth;  // when created with depth
  VkImageView depthView = VK_NULL_HANDLE;
};

// Throws Unsupported when the driver lacks dynamic rendering, the formats as attachments, or
// the sample count. Attachments are left in COLOR_ATTACHMENT_OPTIMAL / DEPTH_STENCIL_ATTACHMENT_OPTIMAL.
RenderTarget createRenderTarget(Device& d, uint32_t width, uint32_t height,
                                VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT, bool depth = false);

// Begins dynamic rendering over `area` (the whole target when its extent is 0) with the colour
// cleared to `clear`, or loaded when `clear` is null; depth is cleared to 1.0 and not stored; a
// multisampled colour is averaged into the 1-sample image at the end. Sets the 2048x2048
// viewport and a scissor equal to the area.
void beginRendering(Device& d, VkCommandBuffer cb, const RenderTarget& t, const VkClearColorValue* clear,
                    VkRect2D area = {});
void endRendering(Device& d, VkCommandBuffer cb);
// Orders one rendering instance's attachment writes before the next one's.
void attachmentBarrier(Device& d, VkCommandBuffer cb);
// Copies the 1-sample colour image into `to` (tightly packed RGBA8; not timed).
void readbackColor(Device& d, const RenderTarget& t, const Buffer& to);

// Fixed-function state of a pipeline; everything else is fixed: triangle lists, no culling,
// fill mode, dynamic viewport and scissor, one RGBA8 colour attachment.
struct PipelineState {
  uint32_t vertexStride = 0;  // 0: no vertex buffer (positions from gl_VertexIndex)
  std::vector<VkVertexInputAttributeDescription> attributes;
  bool blend = false;  // colour and alpha: SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD
  bool additive = false;  // colour and alpha: ONE, ONE, ADD (exact for UNORM8 inputs, saturating)
  bool depth = false;  // D32 attachment, test LESS, write on
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint32_t patchControlPoints = 0;  // PATCH_LIST pipelines (a tessellation program)
};
// The vertex input of ColorVertex (location 0: vec3 position, 1: RGBA8 UNORM colour).
PipelineState colorVertexState();

// A vertex and a fragment shader (SPIR-V from bench/shaders/*.vert, *.frag), a pipeline layout
// with one push-constant range visible to both stages and set 0 of `setLayout` (none when it
// is null), and the pipelines made from them.
class GraphicsProgram {
 public:
  GraphicsProgram(Device& d, const uint32_t* vs, size_t vsBytes, const uint32_t* fs, size_t fsBytes,
                  uint32_t pushConstantBytes, VkDescriptorSetLayout setLayout = VK_NULL_HANDLE);
  // A stage between the vertex and fragment shaders (tessellation control and evaluation, or
  // geometry), added before the first pipeline; the push constants become visible to it too.
  // Throws Unsupported when the device lacks the stage's feature.
  struct Stage {
    VkShaderStageFlagBits stage;
    const uint32_t* code;
    size_t bytes;
  };
  GraphicsProgram(Device& d, const uint32_t* vs, size_t vsBytes, std::initializer_list<Stage> middle, const uint32_t* fs,
                  size_t fsBytes, uint32_t pushConstantBytes);
  // A pipeline destroyed with the Device. A failing vkCreateGraphicsPipelines throws
  // Unsupported with its VkResult. `spec` specializes both stages.
  VkPipeline pipeline(const PipelineState& s, const VkSpecializationInfo* spec = nullptr,
                      VkPipelineCache cache = VK_NULL_HANDLE);
  // A pipeline the caller destroys (pipeline-creation latency).
  VkPipeline createUntracked(const PipelineState& s, const VkSpecializationInfo* spec, VkPipelineCache cache);
  // Pushes the whole push-constant block (vertex and fragment stages).
  void push(VkCommandBuffer cb, const void* data) const;
  VkPipelineLayout layout() const { return layout_; }

 private:
  Device& d_;
  void createLayout(uint32_t pushConstantBytes, VkDescriptorSetLayout setLayout);
  VkShaderModule vs_ = VK_NULL_HANDLE, fs_ = VK_NULL_HANDLE;
  std::vector<std::pair<VkShaderStageFlagBits, VkShaderModule>> middle_;
  VkShaderStageFlags pushStages_ = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  uint32_t pushBytes_;
};

// The push constants of rect.vert: a pixel rectangle [x0, x1) x [y0, y1), drawn as 6 vertices.
struct RectPush {
  int32_t x0, y0, x1, y1;
};

// One COMBINED_IMAGE_SAMPLER binding (binding 0, fragment stage) holding `view` with `sampler`:
// its layout, a pool and the set, written; all destroyed with the device. Returns the layout.
VkDescriptorSetLayout createSampledImageSet(Device& d, VkImageView view, VkSampler sampler, VkDescriptorSet* set);

// Opaque RGBA8 colour number i (alpha 255), for distinguishable primitives.
uint32_t colorOf(uint32_t i);
// A float colour whose UNORM8 bytes are exactly `rgba`.
VkClearColorValue clearColorOf(uint32_t rgba);

// CPU checks. Each returns "" when the image agrees, else where and how it differs.
// Every pixel equals `rgba`, each byte within `tolerance`.
std::string checkUniform(const Buffer& image, uint32_t width, uint32_t height, uint32_t rgba, int tolerance);
// Every channel c of every `step`-th pixel (x, y) within `tolerance` of expected(x, y, c).
std::string checkImage(const Buffer& image, uint32_t width, uint32_t height,
                       const std::function<double(uint32_t x, uint32_t y, uint32_t c)>& expected, double tolerance,
                       uint32_t step = 1);

// Small triangles for tris_small_* and msaa4_tris (deterministic: identical on every driver).
// Vertices are on the 1/16-pixel grid, each triangle's area is 2..16 pixels (by default:
// TriangleSizes), and no sample point (the pixel centre, or the 4 standard sample positions)
// lies on a triangle's boundary, so coverage is the same on every driver whatever its
// tie-breaking rule. Triangle i has depth (i + 1) / 2^k: all distinct and exact, triangle 0
// nearest.
struct SmallTriangle {
  int32_t x[3], y[3];  // 1/16 pixel
  uint32_t rgba;
};
// Vertices within `reach` pixels of a random centre on either axis, areas in [minArea, maxArea]
// pixels.
struct TriangleSizes {
  int reach = 4;
  int minArea = 2, maxArea = 16;
};
std::vector<SmallTriangle> smallTriangles(uint32_t count, uint32_t width, uint32_t height,
                                          VkSampleCountFlagBits samples, uint64_t seed, TriangleSizes sizes = {});
float smallTriangleDepth(uint32_t i, uint32_t count);
// The triangles as ColorVertex triangles, nearest first (frontToBack) or farthest first.
std::vector<ColorVertex> smallTriangleVertices(const std::vector<SmallTriangle>& tris, bool frontToBack);
// For each pixel, the sum over its samples of each channel of the nearest covering triangle's
// colour (or `clearRgba`): one sample gives the colour itself, 4 give 4x the resolved average.
std::vector<uint16_t> smallTriangleReference(const std::vector<SmallTriangle>& tris, uint32_t width,
                                             uint32_t height, VkSampleCountFlagBits samples, uint32_t clearRgba);

}  // namespace bench
