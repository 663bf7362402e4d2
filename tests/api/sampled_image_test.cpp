// Sampled images in compute shaders, through the loader with validation (tests/shaders/
// sample_explicit.comp). Expected values are computed here from the specification's "Image
// Operations" chapter for the few cases the test uses (2D, explicit LOD or gradients, LINEAR
// and NEAREST filters and mipmap modes, REPEAT / MIRRORED_REPEAT / CLAMP_TO_BORDER /
// CLAMP_TO_EDGE, offsets, gather, depth comparison). The same test also runs on lavapipe
// (ctest prefix "lavapipe."), which shows the expectations are the spec's and not Tessera's.
//
// Tolerance: the spec lets filtering weights and the mipmap fraction have only
// subTexelPrecisionBits / mipmapPrecisionBits (8) bits, so results may differ from exact
// arithmetic by about 2^-8 of the texel differences; coordinates are kept away from the texel
// and level boundaries where NEAREST choices would depend on that rounding.
#include <cmath>
#include <cstring>
#include <random>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 8, kLevels = 4, kDepthSize = 4;
constexpr uint32_t kInvocations = 64, kResultsPerInvocation = 6;

struct Vec4 {
  float v[4];
};

// Texel (x, y) of level l of the colour image (RGBA32F): distinct in every component and level.
Vec4 colorTexel(int x, int y, int level) {
  const float n = float(kSize >> level);
  return {{(float(x) + 0.5f) / n, (float(y) + 0.25f) / n, float(level) / 4.0f, float((3 * x + 5 * y) % 8) / 8.0f}};
}
float depthTexel(int x, int y) { return (float(x + int(kDepthSize) * y) + 0.5f) / 16.0f; }

// ---- The spec's rules for the cases used (Vulkan spec, "Image Operations") ----
// "Wrapping Operation".
int wrap(int i, int size, VkSamplerAddressMode mode, bool* border) {
  *border = false;
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
      return ((i % size) + size) % size;
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
      int m = ((i % (2 * size)) + 2 * size) % (2 * size) - size;
      int mirror = m >= 0 ? m : -(1 + m);
      return (size - 1) - mirror;
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
      return std::clamp(i, 0, size - 1);
    default:  // CLAMP_TO_BORDER
      *border = i < 0 || i >= size;
      return i;
  }
}

struct SamplerDesc {
  bool linear;
  bool linearMips;
  VkSamplerAddressMode u, v;
};

Vec4 fetchColor(int x, int y, int level, const SamplerDesc& s) {
  const int n = int(kSize >> level);
  bool bu, bv;
  x = wrap(x, n, s.u, &bu);
  y = wrap(y, n, s.v, &bv);
  if (bu || bv) return {{1, 1, 1, 1}};  // VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE
  return colorTexel(x, y, level);
}

// "Texel Filtering" at one level, with "Texel Coordinate Systems" and offsets.
Vec4 filterLevel(float s, float t, int level, const SamplerDesc& d, int offU, int offV) {
  const float n = float(kSize >> level);
  const float u = s * n, v = t * n;
  if (!d.linear) return fetchColor(int(std::floor(u)) + offU, int(std::floor(v)) + offV, level, d);
  const int i0 = int(std::floor(u - 0.5f)) + offU, j0 = int(std::floor(v - 0.5f)) + offV;
  const float a = (u - 0.5f) - std::floor(u - 0.5f), b = (v - 0.5f) - std::floor(v - 0.5f);
  Vec4 t00 = fetchColor(i0, j0, level, d), t10 = fetchColor(i0 + 1, j0, level, d);
  Vec4 t01 = fetchColor(i0, j0 + 1, level, d), t11 = fetchColor(i0 + 1, j0 + 1, level, d);
  Vec4 r;
  for (int c = 0; c < 4; ++c)
    r.v[c] = (1 - a) * (1 - b) * t00.v[c] + a * (1 - b) * t10.v[c] + (1 - a) * b * t01.v[c] + a * b * t11.v[c];
  return r;
}

