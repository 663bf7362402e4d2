// VK_EXT_line_rasterization through the loader with validation, on Tessera and on lavapipe in
// the same test (DualDriverInstance): RECTANGULAR and BRESENHAM lines at several slopes and
// directions, widths 1 and 3, line lists and strips, with and without "Line Stipple" (factors 1
// and 3, patterns with runs of every length), the stipple static or set by
// vkCmdSetLineStippleEXT, drawn into a 64x64 RGBA8 target.
//
// Each image is compared with the spec's rule computed here, pixel by pixel:
//  - RECTANGULAR ("Basic Line Segment Rasterization"): a pixel centre is covered when it lies
//    in the rectangle of the line's width centred on the segment, ends perpendicular to it,
//    and red (0 at p_a, 1 at p_b) is t, the centre projected onto the segment;
//  - BRESENHAM ("Bresenham Line Segment Rasterization"): an implementation of the diamond-exit
//    rule written here: for segments between pixel centres the spec's reduction to Bresenham's
//    algorithm (exact rational minor coordinates at each column, half-open; where the line
//    crosses a diamond's corner the spec's perturbation -(ε, ε²) picks the pixel, worked out
//    below), otherwise the segment's distance to each diamond; wide lines as runs of w from the
//    segment moved by (w - 1)/2;
//  - "Line Stipple": s = floor(distance along the line) (rectangles) or the fragment's count
//    from the start (Bresenham), reset per independent segment, carried on along strips (the
//    remainder carried, the spec's preferred behaviour), b = floor(s / r) mod 16.
// Pixels within 1e-6 pixel of a decision (an edge, a rectangle boundary, a diamond) are not
// checked for Tessera, within 0.02 for lavapipe, whose rectangles and stipple pieces have
// corners rounded to its sub-pixel grid. Where lavapipe departs from the spec, the comparison
// is with the spec and the comment says so.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr int kSize = 64;

struct Point {
  double x, y;  // framebuffer pixels
};

struct LineScene {
  VkLineRasterizationModeEXT mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  std::vector<Point> points;
  float width = 1.0f;
  bool stipple = false;
  uint32_t factor = 1;
  uint16_t pattern = 0xFFFF;
  bool dynamicStipple = false;  // the pipeline says factor 1, pattern 0xFFFF; vkCmdSetLineStippleEXT the scene's
  // Drawn as lines with adjacency through tests/shaders/lines_adjacency_strip.geom: every four
  // points one strip of three segments made by the geometry stage (topology is ignored).
  bool geometryStrips = false;
  // The device enables VK_KHR_line_rasterization (the extension's Vulkan 1.4 name: the same
  // structures and sType values) instead of the EXT, and the stipple command is
  // vkCmdSetLineStippleKHR.
  bool khrName = false;
};

struct Vertex {
  float pos[3];
  float color[4];
};

// Where the draw puts a point: the position is passed as float NDC (x / 32 - 1), which the
// driver maps back (32 x + 32, exact in double) and snaps to 1/256 pixel.
double snappedCoord(double pixels) {
  const float ndc = float(pixels / (kSize / 2.0) - 1.0);
  return double(std::llround((double(ndc) * (kSize / 2.0) + kSize / 2.0) * 256.0)) / 256.0;
}

// The segments the topology makes, as vertex index pairs, and whether each starts a strip.
struct Segment {
  int a, b;
  bool startsStrip;
};
std::vector<Segment> segmentsOf(const LineScene& scene) {
  std::vector<Segment> s;
  const int n = int(scene.points.size());
  if (scene.geometryStrips)
    for (int i = 0; i + 3 < n; i += 4)
      for (int k = 0; k < 3; ++k) s.push_back({i + k, i + k + 1, k == 0});
  else if (scene.topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST)
    for (int i = 0; i + 1 < n; i += 2) s.push_back({i, i + 1, true});
  else
    for (int i = 0; i + 1 < n; ++i) s.push_back({i, i + 1, i == 0});
  return s;
}

