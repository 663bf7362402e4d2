// Pipeline layouts (what the JIT asks about bindings) and the bound state that
// vkCmdBindDescriptorSets / vkCmdPushConstants leave in a command buffer.
#include "command_buffer.h"
#include "descriptor_test_util.h"
#include "pipeline.h"
#include "pipeline_layout.h"

namespace tessera_test {
namespace {

VkPipelineLayout makePipelineLayout(VkDevice dev, const std::vector<VkDescriptorSetLayout>& sets,
                                    const std::vector<VkPushConstantRange>& ranges = {}) {
  VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  ci.setLayoutCount = uint32_t(sets.size());
  ci.pSetLayouts = sets.data();
  ci.pushConstantRangeCount = uint32_t(ranges.size());
  ci.pPushConstantRanges = ranges.data();
  VkPipelineLayout pl = VK_NULL_HANDLE;
  EXPECT_EQ(tessera_vkCreatePipelineLayout(dev, &ci, nullptr, &pl), VK_SUCCESS);
  return pl;
}

const tessera::PipelineLayout& pipelineLayoutOf(VkPipelineLayout pl) { return *fromHandle<tessera::PipelineLayout>(pl); }

TEST(PipelineLayout, LocatesEveryBindingAndNumbersDynamicOffsetsAcrossSets) {
  FakeDevice d;
  VkDescriptorSetLayout set0 = makeLayout(d.handle(), {binding(1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                                       binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorSetLayout set1 = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4)});
  VkDescriptorSetLayout set2 = makeLayout(d.handle(), {binding(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1),
                                                       binding(7, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 3)});
  VkPipelineLayout pl = makePipelineLayout(d.handle(), {set0, set1, set2}, {{VK_SHADER_STAGE_COMPUTE_BIT, 16, 48}});
  // The set layouts may go away; the pipeline layout keeps its own copy.
  for (VkDescriptorSetLayout l : {set0, set1, set2}) tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);

  const auto& p = pipelineLayoutOf(pl);
  EXPECT_EQ(p.setCount, 3u);
  EXPECT_EQ(p.sets[0].dynamicBase, 0u);
  EXPECT_EQ(p.sets[1].dynamicBase, 2u);
  EXPECT_EQ(p.sets[2].dynamicBase, 2u);
  EXPECT_EQ(p.dynamicCount, 6u);
  EXPECT_EQ(p.pushConstantSize, 64u);

  const tessera::DescriptorLocation* loc = p.find(0, 1);
  ASSERT_NE(loc, nullptr);
  EXPECT_EQ(loc->type, uint32_t(VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC));
  EXPECT_EQ(loc->arraySize, 2u);
  EXPECT_EQ(loc->offset, tessera::abi::kDescriptorSize);  // after binding 0
  EXPECT_EQ(loc->dynamicIndex, 0);
  EXPECT_EQ(p.find(0, 0)->dynamicIndex, -1);
  EXPECT_EQ(p.find(1, 0)->arraySize, 4u);
  EXPECT_EQ(p.find(2, 3)->dynamicIndex, 2);
  EXPECT_EQ(p.find(2, 7)->dynamicIndex, 3);
  EXPECT_EQ(p.find(2, 7)->offset, tessera::abi::kDescriptorSize);
  EXPECT_EQ(p.find(1, 1), nullptr);
  EXPECT_EQ(p.find(3, 0), nullptr);
  tessera_vkDestroyPipelineLayout(d.handle(), pl, nullptr);
}

TEST(PipelineLayout, EquivalentLayoutsHashAlikeAndDifferentOnesDoNot) {
  FakeDevice d;
  VkDescriptorSetLayout a = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2)});
  VkDescriptorSetLayout b = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2)});
  VkDescriptorSetLayout c = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3)});
  VkPipelineLayout p1 = makePipelineLayout(d.handle(), {a, a});
  VkPipelineLayout p2 = makePipelineLayout(d.handle(), {b, a});
  VkPipelineLayout p3 = makePipelineLayout(d.handle(), {a, c});
  VkPipelineLayout p4 = makePipelineLayout(d.handle(), {a, a}, {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16}});
  EXPECT_TRUE(pipelineLayoutOf(p1).equivalent(pipelineLayoutOf(p2)));
  EXPECT_EQ(pipelineLayoutOf(p1).hash, pipelineLayoutOf(p2).hash);
  EXPECT_FALSE(pipelineLayoutOf(p1).equivalent(pipelineLayoutOf(p3)));
  EXPECT_NE(pipelineLayoutOf(p1).hash, pipelineLayoutOf(p3).hash);
  EXPECT_FALSE(pipelineLayoutOf(p1).equivalent(pipelineLayoutOf(p4)));
  for (VkPipelineLayout p : {p1, p2, p3, p4}) tessera_vkDestroyPipelineLayout(d.handle(), p, nullptr);
  for (VkDescriptorSetLayout l : {a, b, c}) tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

