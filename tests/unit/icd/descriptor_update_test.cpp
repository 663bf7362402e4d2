// vkUpdateDescriptorSets and update templates: the bytes a kernel will read after each kind of
// write (include/tessera/shader_abi.h), writes and copies that roll over into the following
// bindings, inline uniform blocks, null descriptors, and the image view state descriptors
// point at.
#include "descriptor_test_util.h"

namespace tessera_test {
namespace {

using tessera::abi::BufferDescriptor;
using tessera::abi::ImageDescriptor;
using tessera::abi::TexelBufferDescriptor;

class DescriptorUpdate : public ::testing::Test {
 protected:
  void TearDown() override {
    if (pool) tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
    for (VkDescriptorSetLayout l : layouts) tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
  }
  VkDescriptorSet newSet(const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
    if (!pool) {
      std::vector<VkDescriptorPoolSize> sizes;
      for (uint32_t t = 0; t <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT; ++t) sizes.push_back({VkDescriptorType(t), 1000});
      sizes.push_back({VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4096});
      pool = makePool(d.handle(), 100, sizes);
    }
    layouts.push_back(makeLayout(d.handle(), bindings));
    VkDescriptorSet s = VK_NULL_HANDLE;
    EXPECT_EQ(allocate(d.handle(), pool, layouts.back(), &s), VK_SUCCESS);
    return s;
  }
  static VkWriteDescriptorSet write(VkDescriptorSet set, uint32_t binding, uint32_t element, uint32_t count,
                                    VkDescriptorType type) {
    VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.dstBinding = binding;
    w.dstArrayElement = element;
    w.descriptorCount = count;
    w.descriptorType = type;
    return w;
  }
  FakeDevice d;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSetLayout> layouts;
};

TEST_F(DescriptorUpdate, BufferDescriptorsHoldAddressAndRange) {
  HostBuffer buf(1024, 256);  // bound 256 bytes into its memory
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                              binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                              binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1)});
  VkDescriptorBufferInfo infos[] = {{buf.handle(), 64, 128}, {buf.handle(), 0, VK_WHOLE_SIZE}, {buf.handle(), 1000, VK_WHOLE_SIZE},
                                    {buf.handle(), 16, 32}, {buf.handle(), 32, 64}};
  VkWriteDescriptorSet w[4] = {write(s, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER),
                               write(s, 1, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                               write(s, 2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC),
                               write(s, 3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)};
  w[0].pBufferInfo = &infos[0];
  w[1].pBufferInfo = &infos[1];
  w[2].pBufferInfo = &infos[3];
  w[3].pBufferInfo = &infos[4];
  tessera_vkUpdateDescriptorSets(d.handle(), 4, w, 0, nullptr);
  uint8_t* data = buf.bytes.data() + 256;
  auto ubo = descriptorAt<BufferDescriptor>(s, 0);
  EXPECT_EQ(ubo.address, data + 64);
  EXPECT_EQ(ubo.range, 128u);
  auto whole = descriptorAt<BufferDescriptor>(s, 1, 0);
  EXPECT_EQ(whole.address, data);
  EXPECT_EQ(whole.range, 1024u);  // VK_WHOLE_SIZE resolved against the buffer, not the memory
  auto tail = descriptorAt<BufferDescriptor>(s, 1, 1);
  EXPECT_EQ(tail.address, data + 1000);
  EXPECT_EQ(tail.range, 24u);
  // Dynamic buffers: the base without any dynamic offset.
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 2).address, data + 16);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 2).range, 32u);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 3).address, data + 32);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 3).range, 64u);
}

TEST_F(DescriptorUpdate, NullHandlesWriteNullDescriptors) {
  HostBuffer buf(256);
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1),
                              binding(2, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1)});
  VkDescriptorBufferInfo bi{buf.handle(), 0, 64};
  VkWriteDescriptorSet w = write(s, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  w.pBufferInfo = &bi;
  tessera_vkUpdateDescriptorSets(d.handle(), 1, &w, 0, nullptr);
  ASSERT_NE(descriptorAt<BufferDescriptor>(s, 0).address, nullptr);
  // nullDescriptor: VK_NULL_HANDLE replaces what was written before with the null descriptor.
  bi = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
  VkBufferView nullView = VK_NULL_HANDLE;
  VkDescriptorImageInfo nullImage{VK_NULL_HANDLE, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet ws[3] = {w, write(s, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER),
                                write(s, 2, 0, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE)};
  ws[1].pTexelBufferView = &nullView;
  ws[2].pImageInfo = &nullImage;
  tessera_vkUpdateDescriptorSets(d.handle(), 3, ws, 0, nullptr);
  const uint8_t zeros[tessera::abi::kDescriptorSize] = {};
  EXPECT_EQ(std::memcmp(setOf(s).memory, zeros, sizeof zeros), 0);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 0).range, 0u);
  EXPECT_EQ(descriptorAt<TexelBufferDescriptor>(s, 1).address, nullptr);
  EXPECT_EQ(descriptorAt<TexelBufferDescriptor>(s, 1).elementCount, 0u);
  EXPECT_EQ(descriptorAt<ImageDescriptor>(s, 2).view, nullptr);
}