// Renders the scene on `pd`: red 0 at each segment's first vertex and 1 at its last (strips
// alternate), green 1, alpha 1, over a clear of 0. Returns kSize x kSize RGBA8 pixels, empty on
// failure.
std::vector<uint8_t> render(VkPhysicalDevice pd, const LineScene& scene) {
  VkPhysicalDeviceLineRasterizationFeaturesEXT supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  const bool bresenham = scene.mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  const bool smooth = scene.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
  const bool rectangular = !bresenham && !smooth;
  EXPECT_TRUE(bresenham ? supported.bresenhamLines : smooth ? supported.smoothLines : supported.rectangularLines);
  if (scene.stipple) {
    EXPECT_TRUE(bresenham ? supported.stippledBresenhamLines
                          : smooth ? supported.stippledSmoothLines : supported.stippledRectangularLines);
  }
  VkPhysicalDeviceLineRasterizationFeaturesEXT lineFeatures{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  lineFeatures.rectangularLines = rectangular;
  lineFeatures.bresenhamLines = bresenham;
  lineFeatures.smoothLines = smooth;
  lineFeatures.stippledRectangularLines = scene.stipple && rectangular;
  lineFeatures.stippledBresenhamLines = scene.stipple && bresenham;
  lineFeatures.stippledSmoothLines = scene.stipple && smooth;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &lineFeatures};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures enabled{};
  enabled.wideLines = scene.width != 1.0f;
  enabled.geometryShader = scene.geometryStrips;
  TestDevice device(pd, &enabled, &v13, {scene.khrName ? "VK_KHR_line_rasterization" : VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  auto setLineStipple = reinterpret_cast<PFN_vkCmdSetLineStippleEXT>(
      vkGetDeviceProcAddr(dev, scene.khrName ? "vkCmdSetLineStippleKHR" : "vkCmdSetLineStippleEXT"));
  EXPECT_NE(setLineStipple, nullptr);
  if (!setLineStipple) return {};

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage color;
  vkCreateImage(dev, &ici, nullptr, &color);
  device.bindMemory(color);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = color;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = ici.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);

  std::vector<Vertex> vertices;
  for (size_t i = 0; i < scene.points.size(); ++i) {
    const Point& p = scene.points[i];
    vertices.push_back({{float(p.x / (kSize / 2.0) - 1.0), float(p.y / (kSize / 2.0) - 1.0), 0.5f},
                        {i % 2 ? 1.0f : 0.0f, 1.0f, 0.0f, 1.0f}});
  }
  void *vbMap, *rbMap;
  VkBuffer vb = device.createMappedBuffer(vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vbMap);
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &rbMap);
  std::memcpy(vbMap, vertices.data(), vertices.size() * sizeof(Vertex));

  VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  VkShaderModule gs = scene.geometryStrips ? device.createShaderModule(loadCorpusShader("lines_adjacency_strip_geom"))
                                           : VK_NULL_HANDLE;
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineShaderStageCreateInfo stages[3] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_GEOMETRY_BIT, gs, "main", nullptr}};
  VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription attrs[2] = {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0},
                                                {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 1, &binding, 2,
                                          attrs};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = scene.geometryStrips ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY : scene.topology;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationLineStateCreateInfoEXT line{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT};
  line.lineRasterizationMode = scene.mode;
  line.stippledLineEnable = scene.stipple;
  line.lineStippleFactor = scene.dynamicStipple ? 1 : scene.factor;
  line.lineStipplePattern = scene.dynamicStipple ? 0xFFFF : scene.pattern;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, &line};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = scene.width;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState dynamic = VK_DYNAMIC_STATE_LINE_STIPPLE_EXT;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0,
                                       scene.dynamicStipple ? 1u : 0u, &dynamic};
  const VkFormat colorFormat = ici.format;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = scene.geometryStrips ? 3 : 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = &dyn;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toAttachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toAttachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toAttachment.image = color;
  toAttachment.subresourceRange = vci.subresourceRange;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toAttachment);
  VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAtt.imageView = view;
  colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (scene.dynamicStipple) setLineStipple(cmd, scene.factor, scene.pattern);
  VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &zero);
  vkCmdDraw(cmd, uint32_t(vertices.size()), 1, 0, 0);
  vkCmdEndRendering(cmd);
  VkImageMemoryBarrier toTransfer = toAttachment;
  toTransfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  toTransfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toTransfer);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), rbMap, pixels.size());

  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  if (gs) vkDestroyShaderModule(dev, gs, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, color, nullptr);
  vkDestroyBuffer(dev, vb, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return pixels;
}

// ---- The spec's rules, computed here --------------------------------------------------------

// Where a pixel stands for one segment: not produced, produced (with t), or too close to a
// decision to say.
enum class Cover { No, Yes, Unsure };
struct Decision {
  Cover cover = Cover::No;
  double t = 0;
  double coverage = 1;  // smooth lines: the alpha the pixel's coverage value leaves (1 otherwise)
};

// "b = floor(s / r) mod 16 ... produced if the b'th bit of p is 1".
bool patternKeeps(long long s, uint32_t factor, uint16_t pattern) { return (pattern >> ((s / factor) % 16)) & 1; }

// RECTANGULAR: the rectangle, then the unit rectangle's counter floor(counter + distance along).
Decision rectangularDecision(const LineScene& scene, Point a, Point b, double counter, int px, int py, double margin) {
  const double cx = px + 0.5, cy = py + 0.5;
  const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy);
  const double along = ((cx - a.x) * dx + (cy - a.y) * dy) / len;
  const double across = std::fabs((cx - a.x) * dy - (cy - a.y) * dx) / len;
  bool unsure = false;
  for (double m : {along, len - along, scene.width / 2.0 - across}) {
    if (m < -margin) return {};
    if (m <= margin) unsure = true;
  }
  Decision d{unsure ? Cover::Unsure : Cover::Yes, along / len};
  if (scene.stipple) {
    const double s = counter + along;
    if (std::fabs(s - std::round(s)) <= margin) d.cover = Cover::Unsure;  // on a rectangle boundary
    else if (!patternKeeps((long long)std::floor(s), scene.factor, scene.pattern)) d.cover = Cover::No;
  }
  return d;
}

