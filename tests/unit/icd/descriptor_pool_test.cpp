// Descriptor pools: the limits a pool is created with are honoured (VK_ERROR_OUT_OF_POOL_MEMORY;
// per-type counts as a share of the pool's total),
// freeing and resetting give them back, sets start as null descriptors (immutable samplers
// written), and host memory is owned and released as the spec requires.
#include "descriptor_test_util.h"

namespace tessera_test {
namespace {

TEST(DescriptorPool, MaxSetsIsHonouredAndFreeingGivesRoomBack) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  VkDescriptorPool pool = makePool(d.handle(), 2, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 10}});
  VkDescriptorSet s[3];
  ASSERT_EQ(allocate(d.handle(), pool, l, &s[0]), VK_SUCCESS);
  ASSERT_EQ(allocate(d.handle(), pool, l, &s[1]), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s[2]), VK_ERROR_OUT_OF_POOL_MEMORY);
  EXPECT_EQ(s[2], VK_NULL_HANDLE);
  ASSERT_EQ(tessera_vkFreeDescriptorSets(d.handle(), pool, 1, &s[0]), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s[2]), VK_SUCCESS);
  EXPECT_EQ(tessera_vkResetDescriptorPool(d.handle(), pool, 0), VK_SUCCESS);
  EXPECT_EQ(fromHandle<tessera::DescriptorPool>(pool)->liveSets, 0u);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s[0]), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s[1]), VK_SUCCESS);
  tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

// Per-type pool sizes are a reservation: a set may use room reserved for other types while the
// pool's total descriptor count allows (as lavapipe and RADV do; descriptor_pool.cpp says why).
TEST(DescriptorPool, DescriptorsOfAnyTypeShareThePoolsTotal) {
  FakeDevice d;
  VkDescriptorSetLayout ubo2 = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2)});
  VkDescriptorSetLayout ssbo = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  // The same type may be listed twice: 2 + 1 uniform buffers, 1 sampler: 4 descriptors in all.
  VkDescriptorPool pool = makePool(d.handle(), 10,
                                   {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                    {VK_DESCRIPTOR_TYPE_SAMPLER, 1}});
  VkDescriptorSet a, b, c;
  ASSERT_EQ(allocate(d.handle(), pool, ubo2, &a), VK_SUCCESS);
  ASSERT_EQ(allocate(d.handle(), pool, ubo2, &b), VK_SUCCESS);  // 4 uniform buffers of 3 reserved: the total allows
  EXPECT_EQ(allocate(d.handle(), pool, ssbo, &c), VK_ERROR_OUT_OF_POOL_MEMORY);  // none reserved, total used up
  ASSERT_EQ(tessera_vkFreeDescriptorSets(d.handle(), pool, 1, &a), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), pool, ssbo, &c), VK_SUCCESS);  // none reserved, but room in the total
  EXPECT_EQ(allocate(d.handle(), pool, ubo2, &a), VK_ERROR_OUT_OF_POOL_MEMORY);  // 3 + 2 > 4
  tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), ubo2, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), ssbo, nullptr);
}