TEST(PipelineLayout, ANullSetLayoutIsAnEmptySet) {
  FakeDevice d;
  VkDescriptorSetLayout l = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1)});
  VkPipelineLayout pl = makePipelineLayout(d.handle(), {VK_NULL_HANDLE, l});
  const auto& p = pipelineLayoutOf(pl);
  EXPECT_EQ(p.setBindings(0).size(), 0u);
  EXPECT_EQ(p.find(1, 0)->dynamicIndex, 0);
  tessera_vkDestroyPipelineLayout(d.handle(), pl, nullptr);
  tessera_vkDestroyDescriptorSetLayout(d.handle(), l, nullptr);
}

// Bound state ------------------------------------------------------------------------------

class BoundState : public ::testing::Test {
 protected:
  void SetUp() override {
    dynLayout = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2),
                                        binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1)});
    plainLayout = makeLayout(d.handle(), {binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
    pool = makePool(d.handle(), 8, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 8}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 8},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8}});
    ASSERT_EQ(allocate(d.handle(), pool, dynLayout, &dynSet), VK_SUCCESS);
    ASSERT_EQ(allocate(d.handle(), pool, plainLayout, &plainSet), VK_SUCCESS);
    layout = makePipelineLayout(d.handle(), {plainLayout, dynLayout, dynLayout},
                                {{VK_SHADER_STAGE_ALL, 0, tessera::abi::kMaxPushConstantBytes}});
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    ASSERT_EQ(tessera_vkBeginCommandBuffer(handle(), &bi), VK_SUCCESS);
  }
  void TearDown() override {
    tessera_vkDestroyPipelineLayout(d.handle(), layout, nullptr);
    tessera_vkDestroyDescriptorPool(d.handle(), pool, nullptr);
    tessera_vkDestroyDescriptorSetLayout(d.handle(), dynLayout, nullptr);
    tessera_vkDestroyDescriptorSetLayout(d.handle(), plainLayout, nullptr);
  }
  VkCommandBuffer handle() { return toHandle<VkCommandBuffer>(&cb); }
  // Binds a pipeline whose kernels read dynamic offsets as `pipelineLayout` numbers them (the
  // snapshot places each set's offsets by the bound pipeline's DynamicOffsetMap).
  void bindPipelineOf(VkPipelineBindPoint bindPoint, VkPipelineLayout pipelineLayout, tessera::Pipeline& p) {
    p.bindPoint = bindPoint;
    p.dynamicOffsets = tessera::DynamicOffsetMap::of(&pipelineLayoutOf(pipelineLayout));
    tessera_vkCmdBindPipeline(handle(), bindPoint, toHandle<VkPipeline>(&p));
  }

  FakeDevice d;
  tessera::CommandPool cmdPool;
  tessera::CommandBuffer cb{&cmdPool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, nullptr};
  VkDescriptorSetLayout dynLayout, plainLayout;
  VkDescriptorPool pool;
  VkDescriptorSet dynSet, plainSet;
  VkPipelineLayout layout;
};

TEST_F(BoundState, SetsAndDynamicOffsetsLandWhereThePipelineLayoutSays) {
  const uint32_t offsets[] = {16, 32, 48, 64, 80, 96};
  VkDescriptorSet sets[] = {dynSet, dynSet};
  tessera::Pipeline pipeline;
  bindPipelineOf(VK_PIPELINE_BIND_POINT_COMPUTE, layout, pipeline);
  // Sets 1 and 2 of the layout: their dynamic offsets start at index 0 (set 0 has none).
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 2, sets, 6, offsets);
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &plainSet, 0, nullptr);
  const tessera::abi::BoundResources* r = cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->sets[0], setOf(plainSet).memory);
  EXPECT_EQ(r->sets[1], setOf(dynSet).memory);
  EXPECT_EQ(r->sets[2], setOf(dynSet).memory);
  EXPECT_EQ(r->sets[3], nullptr);
  for (uint32_t i = 0; i < 6; ++i) EXPECT_EQ(r->dynamicOffsets[i], offsets[i]) << i;
  // Rebinding set 2 alone replaces its offsets, at the base the layout gives set 2.
  const uint32_t more[] = {1000, 2000, 3000};
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_COMPUTE, layout, 2, 1, sets, 3, more);
  r = cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  EXPECT_EQ(r->dynamicOffsets[2], 48u);
  EXPECT_EQ(r->dynamicOffsets[3], 1000u);
  EXPECT_EQ(r->dynamicOffsets[5], 3000u);
  // The graphics bind point is separate.
  EXPECT_EQ(cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS)->sets[0], nullptr);
}