// RECTANGULAR_SMOOTH ("Smooth Lines"): the rectangle's area in the pixel square, estimated here
// from 128 x 128 points of the square (with stipple, only points in kept unit rectangles): within
// 0.01 of the area. Pixels whose square lies wholly outside the rectangle (the centre further
// than half the square's diagonal from it) are not drawn; pixels with an estimate below 0.02 are
// too close to call.
Decision smoothDecision(const LineScene& scene, Point a, Point b, double counter, int px, int py) {
  const double dx = b.x - a.x, dy = b.y - a.y, len = std::hypot(dx, dy), h = scene.width / 2.0;
  auto along = [&](double x, double y) { return ((x - a.x) * dx + (y - a.y) * dy) / len; };
  auto across = [&](double x, double y) { return ((x - a.x) * dy - (y - a.y) * dx) / len; };
  const double u = along(px + 0.5, py + 0.5), v = across(px + 0.5, py + 0.5);
  const double du = std::max({0.0, -u, u - len}), dv = std::max(0.0, std::fabs(v) - h);
  if (std::hypot(du, dv) > 0.7072) return {};
  const int n = 128;
  int inside = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = px + (i + 0.5) / n, y = py + (j + 0.5) / n;
      const double d = along(x, y);
      if (d < 0 || d > len || std::fabs(across(x, y)) > h) continue;
      if (scene.stipple && !patternKeeps((long long)std::floor(counter + d), scene.factor, scene.pattern)) continue;
      ++inside;
    }
  const double area = double(inside) / (n * n);
  if (area < 0.02) return {Cover::Unsure, 0, 0};
  return {Cover::Yes, u / len, area};
}

// The diamond-exit rule for a segment a-b: the fragments it produces, by major coordinate, as
// (major, minor), or Unsure. Segments between pixel centres: "this characterization of
// fragments reduces to Bresenham's algorithm with one modification: ... the final fragment
// (corresponding to p_b) is not drawn": one fragment per column from the start's on, the row
// whose centre is nearest the line at the column's centre. Where the line passes a pixel edge
// exactly there (a corner of two diamonds), p' = p - (ε, ε²) moves the line: an x-major line of
// slope m crosses x_f at y + mε - ε², below the edge (greater y) for m > 0 and above it for
// m <= 0; a y-major line crosses y_f at x - ε + O(ε²): to the left. Other segments: the
// diamond |x - x_f| + |y - y_f| < 1/2 against the segment's points, within `margin`.
struct BresenhamFragment {
  int major, minor;
  Cover cover;
};
bool onPixelCentres(Point a, Point b) {
  for (double c : {a.x, a.y, b.x, b.y})
    if (c - std::floor(c) != 0.5) return false;
  return true;
}
std::vector<BresenhamFragment> diamondExit(Point a, Point b, double margin) {
  std::vector<BresenhamFragment> out;
  const bool xMajor = std::fabs(b.x - a.x) >= std::fabs(b.y - a.y);
  const double ma = xMajor ? a.x : a.y, mb = xMajor ? b.x : b.y, na = xMajor ? a.y : a.x, nb = xMajor ? b.y : b.x;
  const int dir = mb > ma ? 1 : -1;
  if (onPixelCentres(a, b)) {
    // Centres m + 1/2: integer pixel steps; the minor coordinate at column k steps of the
    // start is na + k (nb - na) / |mb - ma|, rational with denominator |mb - ma|.
    const long long steps = std::llabs(std::llround(mb - ma)), rise = std::llround(nb - na);
    const long long m0 = (long long)std::floor(ma), n0 = (long long)std::floor(na);
    for (long long k = 0; k < steps; ++k) {
      // Minor pixel index: n0 + k rise / steps rounded to the nearest; halves by the perturbation.
      const long long num = k * rise;
      const long long q = num >= 0 ? num / steps : -((-num + steps - 1) / steps);  // floor
      const long long rem = num - q * steps;                                       // 0 <= rem < steps
      long long minor = n0 + q;
      if (2 * rem > steps) {
        ++minor;
      } else if (2 * rem == steps) {
        // The line crosses the edge between minor indices n0 + q and n0 + q + 1 exactly at the
        // column's centre: an x-major line of positive slope moves to the greater one.
        const bool positiveSlope = (rise > 0) == (dir > 0);
        if (xMajor && positiveSlope) ++minor;
      }
      out.push_back({int(m0 + dir * k), int(minor), Cover::Yes});
    }
    return out;
  }
  // General segments: f = (m, n) is produced when min over the segment of |x - x_f| + |y - y_f|
  // is below 1/2 and p_b is not inside. The function is convex and piecewise linear in t, so
  // its minimum is at t = 0, 1, or where one term is zero.
  auto distance = [&](double t, double fx, double fy) {
    return std::fabs(a.x + t * (b.x - a.x) - fx) + std::fabs(a.y + t * (b.y - a.y) - fy);
  };
  const int lo = int(std::floor(std::min(ma, mb))) - 1, hi = int(std::floor(std::max(ma, mb))) + 1;
  const int nlo = int(std::floor(std::min(na, nb))) - 1, nhi = int(std::floor(std::max(na, nb))) + 1;
  for (int m = lo; m <= hi; ++m)
    for (int n = nlo; n <= nhi; ++n) {
      const double fx = (xMajor ? m : n) + 0.5, fy = (xMajor ? n : m) + 0.5;
      double best = std::min(distance(0, fx, fy), distance(1, fx, fy));
      if (b.x != a.x) best = std::min(best, distance(std::clamp((fx - a.x) / (b.x - a.x), 0.0, 1.0), fx, fy));
      if (b.y != a.y) best = std::min(best, distance(std::clamp((fy - a.y) / (b.y - a.y), 0.0, 1.0), fx, fy));
      const double end = distance(1, fx, fy);
      if (best > 0.5 + margin) continue;
      const bool unsure = best >= 0.5 - margin || std::fabs(end - 0.5) <= margin;
      if (!unsure && end < 0.5) continue;  // "except if p_b is contained in R_f"
      out.push_back({m, n, unsure ? Cover::Unsure : Cover::Yes});
    }
  return out;
}

