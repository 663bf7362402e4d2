// readWidthUse (spirv_jit/width_use.cpp): a fragment stage may be compiled wider than the
// device's subgroupSize only where the width cannot be seen: "Subgroups" ties SubgroupSize,
// SubgroupLocalInvocationId and every group operation to capabilities the module must declare.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "compute_harness.h"
#include "tessera/spirv_width_use.h"

namespace tessera::jit {
namespace {

using tessera_test::loadShader;  // compute_harness.cpp: the corpus's compiled SPIR-V

uint32_t instruction(spv::Op op, uint32_t count) { return count << 16 | uint32_t(op); }

// A header and the given capabilities, then one more instruction.
std::vector<uint32_t> module(std::initializer_list<spv::Capability> caps, std::vector<uint32_t> tail = {}) {
  std::vector<uint32_t> w = {spv::MagicNumber, 0x00010300, 0, 100, 0};
  for (spv::Capability c : caps) w.push_back(instruction(spv::Op::OpCapability, 2)), w.push_back(uint32_t(c));
  w.insert(w.end(), tail.begin(), tail.end());
  return w;
}

TEST(WidthUse, TexturingShadersWithoutSubgroupsMayWiden) {
  for (const char* name : {"stage_texture_frag", "stage_texture_many_frag"}) {
    const std::vector<uint32_t> words = loadShader(name);
    ASSERT_FALSE(words.empty()) << name;
    const WidthUse use = readWidthUse(words);
    EXPECT_TRUE(use.samplesImages) << name;
    EXPECT_FALSE(use.reachesSubgroups) << name;
  }
  const WidthUse plain = readWidthUse(loadShader("draw_basic_frag"));
  EXPECT_FALSE(plain.samplesImages);
  EXPECT_FALSE(plain.reachesSubgroups);
}

TEST(WidthUse, ShadersThatSeeTheirSubgroupAreFound) {
  for (const char* name : {"subgroup_fragment_frag", "stage_quad_subgroup_frag"}) {
    const std::vector<uint32_t> words = loadShader(name);
    ASSERT_FALSE(words.empty()) << name;
    EXPECT_TRUE(readWidthUse(words).reachesSubgroups) << name;
  }
  // The extension capabilities (SPV_KHR_shader_ballot, SPV_KHR_subgroup_vote) too.
  EXPECT_TRUE(readWidthUse(module({spv::Capability::Shader, spv::Capability::SubgroupBallotKHR})).reachesSubgroups);
  EXPECT_TRUE(readWidthUse(module({spv::Capability::Shader, spv::Capability::SubgroupVoteKHR})).reachesSubgroups);
  EXPECT_FALSE(readWidthUse(module({spv::Capability::Shader, spv::Capability::ImageQuery})).reachesSubgroups);
}

TEST(WidthUse, EverySamplingFetchAndGatherInstructionCounts) {
  for (spv::Op op : {spv::Op::OpImageSampleImplicitLod, spv::Op::OpImageSampleProjDrefExplicitLod, spv::Op::OpImageFetch,
                     spv::Op::OpImageGather, spv::Op::OpImageDrefGather, spv::Op::OpImageSparseFetch}) {
    // The operands are not looked at: a result type, a result and an image id.
    const std::vector<uint32_t> words = module({spv::Capability::Shader}, {instruction(op, 5), 1, 2, 3, 4});
    EXPECT_TRUE(readWidthUse(words).samplesImages) << uint32_t(op);
  }
  EXPECT_FALSE(readWidthUse(module({spv::Capability::Shader}, {instruction(spv::Op::OpImageRead, 5), 1, 2, 3, 4}))
                   .samplesImages);
}

TEST(WidthUse, ArithmeticInstructionsAreCounted) {
  std::vector<uint32_t> tail;
  for (spv::Op op : {spv::Op::OpFAdd, spv::Op::OpFMul, spv::Op::OpIAdd, spv::Op::OpSNegate, spv::Op::OpDot,
                     spv::Op::OpMatrixTimesVector, spv::Op::OpFMod})
    tail.insert(tail.end(), {instruction(op, 5), 1, 2, 3, 4});
  tail.insert(tail.end(), {instruction(spv::Op::OpExtInst, 6), 1, 2, 3, 31, 4});  // GLSL.std.450 Sqrt
  tail.insert(tail.end(), {instruction(spv::Op::OpLoad, 4), 1, 2, 3});           // not arithmetic
  tail.insert(tail.end(), {instruction(spv::Op::OpFOrdLessThan, 5), 1, 2, 3, 4});  // a comparison
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, tail)).arithmetic, 8u);
  // A colour pass-through shader from the corpus holds next to none.
  EXPECT_LT(readWidthUse(loadShader("draw_basic_frag")).arithmetic, 8u);
}