TEST(DescriptorPool, InlineUniformBlockBytesAndBindingsAreHonoured) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 64),
                                                    binding(1, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16)});
  VkDescriptorPoolInlineUniformBlockCreateInfo ii{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO};
  ii.maxInlineUniformBlockBindings = 3;
  VkDescriptorPool bytesBound = makePool(d.handle(), 10, {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 100}}, &ii);
  VkDescriptorSet s;
  ASSERT_EQ(allocate(d.handle(), bytesBound, l, &s), VK_SUCCESS);  // 80 bytes, 2 bindings
  EXPECT_EQ(allocate(d.handle(), bytesBound, l, &s), VK_ERROR_OUT_OF_POOL_MEMORY);
  VkDescriptorPool bindingsBound = makePool(d.handle(), 10, {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 1000}}, &ii);
  ASSERT_EQ(allocate(d.handle(), bindingsBound, l, &s), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), bindingsBound, l, &s), VK_ERROR_OUT_OF_POOL_MEMORY);  // 4 bindings > 3
  tessera_vkDestroyDescriptorPool(d.handle(), bytesBound, nullptr);
  tessera_vkDestroyDescriptorPool(d.handle(), bindingsBound, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorPool, VariableCountsUseWhatTheSetIsAllocatedWith) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 64)},
                                       {VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT});
  VkDescriptorPool pool = makePool(d.handle(), 10, {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 10}});
  VkDescriptorSet s;
  uint32_t eight = 8, three = 3, two = 2;
  ASSERT_EQ(allocate(d.handle(), pool, l, &s, &eight), VK_SUCCESS);
  EXPECT_EQ(setOf(s).variableCount, 8u);
  EXPECT_EQ(setOf(s).size, 8 * tessera::abi::kDescriptorSize);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s, &three), VK_ERROR_OUT_OF_POOL_MEMORY);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s, &two), VK_SUCCESS);
  EXPECT_EQ(allocate(d.handle(), pool, l, &s), VK_SUCCESS);  // no count given: zero descriptors
  EXPECT_EQ(setOf(s).variableCount, 0u);
  tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorPool, AFailedMultiAllocationFreesItsSetsAndNullsEveryHandle) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool pool = makePool(d.handle(), 10, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}});
  VkDescriptorSetLayout layouts[3] = {l, l, l};
  VkDescriptorSet sets[3];
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 3, layouts};
  EXPECT_EQ(tessera_vkAllocateDescriptorSets(d.handle(), &ai, sets), VK_ERROR_OUT_OF_POOL_MEMORY);
  for (VkDescriptorSet s : sets) EXPECT_EQ(s, VK_NULL_HANDLE);
  ai.descriptorSetCount = 2;  // the first two were given back
  EXPECT_EQ(tessera_vkAllocateDescriptorSets(d.handle(), &ai, sets), VK_SUCCESS);
  tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorPool, NewSetsHoldNullDescriptorsAndTheirImmutableSamplers) {
  FakeDevice d;
  VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkSampler sampler;
  ASSERT_EQ(tessera_vkCreateSampler(d.handle(), &si, nullptr, &sampler), VK_SUCCESS);
  VkSampler immutable[2] = {sampler, sampler};
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4),
                                                    binding(1, VK_DESCRIPTOR_TYPE_SAMPLER, 2, immutable),
                                                    binding(2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, immutable)});
  tessera_vkDestroySampler(d.handle(), sampler, nullptr);
  // The pool's allocator hands out dirty memory: zeroed set memory is the driver's doing.
  TrackingAllocator dirty;
  VkAllocationCallbacks cb = dirty.callbacks();
  VkDescriptorPool pool = makePool(d.handle(), 4,
                                   {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16}, {VK_DESCRIPTOR_TYPE_SAMPLER, 8},
                                    {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}},
                                   nullptr, &cb);
  VkDescriptorSet s;
  ASSERT_EQ(allocate(d.handle(), pool, l, &s), VK_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(setOf(s).memory) % 64, 0u);
  for (uint32_t e = 0; e < 4; ++e) {
    auto b = descriptorAt<tessera::abi::BufferDescriptor>(s, 0, e);
    EXPECT_EQ(b.address, nullptr);
    EXPECT_EQ(b.range, 0u);
  }
  const auto& layout = layoutOf(l);
  for (uint32_t e = 0; e < 2; ++e) {
    auto img = descriptorAt<tessera::abi::ImageDescriptor>(s, 1, e);
    EXPECT_EQ(img.view, nullptr);
    EXPECT_EQ(img.sampler, layout.find(1)->immutableSamplers[e].state());
  }
  auto combined = descriptorAt<tessera::abi::ImageDescriptor>(s, 2);
  EXPECT_EQ(combined.view, nullptr);
  EXPECT_EQ(combined.sampler, layout.find(2)->immutableSamplers[0].state());
  tessera_vkDestroyDescriptorPool(d.handle(), pool, &cb);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(DescriptorPool, SetsKeepTheirLayoutAliveAndEverythingIsFreedThroughTheCallbacks) {
  FakeDevice d;
  TrackingAllocator layoutAlloc, poolAlloc;
  VkAllocationCallbacks lcb = layoutAlloc.callbacks(), pcb = poolAlloc.callbacks();
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)}, {}, &lcb);
  VkDescriptorPool pool = makePool(d.handle(), 4, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}}, nullptr, &pcb);
  VkDescriptorSet a, b;
  ASSERT_EQ(allocate(d.handle(), pool, l, &a), VK_SUCCESS);
  ASSERT_EQ(allocate(d.handle(), pool, l, &b), VK_SUCCESS);
  EXPECT_EQ(poolAlloc.live.size(), 3u);  // the pool and one block per set
  // The layout may be destroyed while its sets live; they still free correctly.
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, &lcb);
  EXPECT_EQ(layoutAlloc.live.size(), 1u);
  EXPECT_EQ(setOf(a).layout->find(0)->type, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER);
  tessera_vkFreeDescriptorSets(d.handle(), pool, 1, &a);
  EXPECT_EQ(layoutAlloc.live.size(), 1u);
  tessera_vkDestroyDescriptorPool(d.handle(), pool, &pcb);  // frees b, the last user of the layout
  EXPECT_TRUE(layoutAlloc.live.empty());
  EXPECT_TRUE(poolAlloc.live.empty());
}

TEST(DescriptorPool, HostAllocationFailureIsReportedAndLeaksNothing) {
  FakeDevice d;
  TrackingAllocator a;
  VkAllocationCallbacks cb = a.callbacks();
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1)});
  VkDescriptorPool pool = makePool(d.handle(), 4, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}}, nullptr, &cb);
  a.failAfter = 1;  // the second set fails
  VkDescriptorSetLayout layouts[2] = {l, l};
  VkDescriptorSet sets[2];
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 2, layouts};
  EXPECT_EQ(tessera_vkAllocateDescriptorSets(d.handle(), &ai, sets), VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(sets[0], VK_NULL_HANDLE);
  EXPECT_EQ(a.live.size(), 1u);  // only the pool
  EXPECT_EQ(fromHandle<tessera::DescriptorPool>(pool)->liveSets, 0u);
  EXPECT_EQ(fromHandle<tessera::DescriptorPool>(pool)->used[VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER], 0u);
  tessera_vkDestroyDescriptorPool(d.handle(), pool, &cb);
  EXPECT_TRUE(a.live.empty());
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

}  // namespace
}  // namespace tessera_test