// The expected image: per pixel the cover and t of the last segment producing it, Unsure when
// any segment is unsure there.
struct Expected {
  std::vector<Decision> pixel = std::vector<Decision>(kSize * kSize);
  std::vector<int> producers = std::vector<int>(kSize * kSize);  // segments producing the pixel
  void add(int px, int py, const Decision& d) {
    if (px < 0 || py < 0 || px >= kSize || py >= kSize || d.cover == Cover::No) return;
    Decision& e = pixel[size_t(py) * kSize + px];
    ++producers[size_t(py) * kSize + px];
    if (e.cover == Cover::Unsure) return;
    e = d;
  }
};

Expected expectedImage(const LineScene& scene, double margin) {
  Expected e;
  double counter = 0;
  for (const Segment& seg : segmentsOf(scene)) {
    if (seg.startsStrip) counter = 0;
    const Point a{snappedCoord(scene.points[seg.a].x), snappedCoord(scene.points[seg.a].y)};
    const Point b{snappedCoord(scene.points[seg.b].x), snappedCoord(scene.points[seg.b].y)};
    // DEFAULT is RECTANGULAR on a device with strictLines (both drivers report it).
    if (scene.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT || scene.mode == VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT) {
      for (int py = 0; py < kSize; ++py)
        for (int px = 0; px < kSize; ++px) e.add(px, py, rectangularDecision(scene, a, b, counter, px, py, margin));
      counter += std::hypot(b.x - a.x, b.y - a.y);  // the remainder carries over
      continue;
    }
    if (scene.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT) {
      for (int py = 0; py < kSize; ++py)
        for (int px = 0; px < kSize; ++px) e.add(px, py, smoothDecision(scene, a, b, counter, px, py));
      counter += std::hypot(b.x - a.x, b.y - a.y);
      continue;
    }
    // BRESENHAM: "The actual width w of Bresenham lines is determined by rounding the line width
    // to the nearest integer"; the segment moved by (w - 1)/2 against the minor axis.
    const int w = int(std::floor(scene.width + 0.5));
    const bool xMajor = std::fabs(b.x - a.x) >= std::fabs(b.y - a.y);
    const double shift = (w - 1) / 2.0;
    const Point ma{a.x - (xMajor ? 0 : shift), a.y - (xMajor ? shift : 0)}, mb{b.x - (xMajor ? 0 : shift), b.y - (xMajor ? shift : 0)};
    const std::vector<BresenhamFragment> fragments = diamondExit(ma, mb, margin);
    // "s is incremented after production of each fragment ... beginning at the starting point".
    const int dir = (xMajor ? mb.x - ma.x : mb.y - ma.y) > 0 ? 1 : -1;
    int first = 0;
    bool any = false;
    for (const BresenhamFragment& f : fragments)
      if (f.cover == Cover::Yes && (!any || dir * (f.major - first) < 0)) first = f.major, any = true;
    for (const BresenhamFragment& f : fragments) {
      const double fx = (xMajor ? f.major : f.minor) + 0.5, fy = (xMajor ? f.minor : f.major) + 0.5;
      Decision d{f.cover, ((fx - ma.x) * (mb.x - ma.x) + (fy - ma.y) * (mb.y - ma.y)) /
                              ((mb.x - ma.x) * (mb.x - ma.x) + (mb.y - ma.y) * (mb.y - ma.y))};
      if (scene.stipple && !patternKeeps((long long)counter + dir * (f.major - first), scene.factor, scene.pattern))
        d.cover = Cover::No;
      for (int k = 0; k < w; ++k) e.add(xMajor ? f.major : f.minor + k, xMajor ? f.minor + k : f.major, d);
    }
    counter += double(fragments.size());
  }
  return e;
}