// Divisions: OpFDiv and GLSL.std.450 Sqrt / InverseSqrt (only from that instruction set).
TEST(WidthUse, DivisionsAndSquareRootsAreCounted) {
  auto words = [](std::initializer_list<uint32_t> w) { return std::vector<uint32_t>(w); };
  std::vector<uint32_t> tail = words({instruction(spv::Op::OpExtInstImport, 6), 7});
  const char name[16] = "GLSL.std.450";  // 12 characters, the terminator and padding: 4 words
  uint32_t packed[4] = {};
  std::memcpy(packed, name, sizeof name);
  tail.insert(tail.end(), packed, packed + 4);
  tail.insert(tail.end(), {instruction(spv::Op::OpFDiv, 5), 1, 2, 3, 4});
  tail.insert(tail.end(), {instruction(spv::Op::OpExtInst, 6), 1, 5, 7, 31, 4});  // Sqrt
  tail.insert(tail.end(), {instruction(spv::Op::OpExtInst, 6), 1, 6, 7, 32, 4});  // InverseSqrt
  tail.insert(tail.end(), {instruction(spv::Op::OpExtInst, 6), 1, 8, 7, 13, 4});  // Sin: not a division
  tail.insert(tail.end(), {instruction(spv::Op::OpExtInst, 6), 1, 9, 99, 31, 4});  // another set's 31
  tail.insert(tail.end(), {instruction(spv::Op::OpFMul, 5), 1, 10, 3, 4});
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, tail)).divisions, 3u);
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader})).divisions, 0u);
}

// The workgroup size: LocalSize's literals; LocalSizeId's or a WorkgroupSize built-in's
// constants (glslang writes those for SPIR-V 1.6 and gl_WorkGroupSize); none when specialized.
TEST(WidthUse, LiteralWorkgroupSizesAreRead) {
  const uint32_t mode = uint32_t(spv::ExecutionMode::LocalSize), modeId = uint32_t(spv::ExecutionMode::LocalSizeId);
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, {instruction(spv::Op::OpExecutionMode, 6), 1, mode, 16, 4, 2}))
                .localInvocations,
            128u);
  auto constant = [](uint32_t id, uint32_t value) {
    return std::vector<uint32_t>{instruction(spv::Op::OpConstant, 4), 50, id, value};
  };
  std::vector<uint32_t> byId = {instruction(spv::Op::OpExecutionModeId, 6), 1, modeId, 60, 61, 62};
  for (auto [id, v] : {std::pair{60u, 64u}, {61u, 1u}, {62u, 1u}}) {
    auto c = constant(id, v);
    byId.insert(byId.end(), c.begin(), c.end());
  }
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, byId)).localInvocations, 64u);
  // One of them a specialization constant: not literal.
  std::vector<uint32_t> specialized = {instruction(spv::Op::OpExecutionModeId, 6), 1, modeId, 60, 61, 62};
  for (uint32_t id : {60u, 61u}) {
    auto c = constant(id, 4);
    specialized.insert(specialized.end(), c.begin(), c.end());
  }
  specialized.insert(specialized.end(), {instruction(spv::Op::OpSpecConstant, 4), 50, 62, 2});
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, specialized)).localInvocations, 0u);
  // A WorkgroupSize built-in overrides LocalSize: a constant composite is read, a specialized one
  // leaves the size unknown.
  std::vector<uint32_t> builtIn = {instruction(spv::Op::OpExecutionMode, 6), 1, mode, 8, 1, 1,
                                   instruction(spv::Op::OpDecorate, 4), 70, uint32_t(spv::Decoration::BuiltIn),
                                   uint32_t(spv::BuiltIn::WorkgroupSize)};
  for (auto [id, v] : {std::pair{60u, 32u}, {61u, 2u}, {62u, 1u}}) {
    auto c = constant(id, v);
    builtIn.insert(builtIn.end(), c.begin(), c.end());
  }
  std::vector<uint32_t> composite = builtIn;
  composite.insert(composite.end(), {instruction(spv::Op::OpConstantComposite, 6), 51, 70, 60, 61, 62});
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, composite)).localInvocations, 64u);
  builtIn.insert(builtIn.end(), {instruction(spv::Op::OpSpecConstantComposite, 6), 51, 70, 60, 61, 62});
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader}, builtIn)).localInvocations, 0u);
  // No size at all (a fragment module).
  EXPECT_EQ(readWidthUse(module({spv::Capability::Shader})).localInvocations, 0u);
}

TEST(WidthUse, UnreadableWordsAssumeTheWorst) {
  EXPECT_TRUE(readWidthUse({}).reachesSubgroups);
  // An instruction running past the end.
  EXPECT_TRUE(readWidthUse(module({spv::Capability::Shader}, {instruction(spv::Op::OpImageFetch, 9), 1})).reachesSubgroups);
  // A zero word count.
  EXPECT_TRUE(readWidthUse(module({spv::Capability::Shader}, {0u, 1u})).reachesSubgroups);
}

}  // namespace
}  // namespace tessera::jit