// "Level-of-Detail Operation" and "Image Level(s) Selection" (sampler minLod 0, maxLod large,
// no bias): lambda clamped to [0, q], then NEAREST rounds with ceil(d + 0.5) - 1 and LINEAR
// blends the two neighbouring levels.
Vec4 sampleColor(float s, float t, float lambda, const SamplerDesc& d, int offU = 0, int offV = 0) {
  const float q = float(kLevels - 1);
  const float dl = std::clamp(lambda, 0.0f, q);
  if (!d.linearMips) return filterLevel(s, t, int(std::ceil(dl + 0.5f)) - 1, d, offU, offV);
  const int lo = int(std::floor(dl)), hi = std::min(lo + 1, int(kLevels) - 1);
  const float delta = dl - float(lo);
  Vec4 a = filterLevel(s, t, lo, d, offU, offV), b = filterLevel(s, t, hi, d, offU, offV);
  Vec4 r;
  for (int c = 0; c < 4; ++c) r.v[c] = (1 - delta) * a.v[c] + delta * b.v[c];
  return r;
}

// "Texel Gathering": component `comp` of the 2x2 LINEAR footprint at level 0, in the order
// (i0,j1), (i1,j1), (i1,j0), (i0,j0).
Vec4 gatherColor(float s, float t, int comp, const SamplerDesc& d) {
  const float u = s * kSize, v = t * kSize;
  const int i0 = int(std::floor(u - 0.5f)), j0 = int(std::floor(v - 0.5f));
  return {{fetchColor(i0, j0 + 1, 0, d).v[comp], fetchColor(i0 + 1, j0 + 1, 0, d).v[comp],
           fetchColor(i0 + 1, j0, 0, d).v[comp], fetchColor(i0, j0, 0, d).v[comp]}};
}

// "Depth Compare Operation" (LESS_OR_EQUAL: passes when ref <= D) on each texel of the
// LINEAR footprint, then filtered (CLAMP_TO_EDGE).
float compareDepth(float s, float t, float ref) {
  const float u = s * kDepthSize, v = t * kDepthSize;
  const int i0 = int(std::floor(u - 0.5f)), j0 = int(std::floor(v - 0.5f));
  const float a = (u - 0.5f) - std::floor(u - 0.5f), b = (v - 0.5f) - std::floor(v - 0.5f);
  auto texel = [&](int x, int y) {
    x = std::clamp(x, 0, int(kDepthSize) - 1);
    y = std::clamp(y, 0, int(kDepthSize) - 1);
    return ref <= depthTexel(x, y) ? 1.0f : 0.0f;
  };
  return (1 - a) * (1 - b) * texel(i0, j0) + a * (1 - b) * texel(i0 + 1, j0) + (1 - a) * b * texel(i0, j0 + 1) +
         a * b * texel(i0 + 1, j0 + 1);
}

class SampledImage : public ComputeTest {
 protected:
  VkSampler makeSampler(VkFilter filter, VkSamplerMipmapMode mips, VkSamplerAddressMode u, VkSamplerAddressMode v,
                        bool compare) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = mips;
    ci.addressModeU = u;
    ci.addressModeV = v;
    ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    ci.compareEnable = compare;
    ci.compareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    ci.minLod = 0.0f;
    ci.maxLod = VK_LOD_CLAMP_NONE;
    ci.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    VkSampler s = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device, &ci, nullptr, &s), VK_SUCCESS);
    return s;
  }
  VkImageView makeView(VkImage image, VkFormat format, VkImageAspectFlags aspect, uint32_t levels) {
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {aspect, 0, levels, 0, 1};
    VkImageView v = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImageView(device, &vi, nullptr, &v), VK_SUCCESS);
    return v;
  }
};