// What disagreements() checks besides coverage (green), where one segment alone produces a
// pixel: red against t, alpha against the smooth lines' coverage value (1 otherwise) within
// alphaTolerance, for pixels whose coverage value is at least minCoverage.
struct Checks {
  bool t = true;
  double alphaTolerance = 0.5 / 255;
  double minCoverage = 0;
};

// Compares an image with the expectation: coverage (green) everywhere the rule is sure (pixels
// of a smooth line below minCoverage left out), and what `checks` asks. Returns the number of
// disagreeing pixels, describing the first few in *report.
int disagreements(const std::vector<uint8_t>& image, const Expected& e, const Checks& checks, std::string* report,
                  int* covered = nullptr) {
  int wrong = 0;
  if (covered) *covered = 0;
  for (int py = 0; py < kSize; ++py)
    for (int px = 0; px < kSize; ++px) {
      const size_t i = size_t(py) * kSize + px;
      const uint8_t* texel = &image[i * 4];
      const bool drawn = texel[1] == 255;
      if (covered) *covered += drawn;
      const Decision& d = e.pixel[i];
      if (d.cover == Cover::Unsure || (d.cover == Cover::Yes && d.coverage < checks.minCoverage)) continue;
      bool ok = drawn == (d.cover == Cover::Yes);
      if (ok && drawn && e.producers[i] == 1) {
        // Red is the segment's t or 1 - t (strips alternate), 8-bit.
        const double red = texel[0] / 255.0;
        // A smooth line's pixels beyond its ends extrapolate t; the UNORM target clamps it.
        const double t = std::clamp(d.t, 0.0, 1.0);
        if (checks.t) ok = std::fabs(red - t) <= 2.5 / 255 || std::fabs(red - (1 - t)) <= 2.5 / 255;
        ok &= std::fabs(texel[3] / 255.0 - d.coverage) <= checks.alphaTolerance;
      }
      if (ok) continue;
      if (++wrong <= 6)
        *report += "\n  pixel (" + std::to_string(px) + ", " + std::to_string(py) + "): " + (drawn ? "drawn" : "not drawn") +
                   ", red " + std::to_string(texel[0]) + ", alpha " + std::to_string(texel[3]) + ", the rule says " +
                   (d.cover == Cover::Yes ? "drawn" : "not drawn") + ", t " + std::to_string(d.t) + ", coverage " +
                   std::to_string(d.coverage);
    }
  return wrong;
}

// Renders on Tessera and, with `withLavapipe`, on lavapipe; Tessera must follow the rule exactly
// (margin 1e-6; a smooth line's alpha within the area estimate's 0.015), lavapipe within its
// sub-pixel rounding (margin 0.02). lavapipe's smooth lines approximate the area ("a coverage
// value that approximates the area", as the spec allows) from the distance to the line, which
// saturates (1 where a 45-degree line of width 1 covers 0.914 of the pixel its centre line
// crosses), and leave out pixels a line barely touches: their alpha is compared within 0.1
// where the area is at least 0.05. A scene not compared with lavapipe says why.
void checkScene(const LineScene& scene, int minCovered, bool withLavapipe = true) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = render(drivers.tessera, scene);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize * 4));
  const bool smooth = scene.mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
  std::string report;
  int covered = 0;
  Checks exact;
  if (smooth) exact.alphaTolerance = 0.015;
  EXPECT_EQ(disagreements(ours, expectedImage(scene, 1e-6), exact, &report, &covered), 0) << "Tessera:" << report;
  EXPECT_GE(covered, minCovered);
  if (!drivers.lavapipe || !withLavapipe) return;
  const std::vector<uint8_t> theirs = render(drivers.lavapipe, scene);
  ASSERT_EQ(theirs.size(), ours.size());
  report.clear();
  Checks loose;
  loose.t = false;
  loose.alphaTolerance = smooth ? 0.1 : 0.5 / 255;
  loose.minCoverage = smooth ? 0.05 : 0;
  EXPECT_EQ(disagreements(theirs, expectedImage(scene, 0.02), loose, &report), 0) << "lavapipe:" << report;
}

// Lines of many slopes and both directions, off the pixel grid: x-major and y-major, positive
// and negative slopes, horizontal, vertical, 45 degrees.
std::vector<Point> slopedLines() {
  return {{3.3, 5.6},   {60.2, 9.1},   // shallow, left to right
          {58.7, 14.2}, {4.1, 26.3},   // shallow, right to left, downwards
          {7.2, 60.6},  {13.9, 3.4},   // steep, bottom to top
          {20.6, 4.2},  {31.1, 61.3},  // steep, top to bottom
          {36.3, 30.3}, {60.3, 54.3},  // 45 degrees
          {5.3, 40.7},  {30.8, 40.7},  // horizontal
          {44.6, 35.2}, {44.6, 62.9},  // vertical
          {62.1, 33.4}, {38.2, 58.9}}; // steep-ish, negative slope
}