TEST_F(DescriptorUpdate, TexelBufferDescriptorsComeFromTheView) {
  HostBuffer buf(1000, 64);
  VkBufferViewCreateInfo vi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  vi.buffer = buf.handle();
  vi.format = VK_FORMAT_R32G32B32A32_SFLOAT;
  vi.offset = 32;
  vi.range = VK_WHOLE_SIZE;  // 968 bytes: 60 whole 16-byte texels
  VkBufferView whole, part;
  ASSERT_EQ(tessera_vkCreateBufferView(d.handle(), &vi, nullptr, &whole), VK_SUCCESS);
  vi.format = VK_FORMAT_R8_UINT;
  vi.offset = 16;
  vi.range = 100;
  ASSERT_EQ(tessera_vkCreateBufferView(d.handle(), &vi, nullptr, &part), VK_SUCCESS);
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1),
                              binding(1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1)});
  VkWriteDescriptorSet w[2] = {write(s, 0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER),
                               write(s, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)};
  w[0].pTexelBufferView = &whole;
  w[1].pTexelBufferView = &part;
  tessera_vkUpdateDescriptorSets(d.handle(), 2, w, 0, nullptr);
  auto a = descriptorAt<TexelBufferDescriptor>(s, 0);
  EXPECT_EQ(a.address, buf.bytes.data() + 64 + 32);
  EXPECT_EQ(a.elementCount, 60u);
  EXPECT_EQ(a.texelSize, 16u);
  EXPECT_EQ(a.format, uint32_t(VK_FORMAT_R32G32B32A32_SFLOAT));
  auto b = descriptorAt<TexelBufferDescriptor>(s, 1);
  EXPECT_EQ(b.address, buf.bytes.data() + 64 + 16);
  EXPECT_EQ(b.elementCount, 100u);
  EXPECT_EQ(b.texelSize, 1u);
  tessera_vkDestroyBufferView(d.handle(), whole, nullptr);
  tessera_vkDestroyBufferView(d.handle(), part, nullptr);
}

// An image with memory, built without vkCreateImage (which needs a physical device).
struct HostImage {
  tessera::Image image;
  std::vector<uint8_t> bytes;
  tessera::DeviceMemory memory;
  HostImage(VkFormat format, VkImageType type, VkExtent3D extent, uint32_t mips, uint32_t layers) {
    image.type = type;
    image.format = tessera::formatInfo(format);
    image.vkFormat = format;
    image.extent = extent;
    image.mipLevels = mips;
    image.arrayLayers = layers;
    tessera::computeImageLayout(image);
    bytes.resize(image.size + 128);
    memory.size = bytes.size();
    memory.data = bytes.data();
    image.memory = &memory;
    image.memoryOffset = 128;
  }
  VkImageView view(VkDevice dev, VkImageViewType type, VkFormat format, VkImageSubresourceRange range,
                   VkComponentMapping swizzle = {}) {
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = toHandle<VkImage>(&image);
    ci.viewType = type;
    ci.format = format;
    ci.components = swizzle;
    ci.subresourceRange = range;
    VkImageView v = VK_NULL_HANDLE;
    EXPECT_EQ(tessera_vkCreateImageView(dev, &ci, nullptr, &v), VK_SUCCESS);
    return v;
  }
};

