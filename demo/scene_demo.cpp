// The README's 3D demo: a grid of textured, lit cubes on a floor, rendered through the graphics
// pipeline (dynamic rendering, depth test, a mipmapped texture through a trilinear sampler,
// 4x MSAA resolved into a single-sample image) on Tessera and on lavapipe, timed per frame,
// saved as a PNG and compared pixel by pixel.
//   scene_demo [--out scene.png] [--size W H] [--grid N] [--frames N]
//              [--tessera MANIFEST] [--lavapipe MANIFEST|none] [--window SECONDS]
// With an X11 display ($DISPLAY), Tessera's picture is also shown in a window for --window
// seconds (3 by default, 0 for none), presented through Tessera's own swapchain.
// Each driver renders in its own child process (this binary again, with --render and
// VK_DRIVER_FILES naming one manifest): the loader then sees exactly one driver, so neither
// can be picked by mistake, and one driver's crash cannot hide the other's result.
#include <unistd.h>
#include <vulkan/vulkan.h>

#include "png_writer.h"
#include "scene_window.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "scene_frag.h"
#include "scene_vert.h"

namespace {

#define CHECK(expr)                                             \
  do {                                                          \
    VkResult r_ = (expr);                                       \
    if (r_ != VK_SUCCESS) {                                     \
      std::fprintf(stderr, "%s failed: %d\n", #expr, int(r_));  \
      std::exit(1);                                             \
    }                                                           \
  } while (0)

using Clock = std::chrono::steady_clock;

struct Options {
  std::string out = "scene.png", render, tessera = TESSERA_ICD_JSON,
              lavapipe = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
  // Five timed frames: enough for a stable mean, and the demo stays well under a minute on a
  // two-core machine.
  uint32_t width = 1280, height = 720, grid = 20, frames = 5;
  double windowSeconds = 3;
  std::string show;  // the child that shows a picture: its raw RGBA file
};

// ---- A little linear algebra (column-major, as GLSL reads it) ----
struct Vec3 { float x, y, z; };
Vec3 sub(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 normalize(Vec3 a) { float l = std::sqrt(dot(a, a)); return {a.x / l, a.y / l, a.z / l}; }
using Mat4 = std::array<float, 16>;
Mat4 mul(const Mat4& a, const Mat4& b) {
  Mat4 m{};
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      for (int k = 0; k < 4; ++k) m[c * 4 + r] += a[k * 4 + r] * b[c * 4 + k];
  return m;
}
Mat4 lookAt(Vec3 eye, Vec3 at, Vec3 up) {
  Vec3 f = normalize(sub(at, eye)), s = normalize(cross(f, up)), u = cross(s, f);
  return {s.x, u.x, -f.x, 0, s.y, u.y, -f.y, 0, s.z, u.z, -f.z, 0, -dot(s, eye), -dot(u, eye), dot(f, eye), 1};
}
// Vulkan clip space: y points down and depth runs 0..1, hence -f and the far/(near-far) terms.
Mat4 perspective(float fovY, float aspect, float n, float f) {
  float t = 1.0f / std::tan(fovY / 2);
  return {t / aspect, 0, 0, 0, 0, -t, 0, 0, 0, 0, f / (n - f), -1, 0, 0, n * f / (n - f), 0};
}

// ---- The scene ----
struct Vertex { float pos[3], normal[3], uv[2]; };
struct Instance { float posUvScale[4], scale[4], axisAngle[4], tint[4]; };
struct SceneUniforms { Mat4 viewProj; float lightDir[4], cameraPos[4], fogColor[4]; };

// A unit cube, four vertices per face so each face has its own normal and texture corners.
void cube(std::vector<Vertex>& v, std::vector<uint16_t>& idx) {
  // Per face: normal n and tangents u, v with u x v = n, so the corners below go
  // counter-clockwise seen from outside; v points up on the side faces.
  const float f[6][3][3] = {{{1, 0, 0}, {0, 0, -1}, {0, 1, 0}},  {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
                            {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},   {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
                            {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},   {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}}};
  const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (auto& face : f) {
    auto base = uint16_t(v.size());
    for (auto& c : corner) {
      Vertex x{};
      for (int i = 0; i < 3; ++i) {
        x.pos[i] = 0.5f * (face[0][i] + c[0] * face[1][i] + c[1] * face[2][i]);
        x.normal[i] = face[0][i];
      }
      x.uv[0] = 0.5f + 0.5f * c[0];
      x.uv[1] = 0.5f - 0.5f * c[1];
      v.push_back(x);
    }
    for (uint16_t i : {0, 1, 2, 0, 2, 3}) idx.push_back(uint16_t(base + i));
  }
}

float hash(uint32_t i) {  // a repeatable pseudo-random number in [0, 1)
  i = (i ^ 61u) ^ (i >> 16);
  i *= 9u;
  i ^= i >> 4;
  i *= 0x27d4eb2du;
  i ^= i >> 15;
  return float(i & 0xffffff) / float(0x1000000);
}

// grid x grid cubes of random size, orientation and tint, standing on a floor (one flattened
// cube whose texture repeats many times, so the distance shows off the mipmaps).
std::vector<Instance> instances(uint32_t grid) {
  std::vector<Instance> out;
  const float spacing = 2.0f, half = spacing * float(grid) / 2;
  out.push_back({{0, -0.05f, 0, float(grid) * 2}, {2 * half + 8, 0.1f, 2 * half + 8, 0}, {0, 1, 0, 0}, {0.72f, 0.68f, 0.62f, 1}});
  for (uint32_t z = 0; z < grid; ++z)
    for (uint32_t x = 0; x < grid; ++x) {
      uint32_t id = z * grid + x;
      float s = 0.6f + 0.6f * hash(id * 7 + 1);
      Vec3 axis = normalize({hash(id * 7 + 2) - 0.5f, 1.0f, hash(id * 7 + 3) - 0.5f});
      float angle = 6.2831853f * hash(id * 7 + 4);
      float lift = 0.3f * hash(id * 7 + 5);  // some float a little, some sink into the floor
      out.push_back({{-half + spacing * (float(x) + 0.5f), s * 0.5f + lift - 0.15f, -half + spacing * (float(z) + 0.5f), 1},
                     {s, s, s, 0},
                     {axis.x, axis.y, axis.z, angle},
                     {0, 0, 0, 1}});
      // A random hue from a cosine palette, kept away from black.
      float hue = hash(id * 7 + 6);
      for (int c = 0; c < 3; ++c) out.back().tint[c] = 0.3f + 0.35f * (1 + std::cos(6.2831853f * (hue + float(c) / 3)));
    }
  return out;
}

// 256x256 bricks with mortar, every mip level box-filtered on the CPU (all levels in one buffer).
std::vector<uint8_t> brickTexture(uint32_t size, uint32_t& levels) {
  std::vector<uint8_t> all(size_t(size) * size * 4);
  for (uint32_t y = 0; y < size; ++y)
    for (uint32_t x = 0; x < size; ++x) {
      uint32_t row = y / 32, bx = (x + (row & 1) * 32) % size;  // rows of 64x32 bricks, offset
      bool mortar = y % 32 < 3 || bx % 64 < 3;
      float shade = 0.75f + 0.25f * hash(row * 16 + bx / 64) + 0.08f * (hash(y * size + x) - 0.5f);
      uint8_t* p = &all[(size_t(y) * size + x) * 4];
      // Light bricks and dark mortar, nearly grey: the per-instance tint gives the colour.
      float r = mortar ? 0.35f : 0.95f * shade, g = mortar ? 0.34f : 0.90f * shade, b = mortar ? 0.32f : 0.84f * shade;
      p[0] = uint8_t(r * 255), p[1] = uint8_t(g * 255), p[2] = uint8_t(b * 255), p[3] = 255;
    }
  levels = 1;
  size_t src = 0;
  for (uint32_t s = size; s > 1; s /= 2, ++levels) {
    uint32_t d = s / 2;
    size_t dst = all.size();
    all.resize(dst + size_t(d) * d * 4);
    for (uint32_t y = 0; y < d; ++y)
      for (uint32_t x = 0; x < d; ++x)
        for (int c = 0; c < 4; ++c) {
          auto at = [&](uint32_t xx, uint32_t yy) { return uint32_t(all[src + (size_t(yy) * s + xx) * 4 + c]); };
          all[dst + (size_t(y) * d + x) * 4 + c] =
              uint8_t((at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1) + 2) / 4);
        }
    src = dst;
  }
  return all;
}

// ---- Vulkan plumbing ----
struct Gpu {
  VkPhysicalDevice pd;
  VkDevice dev;
  VkPhysicalDeviceMemoryProperties mp;
  uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags want) const {
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
    std::fprintf(stderr, "no suitable memory type\n");
    std::exit(1);
  }
  VkDeviceMemory allocate(VkMemoryRequirements req, VkMemoryPropertyFlags want) const {
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, memoryType(req.memoryTypeBits, want)};
    VkDeviceMemory m;
    CHECK(vkAllocateMemory(dev, &mai, nullptr, &m));
    return m;
  }
  // A host-visible buffer filled with `data` (or left for the device to fill when null).
  VkBuffer buffer(VkDeviceSize size, VkBufferUsageFlags usage, const void* data, void** mapped = nullptr) const {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, nullptr, 0, size, usage};
    VkBuffer b;
    CHECK(vkCreateBuffer(dev, &bci, nullptr, &b));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b, &req);
    VkDeviceMemory m = allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    CHECK(vkBindBufferMemory(dev, b, m, 0));
    void* p;
    CHECK(vkMapMemory(dev, m, 0, VK_WHOLE_SIZE, 0, &p));
    if (data) std::memcpy(p, data, size);
    if (mapped) *mapped = p;
    return b;
  }
  VkImage image(VkFormat format, uint32_t w, uint32_t h, uint32_t levels, VkSampleCountFlagBits samples,
                VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImageView* view) const {
    VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ii.imageType = VK_IMAGE_TYPE_2D;
    ii.format = format;
    ii.extent = {w, h, 1};
    ii.mipLevels = levels;
    ii.arrayLayers = 1;
    ii.samples = samples;
    ii.usage = usage;
    VkImage img;
    CHECK(vkCreateImage(dev, &ii, nullptr, &img));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, img, &req);
    CHECK(vkBindImageMemory(dev, img, allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT), 0));
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = img;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {aspect, 0, levels, 0, 1};
    CHECK(vkCreateImageView(dev, &vi, nullptr, view));
    return img;
  }
};