// A strip whose segments are integer lengths (3-4-5 and 5-12-13 triangles' sides, every vertex
// with the same fractions, so snapping keeps the lengths): lavapipe carries the counter from
// each segment's start, which equals the spec's preferred carried remainder only when every
// segment's length is an integer.
std::vector<Point> integerStrip() {
  return {{4.3, 6.2}, {16.3, 11.2}, {24.3, 5.2}, {40.3, 17.2}, {45.3, 5.2}, {57.3, 21.2}, {48.3, 33.2},
          {36.3, 38.2}, {52.3, 50.2}, {40.3, 59.2}, {7.3, 63.2 - 4}};
}

// The sloped lines as a list and as a strip, widths 1 and 3, drawn with `mode`.
void checkSlopedLines(VkLineRasterizationModeEXT mode) {
  for (float width : {1.0f, 3.0f}) {
    SCOPED_TRACE(width);
    LineScene scene;
    scene.mode = mode;
    scene.width = width;
    scene.points = slopedLines();
    checkScene(scene, int(150 * width));
    scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    checkScene(scene, int(300 * width));
  }
}

TEST(DrawLineRasterization, RectangularLinesMatchTheRuleAndLavapipe) {
  // "Basic Line Segment Rasterization": rectangles of the width, ends perpendicular.
  checkSlopedLines(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT);
}

TEST(DrawLineRasterization, StippledRectangularLinesMatchTheRuleAndLavapipe) {
  // "Line Stipple" on rectangles: unit-length rectangles along the line, s reset per segment of
  // a list, carried on along a strip.
  for (float width : {1.0f, 3.0f})
    for (const auto& [factor, pattern] : {std::pair<uint32_t, uint16_t>{1, 0x3A5C}, std::pair<uint32_t, uint16_t>{3, 0x0F35}}) {
      SCOPED_TRACE(testing::Message() << "width " << width << " factor " << factor);
      LineScene scene;
      scene.width = width;
      scene.stipple = true;
      scene.factor = factor;
      scene.pattern = pattern;
      scene.points = slopedLines();
      checkScene(scene, int(60 * width));
      scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
      scene.points = integerStrip();
      checkScene(scene, int(60 * width));
    }
}

TEST(DrawLineRasterization, RectangularStripsCarryTheStippleRemainder) {
  // Segments of fractional lengths: the spec's preferred carry ("the remainder may carry over
  // to the next line segment in the line strip using the same value of s"), which Tessera
  // follows. lavapipe's stipple stage restarts the unit rectangles at each segment's start with
  // the counter's integer part, so its strips differ from the rule after the first segment:
  // compared with the rule only.
  LineScene scene;
  scene.stipple = true;
  scene.factor = 2;
  scene.pattern = 0x3C3C;
  scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  scene.points = {{3.3, 5.6}, {41.7, 20.9}, {12.2, 44.4}, {60.1, 58.8}, {55.5, 3.3}};
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with the rule";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = render(drivers.tessera, scene);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize * 4));
  std::string report;
  int covered = 0;
  EXPECT_EQ(disagreements(ours, expectedImage(scene, 1e-6), Checks{}, &report, &covered), 0) << report;
  EXPECT_GE(covered, 60);
}

// Lines between pixel centres where the spec's Bresenham reduction never meets a tie (odd
// numbers of steps, or none), in every direction but bottom to top along a y-major line, and
// strips of such segments: lavapipe draws these as the diamond-exit rule does.
std::vector<Point> centreLines() {
  return {{2.5, 3.5},   {31.5, 10.5},  // x-major, 29 steps
          {60.5, 12.5}, {39.5, 22.5},  // right to left, negative slope
          {3.5, 62.5},  {28.5, 52.5},  // x-major, bottom to top
          {11.5, 20.5}, {5.5, 59.5},   // y-major, top to bottom, 39 steps
          {20.5, 30.5}, {40.5, 50.5},  // 45 degrees
          {50.5, 30.5}, {50.5, 58.5},  // vertical
          {34.5, 45.5}, {8.5, 45.5}};  // horizontal, right to left
}
std::vector<Point> centreStrip() {
  return {{2.5, 3.5}, {31.5, 10.5}, {60.5, 17.5}, {39.5, 27.5}, {33.5, 60.5}, {8.5, 41.5}, {39.5, 50.5}};
}
// Lines between pixel centres that pass exactly through diamonds' corners (where the spec's
// perturbation picks the pixel) and y-major lines drawn bottom to top. lavapipe takes the
// latitude the spec gives "other line segment rasterization algorithms" here: where a y-major
// line passes a corner it sometimes takes the pixel to the right of the one the perturbation
// picks (rows 30 and 50 of the line from (5.5, 60.5), row 41 of the strip's fourth segment), and it leaves
// out the first fragment of a y-major line drawn bottom to top (so its stipple runs one fragment
// late there). These scenes are compared with the rule only.
std::vector<Point> cornerLines() {
  return {{2.5, 3.5},   {30.5, 10.5},  // slope 1/4: every fourth column on a pixel edge
          {60.5, 12.5}, {40.5, 22.5},  // slope -1/2, right to left
          {5.5, 60.5},  {11.5, 20.5},  // y-major, bottom to top, edges every 20 rows
          {40.5, 50.5}, {50.5, 30.5},  // y-major, bottom to top, slope -1/2
          {20.5, 30.5}, {30.5, 50.5}}; // y-major, top to bottom, x on an edge every other row
}

