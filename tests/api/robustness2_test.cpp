// VK_EXT_robustness2 through the loader with validation, on Tessera and on lavapipe: one compute
// dispatch (tests/shaders/robustness2.comp) makes an out-of-range or null-descriptor access of
// every descriptor kind and records what it read. The expected values come from the spec:
// - robustBufferAccess2 ("Robust Buffer Access", VkPhysicalDeviceRobustness2FeaturesEXT): a load
//   past the descriptor's range (rounded up to robust*BufferAccessSizeAlignment, 1 here) reads
//   zero, a store there is discarded, OpArrayLength counts only the range;
// - robustImageAccess2 and texel buffers ("Texel Replacement", "Conversion to RGBA"): an
//   out-of-range texel is zero with (0, 0, 1) for the G, B, A components the format lacks, and
//   the view's "Component Swizzle" comes after that;
// - nullDescriptor ("Descriptor Set Updates", nullDescriptor): a VK_NULL_HANDLE buffer, texel
//   buffer or image view reads as all zeros, writes nothing and has size zero.
// Vertex input (a binding's range, a null vertex buffer): "Vertex Input Extraction" with
// robustBufferAccess2, drawn points read back.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

using U4 = std::array<uint32_t, 4>;

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
constexpr uint32_t kOne = 0x3F800000u;  // 1.0f

// A device with robustBufferAccess (which robustBufferAccess2 needs) and the three features.
struct RobustDevice {
  explicit RobustDevice(VkPhysicalDevice pd) {
    features.robustBufferAccess = VK_TRUE;
    features.vertexPipelineStoresAndAtomics = VK_TRUE;  // the vertex test stores what it read
    robustness2.robustBufferAccess2 = VK_TRUE;
    robustness2.robustImageAccess2 = VK_TRUE;
    robustness2.nullDescriptor = VK_TRUE;
    robustness2.pNext = &v13;
    v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
    v13.dynamicRendering = VK_TRUE;
    device = std::make_unique<TestDevice>(pd, &features, &robustness2, std::vector<const char*>{"VK_EXT_robustness2"});
  }
  VkPhysicalDeviceFeatures features{};
  VkPhysicalDeviceRobustness2FeaturesEXT robustness2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  std::unique_ptr<TestDevice> device;
};

bool supportsRobustness2(VkPhysicalDevice pd) {
  VkPhysicalDeviceRobustness2FeaturesEXT r{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &r};
  vkGetPhysicalDeviceFeatures2(pd, &f);
  return r.robustBufferAccess2 && r.robustImageAccess2 && r.nullDescriptor;
}

// Objects made for one run, destroyed together.
struct Scratch {
  explicit Scratch(VkDevice d) : dev(d) {}
  ~Scratch() {
    for (auto it = undo.rbegin(); it != undo.rend(); ++it) (*it)();
  }
  VkDevice dev;
  std::vector<std::function<void()>> undo;
};

VkBuffer mappedBuffer(TestDevice& d, Scratch& s, const std::vector<uint32_t>& words, VkBufferUsageFlags usage, void** mapped) {
  VkBuffer b = d.createMappedBuffer(words.size() * 4, usage, mapped);
  std::memcpy(*mapped, words.data(), words.size() * 4);
  s.undo.push_back([dev = d.dev, b] { vkDestroyBuffer(dev, b, nullptr); });
  return b;
}

VkBufferView texelView(Scratch& s, VkBuffer buffer, VkFormat format) {
  VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, nullptr, 0, buffer, format, 0, VK_WHOLE_SIZE};
  VkBufferView v = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateBufferView(s.dev, &ci, nullptr, &v), VK_SUCCESS);
  s.undo.push_back([dev = s.dev, v] { vkDestroyBufferView(dev, v, nullptr); });
  return v;
}

