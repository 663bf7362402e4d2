// Descriptor set layouts: where each binding's descriptors live in set memory (the layout
// include/tessera/shader_abi.h promises to kernels), dynamic offset numbering, immutable samplers,
// variable descriptor counts, and vkGetDescriptorSetLayoutSupport.
#include "descriptor_test_util.h"

namespace tessera_test {
namespace {

using tessera::abi::kDescriptorSize;

TEST(DescriptorSetLayout, BindingsArePlacedInBindingNumberOrder) {
  FakeDevice d;
  // Given out of order: placement follows binding numbers, not the order of pBindings.
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2),
                                                    binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1),
                                                    binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                                    binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 20)});
  const auto& layout = layoutOf(l);
  ASSERT_EQ(layout.bindingCount, 4u);
  EXPECT_EQ(layout.find(0)->offset, 0u);
  EXPECT_EQ(layout.find(1)->offset, 32u);  // inline block: 16-byte aligned, 20 bytes in place
  EXPECT_EQ(layout.find(2)->offset, 64u);  // 52 rounded up to a descriptor boundary
  EXPECT_EQ(layout.find(3)->offset, 96u);
  EXPECT_EQ(layout.size, 96u + 2 * kDescriptorSize);
  EXPECT_EQ(layout.find(3)->count, 2u);
  EXPECT_EQ(layout.find(3)->type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  EXPECT_EQ(layout.find(4), nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorSetLayout, SparseBindingNumbersAndEmptyBindingsTakeNoSpace) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(100, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1),
                                                    binding(7, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0),
                                                    binding(5, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3)});
  const auto& layout = layoutOf(l);
  EXPECT_EQ(layout.find(5)->offset, 0u);
  EXPECT_EQ(layout.find(7)->offset, 3 * kDescriptorSize);
  EXPECT_EQ(layout.find(100)->offset, 3 * kDescriptorSize);
  EXPECT_EQ(layout.size, 4 * kDescriptorSize);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorSetLayout, DynamicOffsetsAreNumberedByBindingThenElement) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(5, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                                    binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 3),
                                                    binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4),
                                                    binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2)});
  const auto& layout = layoutOf(l);
  EXPECT_EQ(layout.find(0)->dynamicIndex, 0u);
  EXPECT_EQ(layout.find(1)->dynamicIndex, tessera::kNotDynamic);
  EXPECT_EQ(layout.find(2)->dynamicIndex, 2u);
  EXPECT_EQ(layout.find(5)->dynamicIndex, 5u);
  EXPECT_EQ(layout.dynamicCount, 6u);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorSetLayout, ImmutableSamplersAreCopiedAndOutliveTheSampler) {
  FakeDevice d;
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  si.magFilter = VK_FILTER_LINEAR;
  si.maxLod = 7.0f;
  VkSampler samplers[2];
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &samplers[0]), VK_SUCCESS);
  si.magFilter = VK_FILTER_NEAREST;
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &samplers[1]), VK_SUCCESS);
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2, samplers),
                                                    binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, samplers)});
  tessera_vkDestroySampler(d.handle(), samplers[0], nullptr);
  tessera_vkDestroySampler(d.handle(), samplers[1], nullptr);
  const auto& layout = layoutOf(l);
  const auto* b = layout.find(0);
  ASSERT_NE(b->immutableSamplers, nullptr);
  EXPECT_EQ(b->immutableSamplers[0].baked.magFilter, uint32_t(VK_FILTER_LINEAR));
  EXPECT_EQ(b->immutableSamplers[1].baked.magFilter, uint32_t(VK_FILTER_NEAREST));
  EXPECT_EQ(b->immutableSamplers[1].baked.maxLod, 7.0f);
  // pImmutableSamplers is ignored for types that take no sampler.
  EXPECT_EQ(layout.find(1)->immutableSamplers, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorSetLayout, VariableCountBindingIsLastAndSizesTheSet) {
  FakeDevice d;
  VkDescriptorSetLayout l =
      makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 100)},
                 {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT});
  const auto& layout = layoutOf(l);
  EXPECT_TRUE(layout.variableLast);
  EXPECT_EQ(layout.find(1)->flags,
            VkDescriptorBindingFlags(VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT | VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT));
  EXPECT_EQ(layout.setSize(100), 101 * kDescriptorSize);
  EXPECT_EQ(layout.setSize(3), 4 * kDescriptorSize);
  EXPECT_EQ(layout.setSize(0), kDescriptorSize);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorSetLayout, AllocationFailureReturnsOutOfHostMemory) {
  FakeDevice d;
  TrackingAllocator a;
  a.failAfter = 0;
  VkAllocationCallbacks cb = a.callbacks();
  auto b = binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1);
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &b};
  VkDescriptorSetLayout l = VK_NULL_HANDLE;
  EXPECT_EQ(tessera_vkCreateDescriptorSetLayout(d.handle(), &ci, &cb, &l), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_TRUE(a.live.empty());
}

VkDescriptorSetLayoutSupport support(const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                                     const std::vector<VkDescriptorBindingFlags>& flags, uint32_t* maxVariable) {
  FakeDevice d;
  VkDescriptorSetLayoutBindingFlagsCreateInfo fi{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr,
                                                 uint32_t(flags.size()), flags.data()};
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &fi, 0, uint32_t(bindings.size()),
                                     bindings.data()};
  VkDescriptorSetVariableDescriptorCountLayoutSupport vs{
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT};
  vs.maxVariableDescriptorCount = 12345;
  VkDescriptorSetLayoutSupport s{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT, &vs};
  tessera_vkGetDescriptorSetLayoutSupport(d.handle(), &ci, &s);
  *maxVariable = vs.maxVariableDescriptorCount;
  return s;
}

TEST(DescriptorSetLayout, SupportQueryFollowsTheReportedLimits) {
  uint32_t maxVariable = 0;
  EXPECT_TRUE(support({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 16)}, {}, &maxVariable).supported);
  EXPECT_EQ(maxVariable, 0u);  // no variable-count binding
  EXPECT_FALSE(support({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 17)}, {}, &maxVariable).supported);
  EXPECT_FALSE(support({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, tessera::kMaxPerSetDescriptors + 1)}, {},
                       &maxVariable).supported);
  EXPECT_FALSE(support({binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 4100)}, {}, &maxVariable).supported);
  EXPECT_TRUE(support({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 10), binding(1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4)},
                      {0, VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT}, &maxVariable).supported);
  EXPECT_EQ(maxVariable, tessera::kMaxPerSetDescriptors - 10);
}

}  // namespace
}  // namespace tessera_test