TEST(DrawLineRasterization, BresenhamLinesMatchTheDiamondExitRuleAndLavapipe) {
  // "Bresenham Line Segment Rasterization", widths 1 and 3 (runs of 3 along the minor axis).
  for (float width : {1.0f, 3.0f}) {
    SCOPED_TRACE(width);
    LineScene scene;
    scene.mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    scene.width = width;
    scene.points = centreLines();
    checkScene(scene, int(150 * width));
    scene.points = slopedLines();
    checkScene(scene, int(150 * width));
    scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    checkScene(scene, int(300 * width));
    scene.points = centreStrip();
    checkScene(scene, int(150 * width));
  }
}

TEST(DrawLineRasterization, BresenhamLinesThroughDiamondCornersFollowThePerturbation) {
  // "To avoid difficulties when an endpoint lies on a boundary of R_f we (in principle) perturb
  // the supplied endpoints by a tiny amount": the pixel the perturbed line enters. Compared with
  // the rule only (cornerLines says why).
  for (float width : {1.0f, 3.0f})
    for (VkPrimitiveTopology topology : {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP}) {
      SCOPED_TRACE(testing::Message() << "width " << width << " topology " << topology);
      LineScene scene;
      scene.mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
      scene.width = width;
      scene.topology = topology;
      scene.points = cornerLines();
      checkScene(scene, int(100 * width), false);
      scene.stipple = true;
      scene.factor = 1;
      scene.pattern = 0x3A5C;
      checkScene(scene, int(50 * width), false);
    }
}

TEST(DrawLineRasterization, StippledBresenhamLinesMatchTheRuleAndLavapipe) {
  // "Line Stipple" on Bresenham lines: s counts fragments from each segment's start (a run of a
  // wide line shares one), reset per segment of a list, carried on along a strip.
  for (float width : {1.0f, 3.0f})
    for (const auto& [factor, pattern] : {std::pair<uint32_t, uint16_t>{1, 0x3A5C}, std::pair<uint32_t, uint16_t>{3, 0x0F35}}) {
      SCOPED_TRACE(testing::Message() << "width " << width << " factor " << factor);
      LineScene scene;
      scene.mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
      scene.width = width;
      scene.stipple = true;
      scene.factor = factor;
      scene.pattern = pattern;
      scene.points = centreLines();
      checkScene(scene, int(50 * width));
      scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
      scene.points = centreStrip();
      checkScene(scene, int(50 * width));
    }
}

TEST(DrawLineRasterization, StippleRunsOnAlongAGeometryStagesStrips) {
  // "s is reset to 0 at the start of each strip": the strips a geometry stage emits are strips
  // too, of three segments each here, so the counter runs on within each and restarts with the
  // next, for both modes.
  for (VkLineRasterizationModeEXT mode : {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}) {
    SCOPED_TRACE(mode);
    LineScene scene;
    scene.mode = mode;
    scene.geometryStrips = true;
    scene.stipple = true;
    scene.factor = 1;
    scene.pattern = 0x3A5C;
    if (mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) {
      scene.points = {{2.5, 3.5}, {31.5, 10.5}, {60.5, 17.5}, {39.5, 27.5},
                      {33.5, 60.5}, {8.5, 41.5}, {39.5, 50.5}, {60.5, 33.5}};
    } else {
      const std::vector<Point> strip = integerStrip();
      scene.points.assign(strip.begin(), strip.begin() + 8);
    }
    checkScene(scene, 40);
  }
}

TEST(DrawLineRasterization, SmoothLinesCoverTheirAreaAndMatchLavapipe) {
  // "Smooth Lines": RECTANGULAR's rectangle; each covered pixel's coverage value, "the area of
  // the intersection of the rectangle with the pixel square", multiplies colour location 0's
  // alpha (1 here, blending off: the alpha written is the coverage value).
  for (float width : {1.0f, 3.0f}) {
    SCOPED_TRACE(width);
    LineScene scene;
    scene.mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
    scene.width = width;
    scene.points = slopedLines();
    checkScene(scene, int(150 * width));
    scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    checkScene(scene, int(300 * width));
  }
}