// A 2x2 image in GENERAL layout holding `texels` (tightly packed), and a view of it.
struct Image2x2 {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};
Image2x2 image2x2(TestDevice& d, Scratch& s, VkFormat format, VkImageUsageFlags usage, const std::vector<uint8_t>& texels,
                  VkComponentMapping swizzle = {}) {
  Image2x2 out;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {2, 2, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  EXPECT_EQ(vkCreateImage(s.dev, &ici, nullptr, &out.image), VK_SUCCESS);
  d.bindMemory(out.image);
  s.undo.push_back([dev = s.dev, i = out.image] { vkDestroyImage(dev, i, nullptr); });
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, nullptr, 0, out.image, VK_IMAGE_VIEW_TYPE_2D, format, swizzle,
                            {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  EXPECT_EQ(vkCreateImageView(s.dev, &vci, nullptr, &out.view), VK_SUCCESS);
  s.undo.push_back([dev = s.dev, v = out.view] { vkDestroyImageView(dev, v, nullptr); });
  // Upload through a staging buffer.
  std::vector<uint32_t> words((texels.size() + 3) / 4);
  std::memcpy(words.data(), texels.data(), texels.size());
  void* mapped;
  VkBuffer staging = mappedBuffer(d, s, words, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &mapped);
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(s.dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(s.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = out.image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
  VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}};
  vkCmdCopyBufferToImage(cmd, staging, out.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
  b.oldLayout = b.newLayout;
  b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
  vkEndCommandBuffer(cmd);
  d.submitAndWait(cmd);
  vkDestroyCommandPool(s.dev, pool, nullptr);
  return out;
}

std::vector<uint8_t> floatBytes(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// What one dispatch of robustness2.comp read (o[0..17]), and the buffers and image it must not
// have changed out of range.
struct Results {
  std::vector<U4> o;
  std::vector<uint32_t> ssbo;     // the whole 16-word buffer behind the 4-word range
  std::vector<float> imageR32f;   // the 2x2 storage image after the dispatch
};

constexpr uint32_t kOutputs = 18;

Results runShader(VkPhysicalDevice pd) {
  Results r;
  RobustDevice robust(pd);
  TestDevice& d = *robust.device;
  EXPECT_NE(d.dev, VK_NULL_HANDLE);
  if (!d.dev) return r;
  Scratch s(d.dev);

  std::vector<uint32_t> ssboWords(16), uboWords(16);
  for (uint32_t i = 0; i < 16; ++i) ssboWords[i] = 100 + i, uboWords[i] = 200 + i;
  void *outMap, *ssboMap, *uboMap, *tb1Map, *tb2Map, *tb4Map;
  VkBuffer out = mappedBuffer(d, s, std::vector<uint32_t>(kOutputs * 4, 0xDEADBEEF), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  VkBuffer ssbo = mappedBuffer(d, s, ssboWords, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &ssboMap);
  VkBuffer ubo = mappedBuffer(d, s, uboWords, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &uboMap);
  VkBuffer tb1 = mappedBuffer(d, s, {300, 301, 302, 303}, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &tb1Map);
  VkBuffer tb2 = mappedBuffer(d, s, std::vector<uint32_t>(8, bitsOf(2.5f)), VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &tb2Map);
  VkBuffer tb4 = mappedBuffer(d, s, std::vector<uint32_t>(4, 0x80402010u), VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &tb4Map);
  const VkBufferView tbR32ui = texelView(s, tb1, VK_FORMAT_R32_UINT);
  const VkBufferView tbRG32f = texelView(s, tb2, VK_FORMAT_R32G32_SFLOAT);
  const VkBufferView tbRGBA8 = texelView(s, tb4, VK_FORMAT_R8G8B8A8_UNORM);
  const Image2x2 imgR32f = image2x2(d, s, VK_FORMAT_R32_SFLOAT, VK_IMAGE_USAGE_STORAGE_BIT, floatBytes({1.5f, 2.5f, 3.5f, 4.5f}));
  const Image2x2 imgRGBA8 = image2x2(d, s, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT, std::vector<uint8_t>(16, 0x77));
  const Image2x2 texR8 = image2x2(d, s, VK_FORMAT_R8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT, {51, 102, 153, 204});
  const Image2x2 texSwizzled = image2x2(d, s, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_SAMPLED_BIT,
                                        {0, 0, 0, 0, 10, 20, 30, 40, 0, 0, 0, 0, 0, 0, 0, 0},
                                        {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE});
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler;
  vkCreateSampler(d.dev, &sci, nullptr, &sampler);
  s.undo.push_back([dev = d.dev, sampler] { vkDestroySampler(dev, sampler, nullptr); });

  const VkDescriptorType types[14] = {
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,       VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
      VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
      VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,        VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
      VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,       VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
      VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t b = 0; b < 14; ++b) {
    bindings.push_back({b, types[b], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    sizes.push_back({types[b], 1});
  }
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 14, bindings.data()};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(d.dev, &dslci, nullptr, &setLayout);
  s.undo.push_back([dev = d.dev, setLayout] { vkDestroyDescriptorSetLayout(dev, setLayout, nullptr); });
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(d.dev, &plci, nullptr, &layout);
  s.undo.push_back([dev = d.dev, layout] { vkDestroyPipelineLayout(dev, layout, nullptr); });
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 14, sizes.data()};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(d.dev, &dpci, nullptr, &pool);
  s.undo.push_back([dev = d.dev, pool] { vkDestroyDescriptorPool(dev, pool, nullptr); });
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(d.dev, &dsai, &set);

  const VkDescriptorBufferInfo bufferInfos[4] = {
      {out, 0, VK_WHOLE_SIZE}, {ssbo, 0, 16}, {ubo, 0, 16}, {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE}};
  const VkBufferView texelViews[4] = {tbR32ui, tbRG32f, tbRGBA8, VK_NULL_HANDLE};
  const VkDescriptorImageInfo imageInfos[6] = {{VK_NULL_HANDLE, imgR32f.view, VK_IMAGE_LAYOUT_GENERAL},
                                               {VK_NULL_HANDLE, imgRGBA8.view, VK_IMAGE_LAYOUT_GENERAL},
                                               {sampler, texR8.view, VK_IMAGE_LAYOUT_GENERAL},
                                               {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                                               {sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
                                               {sampler, texSwizzled.view, VK_IMAGE_LAYOUT_GENERAL}};
  std::vector<VkWriteDescriptorSet> writes;
  auto write = [&](uint32_t binding, const VkDescriptorBufferInfo* b, const VkBufferView* t, const VkDescriptorImageInfo* i) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, types[binding], i, b, t};
    writes.push_back(w);
  };
  write(0, &bufferInfos[0], nullptr, nullptr);
  write(1, &bufferInfos[1], nullptr, nullptr);
  write(2, &bufferInfos[2], nullptr, nullptr);
  write(3, nullptr, &texelViews[0], nullptr);
  write(4, nullptr, &texelViews[1], nullptr);
  write(5, nullptr, &texelViews[2], nullptr);
  write(6, nullptr, nullptr, &imageInfos[0]);
  write(7, nullptr, nullptr, &imageInfos[1]);
  write(8, nullptr, nullptr, &imageInfos[2]);
  write(9, &bufferInfos[3], nullptr, nullptr);
  write(10, nullptr, &texelViews[3], nullptr);
  write(11, nullptr, nullptr, &imageInfos[3]);
  write(12, nullptr, nullptr, &imageInfos[4]);
  write(13, nullptr, nullptr, &imageInfos[5]);
  vkUpdateDescriptorSets(d.dev, uint32_t(writes.size()), writes.data(), 0, nullptr);

  const VkShaderModule module = d.createShaderModule(loadCorpusShader("robustness2"));
  s.undo.push_back([dev = d.dev, module] { vkDestroyShaderModule(dev, module, nullptr); });
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline;
  EXPECT_EQ(vkCreateComputePipelines(d.dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
  s.undo.push_back([dev = d.dev, pipeline] { vkDestroyPipeline(dev, pipeline, nullptr); });

  void* readMap;
  VkBuffer readback = mappedBuffer(d, s, std::vector<uint32_t>(4, 0), VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool cmdPool;
  vkCreateCommandPool(d.dev, &cpoolci, nullptr, &cmdPool);
  s.undo.push_back([dev = d.dev, cmdPool] { vkDestroyCommandPool(dev, cmdPool, nullptr); });
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmdPool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(d.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, 1, 1, 1);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &mb, 0, nullptr, 0, nullptr);
  VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {2, 2, 1}};
  vkCmdCopyImageToBuffer(cmd, imgR32f.image, VK_IMAGE_LAYOUT_GENERAL, readback, 1, &region);
  VkMemoryBarrier hb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  d.submitAndWait(cmd);

  r.o.resize(kOutputs);
  std::memcpy(r.o.data(), outMap, kOutputs * 16);
  r.ssbo.resize(16);
  std::memcpy(r.ssbo.data(), ssboMap, 64);
  r.imageR32f.resize(4);
  std::memcpy(r.imageR32f.data(), readMap, 16);
  return r;
}

// The value `o[k]` must hold, from the spec (see the file's comment).
std::vector<U4> expectedOutputs() {
  std::vector<U4> e(kOutputs);
  e[0] = {103, 0, 0, 4};                               // s[3], s[4] and s[1000] out of range, length 4
  e[1] = {200, 201, 202, 203};                         // u[0]
  e[2] = {0, 0, 0, 0};                                 // u[1]: past the 16-byte range
  e[3] = {301, 0, 0, 1};                               // R32_UINT texel 1: (G, B, A) = (0, 0, 1)
  e[4] = {0, 0, 0, 1};                                 // texel 4 of 4: zero, alpha one (no alpha in R32)
  e[5] = {0, 0, 0, kOne};                              // R32G32_SFLOAT out of range
  e[6] = {0, 0, 0, 0};                                 // R8G8B8A8_UNORM out of range: has alpha
  e[7] = {0, 0, 0, kOne};                              // R32_SFLOAT storage image out of range
  e[8] = {0, 0, 0, 0};                                 // RGBA8 storage image out of range
  e[9] = {0, 0, 0, kOne};                              // R8_UNORM fetch out of range
  e[10] = {0, 0, 0, kOne};                             // a level the view does not have
  e[11] = {0, 0, 0, 0};                                // null storage buffer: load, length, atomic
  e[12] = {0, 0, 0, 0};                                // null texel buffer
  e[13] = {0, 0, 0, 0};                                // sizes of null descriptors
  e[14] = {0, 0, 0, 0};                                // null storage image
  e[15] = {0, 0, 0, 0};                                // sampling a null image view
  e[16] = {bitsOf(30 / 255.0f), bitsOf(20 / 255.0f), bitsOf(10 / 255.0f), kOne};  // swizzle (B, G, R, ONE)
  e[17] = {0, 0, 0, kOne};                             // out of range, then the swizzle
  return e;
}

void expectSpecValues(const Results& r, const char* driver) {
  ASSERT_EQ(r.o.size(), kOutputs) << driver;
  const std::vector<U4> e = expectedOutputs();
  for (uint32_t k = 0; k < kOutputs; ++k) {
    if (k == 16) {  // UNORM conversion is exact to within its rounding ("Fixed-Point Data Conversions")
      for (int c = 0; c < 4; ++c) {
        float got, want;
        std::memcpy(&got, &r.o[k][c], 4);
        std::memcpy(&want, &e[k][c], 4);
        EXPECT_NEAR(got, want, 1e-6f) << driver << " o[16] component " << c;
      }
      continue;
    }
    EXPECT_EQ(r.o[k], e[k]) << driver << " o[" << k << "] = (" << r.o[k][0] << ", " << r.o[k][1] << ", " << r.o[k][2] << ", "
                            << r.o[k][3] << ")";
  }
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(r.ssbo[i], 100 + i) << driver << ": an out-of-range store landed in word " << i;
  EXPECT_EQ(r.imageR32f, (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f})) << driver << ": an out-of-range image store landed";
}

// Four points drawn with rasterization discarded; the vertex shader stores what its three
// attributes read. Bindings 0 and 1 hold two vertices each, binding 2 is VK_NULL_HANDLE.
std::vector<std::array<float, 4>> runVertexInput(VkPhysicalDevice pd) {
  std::vector<std::array<float, 4>> read;
  RobustDevice robust(pd);
  TestDevice& d = *robust.device;
  EXPECT_NE(d.dev, VK_NULL_HANDLE);
  if (!d.dev) return read;
  Scratch s(d.dev);
  void *outMap, *rgMap, *rgbaMap;
  VkBuffer out = mappedBuffer(d, s, std::vector<uint32_t>(4 * 3 * 4, 0xDEADBEEF), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  VkBuffer rg = mappedBuffer(d, s, {bitsOf(1.0f), bitsOf(2.0f), bitsOf(3.0f), bitsOf(4.0f)}, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &rgMap);
  VkBuffer rgba = mappedBuffer(d, s, {0xFF000000u, 0x000000FFu}, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &rgbaMap);

  VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(d.dev, &dslci, nullptr, &setLayout);
  s.undo.push_back([dev = d.dev, setLayout] { vkDestroyDescriptorSetLayout(dev, setLayout, nullptr); });
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(d.dev, &plci, nullptr, &layout);
  s.undo.push_back([dev = d.dev, layout] { vkDestroyPipelineLayout(dev, layout, nullptr); });
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(d.dev, &dpci, nullptr, &pool);
  s.undo.push_back([dev = d.dev, pool] { vkDestroyDescriptorPool(dev, pool, nullptr); });
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(d.dev, &dsai, &set);
  const VkDescriptorBufferInfo info{out, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &info};
  vkUpdateDescriptorSets(d.dev, 1, &w, 0, nullptr);

  const VkShaderModule vs = d.createShaderModule(loadCorpusShader("robustness2_vertex_vert"));
  s.undo.push_back([dev = d.dev, vs] { vkDestroyShaderModule(dev, vs, nullptr); });
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"};
  const VkVertexInputBindingDescription vertexBindings[3] = {
      {0, 8, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 4, VK_VERTEX_INPUT_RATE_VERTEX}, {2, 4, VK_VERTEX_INPUT_RATE_VERTEX}};
  const VkVertexInputAttributeDescription attributes[3] = {
      {0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 1, VK_FORMAT_R8G8B8A8_UNORM, 0}, {2, 2, VK_FORMAT_R32_SFLOAT, 0}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 3, vertexBindings, 3, attributes};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, nullptr, 0, VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.rasterizerDiscardEnable = VK_TRUE;
  rs.lineWidth = 1.0f;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 1;
  gpci.pStages = &stage;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pRasterizationState = &rs;
  gpci.layout = layout;
  VkPipeline pipeline;
  const VkResult created = vkCreateGraphicsPipelines(d.dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline);
  EXPECT_EQ(created, VK_SUCCESS);
  if (created != VK_SUCCESS) return read;
  s.undo.push_back([dev = d.dev, pipeline] { vkDestroyPipeline(dev, pipeline, nullptr); });

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool cmdPool;
  vkCreateCommandPool(d.dev, &cpci, nullptr, &cmdPool);
  s.undo.push_back([dev = d.dev, cmdPool] { vkDestroyCommandPool(dev, cmdPool, nullptr); });
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cmdPool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(d.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {4, 4}};
  ri.layerCount = 1;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  const VkBuffer vertexBuffers[3] = {rg, rgba, VK_NULL_HANDLE};
  const VkDeviceSize offsets[3] = {0, 0, 0};
  vkCmdBindVertexBuffers(cmd, 0, 3, vertexBuffers, offsets);
  vkCmdDraw(cmd, 4, 1, 0, 0);
  vkCmdEndRendering(cmd);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  d.submitAndWait(cmd);
  read.resize(12);
  std::memcpy(read.data(), outMap, 12 * 16);
  return read;
}

void expectVertexInputSpecValues(const std::vector<std::array<float, 4>>& read, const char* driver) {
  ASSERT_EQ(read.size(), 12u) << driver;
  using F4 = std::array<float, 4>;
  // "Vertex Input Extraction": R32G32 gives (r, g, 0, 1); RGBA8 UNORM c / 255.
  const F4 want[12] = {{1, 2, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1},  // vertex 0 (the null buffer: zero, then (0, 0, 1) filled in)
                       {3, 4, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 1},  // vertex 1
                       {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 1},  // vertex 2: past both ranges (RGBA8 has alpha)
                       {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 1}}; // vertex 3
  for (uint32_t i = 0; i < 12; ++i)
    EXPECT_EQ(read[i], want[i]) << driver << ": vertex " << i / 3 << ", location " << i % 3 << " read (" << read[i][0] << ", "
                                << read[i][1] << ", " << read[i][2] << ", " << read[i][3] << ")";
}

TEST(Robustness2, OutOfRangeAndNullDescriptorAccessesReadWhatTheSpecSays) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  ASSERT_TRUE(supportsRobustness2(drivers.tessera)) << "Tessera does not offer VK_EXT_robustness2's features";
  expectSpecValues(runShader(drivers.tessera), "Tessera");
  if (drivers.lavapipe && supportsRobustness2(drivers.lavapipe)) expectSpecValues(runShader(drivers.lavapipe), "lavapipe");
}

TEST(Robustness2, VertexAttributesPastTheirBindingOrFromANullBufferReadZeroWithMissingComponents) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  expectVertexInputSpecValues(runVertexInput(drivers.tessera), "Tessera");
  if (drivers.lavapipe && supportsRobustness2(drivers.lavapipe)) expectVertexInputSpecValues(runVertexInput(drivers.lavapipe), "lavapipe");
}

}  // namespace
}  // namespace tessera_test