TEST_F(DescriptorUpdate, ImageViewStateDescribesTheViewedSubresources) {
  HostImage img(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {64, 32, 1}, 4, 6);
  VkImageView v = img.view(d.handle(), VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R8G8B8A8_UINT,
                           {VK_IMAGE_ASPECT_COLOR_BIT, 1, VK_REMAINING_MIP_LEVELS, 2, VK_REMAINING_ARRAY_LAYERS},
                           {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_ONE,
                            VK_COMPONENT_SWIZZLE_IDENTITY});
  const tessera::abi::ImageViewState& st = fromHandle<tessera::ImageView>(v)->state;
  EXPECT_EQ(st.format, uint32_t(VK_FORMAT_R8G8B8A8_UINT));
  EXPECT_EQ(st.viewType, uint32_t(VK_IMAGE_VIEW_TYPE_2D_ARRAY));
  EXPECT_EQ(st.aspect, uint32_t(VK_IMAGE_ASPECT_COLOR_BIT));
  EXPECT_EQ(st.levelCount, 3u);
  EXPECT_EQ(st.layerCount, 4u);
  EXPECT_EQ(st.samples, 1u);
  EXPECT_EQ(st.texelSize, 4u);
  EXPECT_EQ(st.swizzle[0], uint32_t(VK_COMPONENT_SWIZZLE_B));
  EXPECT_EQ(st.swizzle[1], uint32_t(VK_COMPONENT_SWIZZLE_G));
  EXPECT_EQ(st.swizzle[2], uint32_t(VK_COMPONENT_SWIZZLE_ONE));
  EXPECT_EQ(st.swizzle[3], uint32_t(VK_COMPONENT_SWIZZLE_A));
  for (uint32_t i = 0; i < 3; ++i) {
    const auto& l = img.image.level(VK_IMAGE_ASPECT_COLOR_BIT, 1 + i);
    EXPECT_EQ(st.levels[i].base, img.bytes.data() + 128 + l.offset + 2 * l.layerPitch) << "level " << i;
    EXPECT_EQ(st.levels[i].width, 32u >> i);
    EXPECT_EQ(st.levels[i].height, 16u >> i);
    EXPECT_EQ(st.levels[i].depth, 1u);
    EXPECT_EQ(st.levels[i].rowPitch, l.rowPitch);
    EXPECT_EQ(st.levels[i].layerPitch, l.layerPitch);
  }
  tessera_vkDestroyImageView(d.handle(), v, nullptr);
}

TEST_F(DescriptorUpdate, ImageViewStateOfDepthStencilAnd3DImages) {
  HostImage ds(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_TYPE_2D, {8, 8, 1}, 1, 1);
  VkImageView stencil = ds.view(d.handle(), VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_D24_UNORM_S8_UINT,
                                {VK_IMAGE_ASPECT_STENCIL_BIT, 0, 1, 0, 1});
  const auto& s = fromHandle<tessera::ImageView>(stencil)->state;
  EXPECT_EQ(s.aspect, uint32_t(VK_IMAGE_ASPECT_STENCIL_BIT));
  EXPECT_EQ(s.texelSize, 1u);
  EXPECT_EQ(s.levels[0].base, ds.bytes.data() + 128 + ds.image.planeOffsets[1]);

  // A 2D-array view of a 3D image sees z slices as layers.
  HostImage vol(VK_FORMAT_R16_UINT, VK_IMAGE_TYPE_3D, {8, 4, 6}, 1, 1);
  VkImageView slices = vol.view(d.handle(), VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_FORMAT_R16_UINT,
                                {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 2, 3});
  const auto& v = fromHandle<tessera::ImageView>(slices)->state;
  const auto& l = vol.image.level(VK_IMAGE_ASPECT_COLOR_BIT, 0);
  EXPECT_EQ(v.levels[0].depth, 1u);
  EXPECT_EQ(v.levels[0].layerPitch, l.depthPitch);
  EXPECT_EQ(v.levels[0].base, vol.bytes.data() + 128 + 2 * l.depthPitch);
  tessera_vkDestroyImageView(d.handle(), stencil, nullptr);
  tessera_vkDestroyImageView(d.handle(), slices, nullptr);
}