TEST(DrawLineRasterization, StippledSmoothLinesCoverTheKeptUnitRectangles) {
  // "Line Stipple" on smooth lines: the coverage value counts the parts of the pixel square in
  // the unit-length rectangles the stipple keeps. Compared with the rule only: lavapipe's
  // stipple stage cuts the line into separate smooth lines, each with soft ends of its own, so
  // its pixels at the pieces' ends differ from the kept rectangles' area (by up to 0.14 here).
  for (float width : {1.0f, 3.0f})
    for (const auto& [factor, pattern] : {std::pair<uint32_t, uint16_t>{1, 0x3A5C}, std::pair<uint32_t, uint16_t>{3, 0x0F35}}) {
      SCOPED_TRACE(testing::Message() << "width " << width << " factor " << factor);
      LineScene scene;
      scene.mode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
      scene.width = width;
      scene.stipple = true;
      scene.factor = factor;
      scene.pattern = pattern;
      scene.points = slopedLines();
      checkScene(scene, int(60 * width), false);
      scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
      checkScene(scene, int(100 * width), false);
    }
}

TEST(DrawLineRasterization, LineStippleSetByTheCommandBuffer) {
  // VK_DYNAMIC_STATE_LINE_STIPPLE_EXT: vkCmdSetLineStippleEXT's factor and pattern replace the
  // pipeline's (factor 1, pattern 0xFFFF there: unstippled-looking).
  for (VkLineRasterizationModeEXT mode : {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}) {
    SCOPED_TRACE(mode);
    LineScene scene;
    scene.mode = mode;
    scene.stipple = true;
    scene.dynamicStipple = true;
    scene.factor = 3;
    scene.pattern = 0x0F35;
    scene.points = mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT ? centreLines() : slopedLines();
    checkScene(scene, 50);
  }
}

TEST(DrawLineRasterization, TheKhrNameDrawsTheSameLines) {
  // VK_KHR_line_rasterization (Vulkan 1.4's name for the extension, which the CTS 1.3.10 asks
  // for) enabled instead of the EXT: the same rules. Compared with the rule only: lavapipe
  // 22.3.6 offers the EXT alone. The stipple is the pipeline's: the validation layers of this
  // SDK (1.3.239) predate vkCmdSetLineStippleKHR, pass it through unseen and would then report
  // the dynamic stipple as never set; render() checks that the device resolves the command.
  for (VkLineRasterizationModeEXT mode : {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT,
                                          VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT}) {
    SCOPED_TRACE(mode);
    LineScene scene;
    scene.khrName = true;
    scene.mode = mode;
    scene.stipple = true;
    scene.factor = 3;
    scene.pattern = 0x0F35;
    scene.points = mode == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT ? centreLines() : slopedLines();
    checkScene(scene, 50, false);
  }
}

TEST(DrawLineRasterization, FeaturesAndProperties) {
  // Every mode, stippled or not. lineSubPixelPrecisionBits is the sub-pixel grid line endpoints
  // are snapped to.
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(drivers.tessera, nullptr, &count, extensions.data());
  bool offered = false, offeredKhr = false;
  for (const VkExtensionProperties& e : extensions) {
    offered |= std::string(e.extensionName) == VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME;
    offeredKhr |= std::string(e.extensionName) == "VK_KHR_line_rasterization" && e.specVersion == 1;
  }
  EXPECT_TRUE(offered);
  EXPECT_TRUE(offeredKhr);
  VkPhysicalDeviceLineRasterizationFeaturesEXT features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features};
  vkGetPhysicalDeviceFeatures2(drivers.tessera, &f2);
  EXPECT_TRUE(features.rectangularLines);
  EXPECT_TRUE(features.bresenhamLines);
  EXPECT_TRUE(features.stippledRectangularLines);
  EXPECT_TRUE(features.stippledBresenhamLines);
  EXPECT_TRUE(features.smoothLines);
  EXPECT_TRUE(features.stippledSmoothLines);
  VkPhysicalDeviceLineRasterizationPropertiesEXT lineProperties{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &lineProperties};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &p2);
  EXPECT_EQ(lineProperties.lineSubPixelPrecisionBits, 8u);
  EXPECT_EQ(p2.properties.limits.subPixelPrecisionBits, 8u);
  EXPECT_TRUE(p2.properties.limits.strictLines);  // DEFAULT lines are the strict rectangles
}

TEST(DrawLineRasterization, DefaultLinesAreTheStrictRectangles) {
  // strictLines: "lines are rasterized as per the strict definition" ("Basic Line Segment
  // Rasterization"), which VK_EXT_line_rasterization's DEFAULT mode then means: the same images
  // as RectangularLinesMatchTheRuleAndLavapipe, with the mode left at DEFAULT.
  checkSlopedLines(VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT);
}

}  // namespace
}  // namespace tessera_test