// "Pipeline Layouts": with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT "the properties
// and/or absence of a particular descriptor set do not influence any other properties of the
// pipeline layout". A set bound through a layout whose earlier sets are NULL gets its offsets
// where the bound pipeline's layout (with those sets present) numbers them, whichever of the
// two is bound first; a pipeline numbering them differently takes a new snapshot.
TEST_F(BoundState, DynamicOffsetsLandWhereTheBoundPipelinesLayoutSays) {
  VkPipelineLayout full = makePipelineLayout(d.handle(), {dynLayout, dynLayout});
  VkPipelineLayout secondOnly = makePipelineLayout(d.handle(), {VK_NULL_HANDLE, dynLayout});
  const uint32_t first[] = {16, 32, 48}, second[] = {1000, 2000, 3000};
  // Bound through `secondOnly`, set 1's offsets are that layout's first three.
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_GRAPHICS, secondOnly, 1, 1, &dynSet, 3, second);
  tessera::Pipeline linked, other;
  bindPipelineOf(VK_PIPELINE_BIND_POINT_GRAPHICS, full, linked);
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_GRAPHICS, full, 0, 1, &dynSet, 3, first);
  const tessera::abi::BoundResources* r = cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS);
  ASSERT_NE(r, nullptr);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r->dynamicOffsets[i], first[i]) << i;
    EXPECT_EQ(r->dynamicOffsets[3 + i], second[i]) << i;  // the full layout's set 1 starts at 3
  }
  // A pipeline of `secondOnly` reads set 1's offsets from index 0.
  bindPipelineOf(VK_PIPELINE_BIND_POINT_GRAPHICS, secondOnly, other);
  const tessera::abi::BoundResources* r2 = cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS);
  EXPECT_NE(r2, r);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(r2->dynamicOffsets[i], second[i]) << i;
  EXPECT_EQ(r->dynamicOffsets[0], first[0]);  // an earlier snapshot never changes
  tessera_vkDestroyPipelineLayout(d.handle(), full, nullptr);
  tessera_vkDestroyPipelineLayout(d.handle(), secondOnly, nullptr);
}

TEST_F(BoundState, SnapshotsAreSharedUntilSomethingChanges) {
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &plainSet, 0, nullptr);
  const tessera::abi::BoundResources* first = cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  for (int i = 0; i < 10000; ++i) ASSERT_EQ(cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE), first);
  const uint32_t value = 0x12345678;
  tessera_vkCmdPushConstants(handle(), layout, VK_SHADER_STAGE_COMPUTE_BIT, 8, 4, &value);
  const tessera::abi::BoundResources* second = cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  EXPECT_NE(second, first);
  uint32_t read;
  std::memcpy(&read, second->pushConstants + 8, 4);
  EXPECT_EQ(read, value);
  std::memcpy(&read, first->pushConstants + 8, 4);
  EXPECT_EQ(read, 0u);  // an earlier snapshot never changes
  EXPECT_EQ(first->sets[0], second->sets[0]);
}

TEST_F(BoundState, PushConstantsReachTheBindPointsOfTheirStages) {
  const uint8_t bytes[4] = {1, 2, 3, 4};
  tessera_vkCmdPushConstants(handle(), layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, bytes);
  tessera_vkCmdPushConstants(handle(), layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 252, 4, bytes);
  const auto* compute = cb.snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  const auto* graphics = cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS);
  EXPECT_EQ(compute->pushConstants[0], 0);
  EXPECT_EQ(graphics->pushConstants[0], 1);
  EXPECT_EQ(compute->pushConstants[255], 4);
  EXPECT_EQ(graphics->pushConstants[255], 4);
  EXPECT_EQ(cb.snapshotResources(VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR), nullptr);
}

TEST_F(BoundState, BeginningAgainStartsFromNothing) {
  const uint32_t value = 7;
  tessera_vkCmdBindDescriptorSets(handle(), VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &plainSet, 0, nullptr);
  tessera_vkCmdPushConstants(handle(), layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4, &value);
  ASSERT_NE(cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS)->sets[0], nullptr);
  ASSERT_EQ(tessera_vkEndCommandBuffer(handle()), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(tessera_vkBeginCommandBuffer(handle(), &bi), VK_SUCCESS);
  const auto* r = cb.snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS);
  EXPECT_EQ(r->sets[0], nullptr);
  EXPECT_EQ(r->pushConstants[0], 0);
}

}  // namespace
}  // namespace tessera_test