TEST_F(DescriptorUpdate, ImageDescriptorsPointAtViewStateAndSampler) {
  HostImage img(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, {16, 16, 1}, 1, 1);
  VkImageView view = img.view(d.handle(), VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                              {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler given, immutable;
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &given), VK_SUCCESS);
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &immutable), VK_SUCCESS);
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_SAMPLER, 1), binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1),
                              binding(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, &immutable),
                              binding(3, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1), binding(4, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1),
                              binding(5, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1)});
  VkDescriptorImageInfo ii{given, view, VK_IMAGE_LAYOUT_GENERAL};
  std::vector<VkWriteDescriptorSet> w;
  const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                                    VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT};
  for (uint32_t b = 0; b < 6; ++b) {
    w.push_back(write(s, b, 0, 1, types[b]));
    w.back().pImageInfo = &ii;
  }
  tessera_vkUpdateDescriptorSets(d.handle(), uint32_t(w.size()), w.data(), 0, nullptr);
  const tessera::abi::ImageViewState* state = &fromHandle<tessera::ImageView>(view)->state;
  const tessera::abi::SamplerState* givenState = fromHandle<tessera::Sampler>(given)->state();
  auto sampler = descriptorAt<ImageDescriptor>(s, 0);
  EXPECT_EQ(sampler.view, nullptr);
  EXPECT_EQ(sampler.sampler, givenState);
  auto combined = descriptorAt<ImageDescriptor>(s, 1);
  EXPECT_EQ(combined.view, state);
  EXPECT_EQ(combined.sampler, givenState);
  // Immutable sampler: the layout's copy, whatever the write says.
  auto fixed = descriptorAt<ImageDescriptor>(s, 2);
  EXPECT_EQ(fixed.view, state);
  EXPECT_EQ(fixed.sampler, setOf(s).layout->find(2)->immutableSamplers[0].state());
  EXPECT_NE(fixed.sampler, givenState);
  for (uint32_t b = 3; b < 6; ++b) {
    EXPECT_EQ(descriptorAt<ImageDescriptor>(s, b).view, state) << "binding " << b;
    EXPECT_EQ(descriptorAt<ImageDescriptor>(s, b).sampler, nullptr) << "binding " << b;
  }
  tessera_vkDestroySampler(d.handle(), given, nullptr);
  tessera_vkDestroySampler(d.handle(), immutable, nullptr);
  tessera_vkDestroyImageView(d.handle(), view, nullptr);
}

TEST_F(DescriptorUpdate, WritesRollOverIntoTheFollowingBindings) {
  HostBuffer buf(4096);
  // Binding 1 has no elements and binding 2 does not exist: both are skipped.
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0),
                              binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3)});
  VkDescriptorBufferInfo infos[4];
  for (uint32_t i = 0; i < 4; ++i) infos[i] = {buf.handle(), 256u * (i + 1), 16};
  VkWriteDescriptorSet w = write(s, 0, 1, 4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
  w.pBufferInfo = infos;
  tessera_vkUpdateDescriptorSets(d.handle(), 1, &w, 0, nullptr);
  uint8_t* data = buf.bytes.data();
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 0, 0).address, nullptr);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 0, 1).address, data + 256);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 3, 0).address, data + 512);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 3, 1).address, data + 768);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 3, 2).address, data + 1024);
}