void barrier(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect, uint32_t levels, VkImageLayout from,
             VkImageLayout to, VkAccessFlags src, VkAccessFlags dst, VkPipelineStageFlags srcStage,
             VkPipelineStageFlags dstStage) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, nullptr, src, dst, from, to,
                         VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED, image, {aspect, 0, levels, 0, 1}};
  vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

// The child: renders with whichever driver VK_DRIVER_FILES names, writes the resolved picture
// as raw RGBA to o.render and prints "device: ..." and "ms: ..." for the parent.
int render(const Options& o) {
  const uint32_t W = o.width, H = o.height;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-scene-demo";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, nullptr, &instance));
  uint32_t count = 1;
  Gpu g{};
  if (vkEnumeratePhysicalDevices(instance, &count, &g.pd) < 0 || count == 0) {
    std::fprintf(stderr, "no Vulkan device\n");
    return 1;
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(g.pd, &props);
  vkGetPhysicalDeviceMemoryProperties(g.pd, &g.mp);
  std::printf("device: %s\n", props.deviceName);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.dynamicRendering = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f13};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  CHECK(vkCreateDevice(g.pd, &dci, nullptr, &g.dev));
  VkDevice dev = g.dev;
  VkQueue queue;
  vkGetDeviceQueue(dev, 0, 0, &queue);

  // Geometry, instances, uniforms.
  std::vector<Vertex> verts;
  std::vector<uint16_t> idx;
  cube(verts, idx);
  std::vector<Instance> inst = instances(o.grid);
  VkBuffer vb = g.buffer(verts.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, verts.data());
  VkBuffer ib = g.buffer(idx.size() * 2, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx.data());
  VkBuffer instb = g.buffer(inst.size() * sizeof(Instance), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, inst.data());
  const float extent = float(o.grid);  // the camera backs off as the grid grows
  Vec3 eye{-0.55f * extent, 0.6f * extent, 0.95f * extent}, at{0.1f * extent, 0, -0.1f * extent};
  SceneUniforms u{mul(perspective(0.9f, float(W) / float(H), 0.1f, 8.0f * extent), lookAt(eye, at, {0, 1, 0})),
                  {0, 0, 0, 0}, {eye.x, eye.y, eye.z, 1}, {0.62f, 0.74f, 0.88f, 1.2f / (extent * extent * 4)}};
  Vec3 light = normalize({0.5f, 1.0f, 0.3f});
  std::memcpy(u.lightDir, &light, sizeof light);
  VkBuffer ub = g.buffer(sizeof u, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &u);

  // Texture with all mips, and a trilinear sampler.
  const uint32_t T = 256;
  uint32_t levels;
  std::vector<uint8_t> texels = brickTexture(T, levels);
  VkBuffer staging = g.buffer(texels.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, texels.data());
  VkImageView texView;
  VkImage tex = g.image(VK_FORMAT_R8G8B8A8_UNORM, T, T, levels, VK_SAMPLE_COUNT_1_BIT,
                        VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT, &texView);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sci.maxLod = float(levels);
  VkSampler sampler;
  CHECK(vkCreateSampler(dev, &sci, nullptr, &sampler));

  // Attachments: 4x colour and depth, resolved into a 1x colour image that is read back.
  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM, depthFormat = VK_FORMAT_D32_SFLOAT;
  VkImageView msView, depthView, resolveView;
  VkImage msColor = g.image(colorFormat, W, H, 1, VK_SAMPLE_COUNT_4_BIT, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT, &msView);
  VkImage depth = g.image(depthFormat, W, H, 1, VK_SAMPLE_COUNT_4_BIT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                          VK_IMAGE_ASPECT_DEPTH_BIT, &depthView);
  VkImage resolved = g.image(colorFormat, W, H, 1, VK_SAMPLE_COUNT_1_BIT,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                             VK_IMAGE_ASPECT_COLOR_BIT, &resolveView);
  void* pixels;
  VkBuffer readback = g.buffer(VkDeviceSize(W) * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, nullptr, &pixels);

  // Descriptors and pipeline.
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  VkDescriptorSetLayout setLayout;
  CHECK(vkCreateDescriptorSetLayout(dev, &dli, nullptr, &setLayout));
  VkDescriptorPoolSize poolSizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
  VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, poolSizes};
  VkDescriptorPool descriptorPool;
  CHECK(vkCreateDescriptorPool(dev, &dpi, nullptr, &descriptorPool));
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
  VkDescriptorBufferInfo bufferInfo{ub, 0, VK_WHOLE_SIZE};
  VkDescriptorImageInfo imageInfo{sampler, texView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkWriteDescriptorSet writes[2] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr, &bufferInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &imageInfo}};
  vkUpdateDescriptorSets(dev, 2, writes, 0, nullptr);
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  CHECK(vkCreatePipelineLayout(dev, &pli, nullptr, &layout));

  auto module = [&](const uint32_t* code, size_t size) {
    VkShaderModuleCreateInfo smi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, size, code};
    VkShaderModule m;
    CHECK(vkCreateShaderModule(dev, &smi, nullptr, &m));
    return m;
  };
  VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
       module(scene_vert_spv, sizeof scene_vert_spv), "main"},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       module(scene_frag_spv, sizeof scene_frag_spv), "main"}};
  VkVertexInputBindingDescription vbind[2] = {{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX},
                                              {1, sizeof(Instance), VK_VERTEX_INPUT_RATE_INSTANCE}};
  VkVertexInputAttributeDescription attrs[7] = {
      {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, pos)},
      {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
      {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)},
      {3, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Instance, posUvScale)},
      {4, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Instance, scale)},
      {5, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Instance, axisAngle)},
      {6, 1, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(Instance, tint)}};
  VkPipelineVertexInputStateCreateInfo vis{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 2, vbind, 7, attrs};
  VkPipelineInputAssemblyStateCreateInfo ias{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ias.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo vps{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vps.viewportCount = vps.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.cullMode = VK_CULL_MODE_BACK_BIT;
  // The projection flips y into Vulkan's y-down framebuffer, so a face that is counter-clockwise
  // seen from outside still looks counter-clockwise on screen, which Vulkan calls front facing.
  rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo msaa{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  msaa.rasterizationSamples = VK_SAMPLE_COUNT_4_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = ds.depthWriteEnable = VK_TRUE;
  ds.depthCompareOp = VK_COMPARE_OP_LESS;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xf;
  VkPipelineColorBlendStateCreateInfo cbs{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cbs.attachmentCount = 1;
  cbs.pAttachments = &blend;
  VkDynamicState dynamic[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dys{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 2, dynamic};
  VkPipelineRenderingCreateInfo prci{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat, depthFormat};
  VkGraphicsPipelineCreateInfo gpi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &prci};
  gpi.stageCount = 2;
  gpi.pStages = stages;
  gpi.pVertexInputState = &vis;
  gpi.pInputAssemblyState = &ias;
  gpi.pViewportState = &vps;
  gpi.pRasterizationState = &rs;
  gpi.pMultisampleState = &msaa;
  gpi.pDepthStencilState = &ds;
  gpi.pColorBlendState = &cbs;
  gpi.pDynamicState = &dys;
  gpi.layout = layout;
  VkPipeline pipeline;
  CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpi, nullptr, &pipeline));

  // Command buffers: one uploads the texture, one draws a frame (recorded once, submitted
  // for every frame), one copies the picture out.
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(dev, &cpci, nullptr, &pool));
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 3};
  VkCommandBuffer upload, frame, copyOut;
  {
    VkCommandBuffer cbs3[3];
    CHECK(vkAllocateCommandBuffers(dev, &cbai, cbs3));
    upload = cbs3[0], frame = cbs3[1], copyOut = cbs3[2];
  }
  VkCommandBufferBeginInfo cbbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  auto submit = [&](VkCommandBuffer cb) {
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
  };

  CHECK(vkBeginCommandBuffer(upload, &cbbi));
  barrier(upload, tex, VK_IMAGE_ASPECT_COLOR_BIT, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
          VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  std::vector<VkBufferImageCopy> regions;
  for (uint32_t l = 0, offset = 0; l < levels; offset += (T >> l) * (T >> l) * 4, ++l)
    regions.push_back({offset, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1}, {0, 0, 0}, {T >> l, T >> l, 1}});
  vkCmdCopyBufferToImage(upload, staging, tex, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()), regions.data());
  barrier(upload, tex, VK_IMAGE_ASPECT_COLOR_BIT, levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
  CHECK(vkEndCommandBuffer(upload));
  submit(upload);

  CHECK(vkBeginCommandBuffer(frame, &cbbi));
  // Every frame clears all three attachments, so their old contents may be discarded (UNDEFINED).
  const VkPipelineStageFlags colorStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             depthStages = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  for (VkImage img : {msColor, resolved})
    barrier(frame, img, VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            VK_ACCESS_TRANSFER_READ_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | colorStage, colorStage);
  barrier(frame, depth, VK_IMAGE_ASPECT_DEPTH_BIT, 1, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
          VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
          depthStages, depthStages);
  VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAtt.imageView = msView;
  colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAtt.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
  colorAtt.resolveImageView = resolveView;
  colorAtt.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;  // only the resolved picture is kept
  colorAtt.clearValue.color = {{u.fogColor[0], u.fogColor[1], u.fogColor[2], 1.0f}};
  VkRenderingAttachmentInfo depthAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  depthAtt.imageView = depthView;
  depthAtt.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
  depthAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depthAtt.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depthAtt.clearValue.depthStencil = {1.0f, 0};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {W, H}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  ri.pDepthAttachment = &depthAtt;
  vkCmdBeginRendering(frame, &ri);
  vkCmdBindPipeline(frame, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(frame, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  VkViewport viewport{0, 0, float(W), float(H), 0, 1};
  VkRect2D scissor{{0, 0}, {W, H}};
  vkCmdSetViewport(frame, 0, 1, &viewport);
  vkCmdSetScissor(frame, 0, 1, &scissor);
  VkBuffer vbs[2] = {vb, instb};
  VkDeviceSize offsets[2] = {0, 0};
  vkCmdBindVertexBuffers(frame, 0, 2, vbs, offsets);
  vkCmdBindIndexBuffer(frame, ib, 0, VK_INDEX_TYPE_UINT16);
  vkCmdDrawIndexed(frame, uint32_t(idx.size()), uint32_t(inst.size()), 0, 0, 0);  // floor + every cube
  vkCmdEndRendering(frame);
  CHECK(vkEndCommandBuffer(frame));

  CHECK(vkBeginCommandBuffer(copyOut, &cbbi));
  barrier(copyOut, resolved, VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
          colorStage, VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkBufferImageCopy copy{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
  vkCmdCopyImageToBuffer(copyOut, resolved, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(copyOut, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  CHECK(vkEndCommandBuffer(copyOut));

  // One frame to warm up (first-use costs: shader code, thread start-up), then the timed frames,
  // each waited for, so that a frame's time is its whole render on the CPU.
  submit(frame);
  auto start = Clock::now();
  for (uint32_t i = 0; i < o.frames; ++i) submit(frame);
  double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / o.frames;
  submit(copyOut);
  std::printf("ms: %.3f\n", ms);

  FILE* f = std::fopen(o.render.c_str(), "wb");
  if (!f || std::fwrite(pixels, 1, size_t(W) * H * 4, f) != size_t(W) * H * 4 || std::fclose(f) != 0) {
    std::fprintf(stderr, "could not write %s\n", o.render.c_str());
    return 1;
  }
  // This process exists for this one render and ends here, the queue idle: the OS takes back
  // the objects, as it would for any program that exits without destroying them.
  return 0;
}


struct Run {
  bool ok = false;
  std::string device;
  double ms = 0;
  std::vector<uint8_t> rgba;
};

// Runs this binary again with --render, VK_DRIVER_FILES naming `manifest` alone.
Run runChild(const Options& o, const std::string& manifest, const std::string& rawPath) {
  Run r;
  setenv("VK_DRIVER_FILES", manifest.c_str(), 1);
  setenv("VK_ICD_FILENAMES", manifest.c_str(), 1);  // the name older loaders read
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return r;
  self[n] = 0;
  std::string cmd = "'" + std::string(self) + "' --render '" + rawPath + "' --size " + std::to_string(o.width) + " " +
                    std::to_string(o.height) + " --grid " + std::to_string(o.grid) + " --frames " + std::to_string(o.frames);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    if (!std::strncmp(line, "device: ", 8)) r.device.assign(line + 8, std::strcspn(line + 8, "\n"));
    if (!std::strncmp(line, "ms: ", 4)) r.ms = std::atof(line + 4);
  }
  bool exited = pclose(p) == 0;
  r.rgba.resize(size_t(o.width) * o.height * 4);
  FILE* f = exited ? std::fopen(rawPath.c_str(), "rb") : nullptr;
  r.ok = f && std::fread(r.rgba.data(), 1, r.rgba.size(), f) == r.rgba.size();
  if (f) std::fclose(f);
  std::remove(rawPath.c_str());
  return r;
}

// The --show child: reads the raw picture and shows it (scene_window.cpp).
int showChild(const Options& o) {
  std::vector<uint8_t> rgba(size_t(o.width) * o.height * 4);
  FILE* f = std::fopen(o.show.c_str(), "rb");
  const bool read = f && std::fread(rgba.data(), 1, rgba.size(), f) == rgba.size();
  if (f) std::fclose(f);
  if (!read) {
    std::fprintf(stderr, "could not read %s\n", o.show.c_str());
    return 1;
  }
  return showSceneInWindow(rgba.data(), o.width, o.height, o.windowSeconds);
}

// Shows Tessera's picture in a window when there is an X11 display to show it on, in a child
// process that sees Tessera alone (as the render did). A window that cannot be shown is reported,
// not fatal: the PNG is written already.
void showInWindow(const Options& o, const std::vector<uint8_t>& rgba) {
  const char* display = std::getenv("DISPLAY");
  if (o.windowSeconds <= 0) return;
  if (!display || !*display) {
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if (wayland && *wayland) std::printf("window: none (a Wayland display without X11; the demo's window needs $DISPLAY)\n");
    return;
  }
  const std::string raw = o.out + ".show.rgba";
  FILE* f = std::fopen(raw.c_str(), "wb");
  const bool written = f && std::fwrite(rgba.data(), 1, rgba.size(), f) == rgba.size();
  if (f) std::fclose(f);
  if (!written) {
    std::fprintf(stderr, "could not write %s\n", raw.c_str());
    return;
  }
  setenv("VK_DRIVER_FILES", o.tessera.c_str(), 1);
  setenv("VK_ICD_FILENAMES", o.tessera.c_str(), 1);
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = 0;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", o.windowSeconds);
    const std::string cmd = "'" + std::string(self) + "' --show '" + raw + "' --size " + std::to_string(o.width) + " " +
                            std::to_string(o.height) + " --window " + seconds;
    if (std::system(cmd.c_str()) == 0)
      std::printf("window: shown on %s for %s s through Tessera's swapchain\n", display, seconds);
    else
      std::fprintf(stderr, "window: could not be shown on %s\n", display);
  }
  std::remove(raw.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool more = i + 1 < argc;
    if (a == "--out" && more) o.out = argv[++i];
    else if (a == "--render" && more) o.render = argv[++i];
    else if (a == "--show" && more) o.show = argv[++i];
    else if (a == "--window" && more) o.windowSeconds = std::max(0.0, std::atof(argv[++i]));
    else if (a == "--tessera" && more) o.tessera = argv[++i];
    else if (a == "--lavapipe" && more) o.lavapipe = argv[++i];
    else if (a == "--grid" && more) o.grid = uint32_t(std::atoi(argv[++i]));
    else if (a == "--frames" && more) o.frames = uint32_t(std::max(1, std::atoi(argv[++i])));
    else if (a == "--size" && i + 2 < argc) o.width = uint32_t(std::atoi(argv[++i])), o.height = uint32_t(std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: scene_demo [--out scene.png] [--size W H] [--grid N] [--frames N] "
                           "[--tessera MANIFEST] [--lavapipe MANIFEST|none] [--window SECONDS]\n");
      return 2;
    }
  }
  if (!o.render.empty()) return render(o);
  if (!o.show.empty()) return showChild(o);

  Run tessera = runChild(o, o.tessera, o.out + ".tessera.rgba");
  if (!tessera.ok) {
    std::fprintf(stderr, "the scene did not render on Tessera (%s)\n", o.tessera.c_str());
    return 1;
  }
  if (!writePng(o.out.c_str(), o.width, o.height, tessera.rgba.data())) {
    std::fprintf(stderr, "could not write %s\n", o.out.c_str());
    return 1;
  }
  char what[160];
  std::snprintf(what, sizeof what, "scene %ux%u 4xMSAA, %u cubes, %u frames:", o.width, o.height, o.grid * o.grid, o.frames);
  bool haveLavapipe = o.lavapipe != "none" && access(o.lavapipe.c_str(), R_OK) == 0;
  Run lavapipe;
  if (haveLavapipe) lavapipe = runChild(o, o.lavapipe, o.out + ".lavapipe.rgba");
  if (!lavapipe.ok) {
    std::printf("%s Tessera %.1f ms/frame (the image: %s; lavapipe %s)\n", what, tessera.ms, o.out.c_str(),
                haveLavapipe ? "failed" : "not installed");
    showInWindow(o, tessera.rgba);
    return 0;
  }
  std::printf("%s Tessera %.1f ms/frame, lavapipe %.1f ms/frame (the image: %s)\n", what, tessera.ms, lavapipe.ms,
              o.out.c_str());
  std::printf("devices: %s / %s\n", tessera.device.c_str(), lavapipe.device.c_str());
  // Both drivers follow the same rasterization rules (top-left fill, standard 4x sample
  // positions, 8 subpixel bits), so coverage and depth agree almost everywhere. What may differ
  // is arithmetic: the filter weights of the sampler (lavapipe filters in 8-bit fixed point),
  // the precision of pow/exp/normalize, and rounding in the resolve. These stay within a few
  // units of 255, so a pixel counts as different when a channel differs by more than 8/255.
  // A pixel beyond that is a real disagreement, e.g. a sample on an edge covered by only one.
  const int tolerance = 8;
  size_t differ = 0, total = size_t(o.width) * o.height;
  for (size_t p = 0; p < total; ++p)
    for (int c = 0; c < 3; ++c)
      if (std::abs(int(tessera.rgba[p * 4 + c]) - int(lavapipe.rgba[p * 4 + c])) > tolerance) {
        ++differ;
        break;
      }
  std::printf("images: %zu of %zu pixels (%.3f%%) differ by more than %d/255 in a channel\n", differ, total,
              100.0 * double(differ) / double(total), tolerance);
  showInWindow(o, tessera.rgba);
  return 0;
}