TEST_F(SampledImage, ExplicitLodGradientsGatherAndCompareFollowTheSpec) {
  // Images: RGBA32F 8x8 with 4 levels, D32 4x4; filled from a staging buffer.
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = VK_FORMAT_R32G32B32A32_SFLOAT;
  ci.extent = {kSize, kSize, 1};
  ci.mipLevels = kLevels;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ImageAndMemory color = createImage(ci);
  ci.format = VK_FORMAT_D32_SFLOAT;
  ci.extent = {kDepthSize, kDepthSize, 1};
  ci.mipLevels = 1;
  ImageAndMemory depth = createImage(ci);

  BufferAndMemory staging = createBuffer(16 * 1024, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::vector<VkBufferImageCopy> colorCopies;
  size_t at = 0;
  for (uint32_t l = 0; l < kLevels; ++l) {
    const uint32_t n = kSize >> l;
    VkBufferImageCopy c{};
    c.bufferOffset = at;
    c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
    c.imageExtent = {n, n, 1};
    colorCopies.push_back(c);
    for (uint32_t y = 0; y < n; ++y)
      for (uint32_t x = 0; x < n; ++x, at += 16) {
        Vec4 t = colorTexel(int(x), int(y), int(l));
        std::memcpy(staging.mapped + at, t.v, 16);
      }
  }
  VkBufferImageCopy depthCopy{};
  depthCopy.bufferOffset = at;
  depthCopy.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  depthCopy.imageExtent = {kDepthSize, kDepthSize, 1};
  for (uint32_t y = 0; y < kDepthSize; ++y)
    for (uint32_t x = 0; x < kDepthSize; ++x, at += 4) {
      float d = depthTexel(int(x), int(y));
      std::memcpy(staging.mapped + at, &d, 4);
    }

  // Queries: coordinates at (k + 0.5 + jitter) / 8 texels, |jitter| <= 0.3, so no NEAREST
  // choice sits near a texel boundary at any level; LODs n + f with |f| <= 0.35, away from the
  // NEAREST mipmap rounding points; k from -4 to 11 reaches the wrap and border cases.
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> cell(-4, 11), level(-1, 4);
  std::uniform_real_distribution<float> jitter(-0.3f, 0.3f), lodJitter(-0.35f, 0.35f), ref(0.0f, 1.0f);
  BufferAndMemory queries = createBuffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  BufferAndMemory results = createBuffer(kInvocations * kResultsPerInvocation * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  std::vector<Vec4> q(kInvocations);
  for (Vec4& v : q) {
    v.v[0] = (float(cell(rng)) + 0.5f + jitter(rng)) / kSize;
    v.v[1] = (float(cell(rng)) + 0.5f + jitter(rng)) / kSize;
    v.v[2] = float(level(rng)) + lodJitter(rng);
    v.v[3] = ref(rng);
  }
  std::memcpy(queries.mapped, q.data(), kInvocations * 16);
  std::memset(results.mapped, 0xcd, kInvocations * kResultsPerInvocation * 16);

  VkImageView colorView = makeView(color.image, VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_ASPECT_COLOR_BIT, kLevels);
  VkImageView depthView = makeView(depth.image, VK_FORMAT_D32_SFLOAT, VK_IMAGE_ASPECT_DEPTH_BIT, 1);
  const SamplerDesc linearRepeat{true, true, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT};
  const SamplerDesc nearestBorder{false, false, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                  VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
  VkSampler linear = makeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, linearRepeat.u, linearRepeat.v, false);
  VkSampler nearest = makeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, nearestBorder.u, nearestBorder.v, false);
  VkSampler shadow = makeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, true);

  const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutBinding bindings[6] = {{0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                              {1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, cs, nullptr},
                                              {2, VK_DESCRIPTOR_TYPE_SAMPLER, 1, cs, nullptr},
                                              {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, cs, nullptr},
                                              {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
                                              {5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = 6;
  dl.pBindings = bindings;
  VkDescriptorSetLayout setLayout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
  std::vector<uint32_t> spirv = loadCorpusShader("sample_explicit");
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size() * 4;
  sm.pCode = spirv.data();
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  pci.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pci, nullptr, &pipeline), VK_SUCCESS);

  VkDescriptorPoolSize sizes[4] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2},
                                   {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},
                                   {VK_DESCRIPTOR_TYPE_SAMPLER, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = 1;
  dp.poolSizeCount = 4;
  dp.pPoolSizes = sizes;
  VkDescriptorPool dpool;
  ASSERT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &dpool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, dpool, 1, &setLayout};
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  const VkImageLayout readOnly = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  VkDescriptorImageInfo images[4] = {{linear, colorView, readOnly},
                                     {VK_NULL_HANDLE, colorView, readOnly},
                                     {nearest, VK_NULL_HANDLE, readOnly},
                                     {shadow, depthView, readOnly}};
  VkDescriptorBufferInfo buffers[2] = {{queries.buffer, 0, VK_WHOLE_SIZE}, {results.buffer, 0, VK_WHOLE_SIZE}};
  VkWriteDescriptorSet writes[6] = {};
  for (uint32_t i = 0; i < 6; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1, bindings[i].descriptorType};
    if (i < 4) writes[i].pImageInfo = &images[i];
    else writes[i].pBufferInfo = &buffers[i - 4];
  }
  vkUpdateDescriptorSets(device, 6, writes, 0, nullptr);

  submitAndWait([&](VkCommandBuffer cb) {
    auto transition = [&](VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                          VkAccessFlags srcAccess, VkAccessFlags dstAccess, VkPipelineStageFlags srcStage,
                          VkPipelineStageFlags dstStage) {
      VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image;
      b.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
      b.oldLayout = from;
      b.newLayout = to;
      b.srcAccessMask = srcAccess;
      b.dstAccessMask = dstAccess;
      vkCmdPipelineBarrier(cb, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
    };
    const VkImageLayout dst = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    transition(color.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, dst, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    transition(depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED, dst, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(cb, staging.buffer, color.image, dst, uint32_t(colorCopies.size()), colorCopies.data());
    vkCmdCopyBufferToImage(cb, staging.buffer, depth.image, dst, 1, &depthCopy);
    transition(color.image, VK_IMAGE_ASPECT_COLOR_BIT, dst, readOnly, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    transition(depth.image, VK_IMAGE_ASPECT_DEPTH_BIT, dst, readOnly,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cb, kInvocations / 16, 1, 1);
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr,
                         0, nullptr);
  });

  const float tolerance = 0.01f;
  const float kGradLodError = 0.125f;
  auto expectNear = [&](const Vec4& got, const Vec4& want, uint32_t i, const char* what) {
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(got.v[c], want.v[c], tolerance)
          << what << " invocation " << i << " component " << c << " query (" << q[i].v[0] * kSize << ", "
          << q[i].v[1] * kSize << ") texels, lod " << q[i].v[2];
  };
  for (uint32_t i = 0; i < kInvocations; ++i) {
    Vec4 r[kResultsPerInvocation];
    std::memcpy(r, results.mapped + i * kResultsPerInvocation * 16, sizeof(r));
    const float s = q[i].v[0], t = q[i].v[1], lod = q[i].v[2];
    expectNear(r[0], sampleColor(s, t, lod, linearRepeat), i, "textureLod");
    expectNear(r[1], sampleColor(s, t, lod, nearestBorder, 1, -1), i, "textureLodOffset (separate sampler)");
    expectNear(r[2], gatherColor(s, t, 1, linearRepeat), i, "textureGather");
    EXPECT_NEAR(r[3].v[0], compareDepth(s, t, q[i].v[3]), tolerance) << "shadow compare, invocation " << i;
    // Gradients: the spec lets an implementation approximate log2 (lavapipe is off by up to
    // ~0.06 here), so the result may be that of any LOD within kGradLodError of the exact one.
    const float lo = lod - kGradLodError, hi = lod + kGradLodError;
    std::vector<float> lods{lo, lod, hi};
    if (std::floor(hi) > lo) lods.push_back(std::floor(hi));  // a level boundary inside the range
    for (int c = 0; c < 4; ++c) {
      float mn = 1e30f, mx = -1e30f;
      for (float l : lods) {
        const float v = sampleColor(s, t, l, linearRepeat).v[c];
        mn = std::min(mn, v);
        mx = std::max(mx, v);
      }
      EXPECT_TRUE(r[4].v[c] >= mn - tolerance && r[4].v[c] <= mx + tolerance)
          << "textureGrad invocation " << i << " component " << c << ": " << r[4].v[c] << " not in [" << mn << ", "
          << mx << "], lod " << lod;
    }
    expectNear(r[5], sampleColor(0.3f, 0.6f, 1.25f, linearRepeat), i, "uniform textureLod");
  }

  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorPool(device, dpool, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  vkDestroySampler(device, linear, nullptr);
  vkDestroySampler(device, nearest, nullptr);
  vkDestroySampler(device, shadow, nullptr);
  vkDestroyImageView(device, colorView, nullptr);
  vkDestroyImageView(device, depthView, nullptr);
  destroy(color);
  destroy(depth);
  destroy(staging);
  destroy(queries);
  destroy(results);
}

}  // namespace
}  // namespace tessera_test