TEST_F(DescriptorUpdate, InlineUniformBlocksAreWrittenAndCopiedInPlace) {
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32)});
  VkDescriptorSet t = newSet({binding(4, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  uint32_t values[4] = {11, 22, 33, 44};
  VkWriteDescriptorSetInlineUniformBlock block{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr,
                                               sizeof values, values};
  VkWriteDescriptorSet w = write(s, 0, 8, sizeof values, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK);  // byte 8 on
  w.pNext = &block;
  tessera_vkUpdateDescriptorSets(d.handle(), 1, &w, 0, nullptr);
  const auto* words = reinterpret_cast<const uint32_t*>(setOf(s).memory);
  EXPECT_EQ(words[0], 0u);
  EXPECT_EQ(words[1], 0u);
  EXPECT_EQ(words[2], 11u);
  EXPECT_EQ(words[5], 44u);
  EXPECT_EQ(words[6], 0u);
  // Copies count bytes too.
  VkCopyDescriptorSet c{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, s, 0, 12, t, 4, 4, 8};
  tessera_vkUpdateDescriptorSets(d.handle(), 0, nullptr, 1, &c);
  const auto* copied = reinterpret_cast<const uint32_t*>(setOf(t).memory);
  EXPECT_EQ(copied[0], 0u);
  EXPECT_EQ(copied[1], 22u);
  EXPECT_EQ(copied[2], 33u);
  EXPECT_EQ(copied[3], 0u);
}

TEST_F(DescriptorUpdate, CopiesRollOverOnBothSidesAndKeepImmutableSamplers) {
  HostBuffer buf(4096);
  VkDescriptorSet src = newSet({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3)});
  VkDescriptorSet dst = newSet({binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2), binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2)});
  VkDescriptorBufferInfo infos[4];
  for (uint32_t i = 0; i < 4; ++i) infos[i] = {buf.handle(), 64u * i, 64};
  VkWriteDescriptorSet w = write(src, 0, 0, 4, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  w.pBufferInfo = infos;
  // src elements (0,0) (1,0) (1,1) -> dst (2,1) (3,0) (3,1), in the same call as the write:
  // writes happen first.
  VkCopyDescriptorSet c{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, src, 0, 0, dst, 2, 1, 3};
  tessera_vkUpdateDescriptorSets(d.handle(), 1, &w, 1, &c);
  uint8_t* data = buf.bytes.data();
  EXPECT_EQ(descriptorAt<BufferDescriptor>(dst, 2, 0).address, nullptr);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(dst, 2, 1).address, data);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(dst, 3, 0).address, data + 64);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(dst, 3, 1).address, data + 128);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(dst, 3, 1).range, 64u);

  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler a, b;
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &a), VK_SUCCESS);
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &b), VK_SUCCESS);
  HostImage img(VK_FORMAT_R8_UNORM, VK_IMAGE_TYPE_2D, {4, 4, 1}, 1, 1);
  VkImageView view = img.view(d.handle(), VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8_UNORM, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
  VkDescriptorSet plain = newSet({binding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1)});
  VkDescriptorSet fixed = newSet({binding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, &b)});
  VkDescriptorImageInfo ii{a, view, VK_IMAGE_LAYOUT_GENERAL};
  w = write(plain, 0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
  w.pImageInfo = &ii;
  c = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, plain, 0, 0, fixed, 0, 0, 1};
  tessera_vkUpdateDescriptorSets(d.handle(), 1, &w, 1, &c);
  EXPECT_EQ(descriptorAt<ImageDescriptor>(fixed, 0).view, &fromHandle<tessera::ImageView>(view)->state);
  EXPECT_EQ(descriptorAt<ImageDescriptor>(fixed, 0).sampler, setOf(fixed).layout->find(0)->immutableSamplers[0].state());
  tessera_vkDestroySampler(d.handle(), a, nullptr);
  tessera_vkDestroySampler(d.handle(), b, nullptr);
  tessera_vkDestroyImageView(d.handle(), view, nullptr);
}

TEST_F(DescriptorUpdate, TemplatesWriteFromStridedApplicationData) {
  HostBuffer buf(4096);
  VkDescriptorSet s = newSet({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3), binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16),
                              binding(2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  struct Record {
    VkDescriptorBufferInfo info;
    uint32_t pad[3];
  };
  struct {
    Record storage[3];
    uint32_t constants[2];
    VkDescriptorBufferInfo uniform;
  } data{};
  for (uint32_t i = 0; i < 3; ++i) data.storage[i].info = {buf.handle(), 128u * i, 32};
  data.constants[0] = 0xCAFE;
  data.constants[1] = 0xF00D;
  data.uniform = {buf.handle(), 1024, VK_WHOLE_SIZE};
  VkDescriptorUpdateTemplateEntry entries[] = {
      {0, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(decltype(data), storage), sizeof(Record)},
      {1, 4, 8, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, offsetof(decltype(data), constants), 0},
      {2, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(decltype(data), uniform), 0},
  };
  VkDescriptorUpdateTemplateCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  ci.descriptorUpdateEntryCount = 3;
  ci.pDescriptorUpdateEntries = entries;
  ci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  ci.descriptorSetLayout = layouts.back();
  VkDescriptorUpdateTemplate t;
  ASSERT_EQ(tessera_vkCreateDescriptorUpdateTemplate(d.handle(), &ci, nullptr, &t), VK_SUCCESS);
  entries[0].stride = 0;  // the template keeps its own copy of the entries
  tessera_vkUpdateDescriptorSetWithTemplate(d.handle(), s, t, &data);
  tessera_vkDestroyDescriptorUpdateTemplate(d.handle(), t, nullptr);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 0, i).address, buf.bytes.data() + 128 * i);
    EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 0, i).range, 32u);
  }
  const auto* block = reinterpret_cast<const uint32_t*>(setOf(s).memory + setOf(s).layout->find(1)->offset);
  EXPECT_EQ(block[0], 0u);
  EXPECT_EQ(block[1], 0xCAFEu);
  EXPECT_EQ(block[2], 0xF00Du);
  EXPECT_EQ(descriptorAt<BufferDescriptor>(s, 2).range, 4096u - 1024);
}

}  // namespace
}  // namespace tessera_test
