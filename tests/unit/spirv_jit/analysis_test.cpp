// The translator's analyses on hand-written SPIR-V: the structured block order
// (structured_cfg.h) and the uniformity analysis (uniformity.h), whose mistakes would not
// always show in results (a value wrongly kept scalar is only wrong when lanes disagree).
#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include "full_mask_blocks.h"
#include "spirv_module.h"
#include "structured_cfg.h"
#include "uniformity.h"

namespace tessera::jit {
namespace {

// A compute shader with one input built-in (%lid = LocalInvocationId.x as %x) and a push
// constant uint (%n), whose main body is `body`.
std::vector<uint32_t> assemble(const std::string& body) {
  const std::string text = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %pc
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn LocalInvocationId
               OpDecorate %P Block
               OpMemberDecorate %P 0 Offset 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %v3uint = OpTypeVector %uint 3
      %pv3in = OpTypePointer Input %v3uint
        %gid = OpVariable %pv3in Input
          %P = OpTypeStruct %uint
        %ppc = OpTypePointer PushConstant %P
         %pc = OpVariable %ppc PushConstant
      %ppcu = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
       %gidv = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %gidv 0
        %npt = OpAccessChain %ppcu %pc %uint_0
          %n = OpLoad %uint %npt
)" + body + R"(
               OpFunctionEnd
)";
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::vector<uint32_t> words;
  std::string diag;
  tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t& p, const char* m) {
    diag += std::to_string(p.line) + ": " + m + "\n";
  });
  EXPECT_TRUE(tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) << diag;
  EXPECT_TRUE(tools.Validate(words)) << diag;
  return words;
}

class Analysis : public ::testing::Test {
 protected:
  void analyse(const std::string& body) {
    words = assemble(body);
    std::string error;
    ASSERT_TRUE(module.parse(words, &error)) << error;
    fn = module.function(module.entryPoints()[0].function);
    cfg = buildStructuredCfg(*fn);
    uniformity = std::make_unique<Uniformity>(module);
    uniformity->analyze(*fn, cfg);
  }
  // The result id of the nth instruction (phis included) with opcode `op` in the function.
  uint32_t resultOf(spv::Op op, int nth = 0) const {
    for (const Block& b : fn->blocks) {
      for (const Instruction& i : b.phis)
        if (i.op == op && nth-- == 0) return i.result;
      for (const Instruction& i : b.body)
        if (i.op == op && nth-- == 0) return i.result;
    }
    return 0;
  }
  // full_mask_blocks.h, by block number in module order.
  std::vector<uint8_t> full(bool callsMayTerminate = false) const {
    return findFullMaskBlocks(*fn, cfg, *uniformity, callsMayTerminate);
  }
  int position(uint32_t label) const { return cfg.position[fn->blockIndex.at(label)]; }
  uint32_t labelOf(int blockNumber) const { return fn->blocks[blockNumber].label; }

  std::vector<uint32_t> words;
  Module module;
  const Function* fn = nullptr;
  StructuredCfg cfg;
  std::unique_ptr<Uniformity> uniformity;
};

// If/else: both branches before the merge, the merge last; a phi at the merge of a branch on
// a uniform value is uniform, on a varying value varying (spec: structured control flow).
TEST_F(Analysis, SelectionMergeComesAfterBothBranchesAndPhiFollowsTheCondition) {
  analyse(R"(
          %c = OpULessThan %bool %n %uint_2
               OpSelectionMerge %m None
               OpBranchConditional %c %t %f
          %t = OpLabel
               OpBranch %m
          %f = OpLabel
               OpBranch %m
          %m = OpLabel
         %pu = OpPhi %uint %uint_1 %t %uint_2 %f
         %cv = OpULessThan %bool %x %uint_2
               OpSelectionMerge %m2 None
               OpBranchConditional %cv %t2 %m2
         %t2 = OpLabel
               OpBranch %m2
         %m2 = OpLabel
         %pv = OpPhi %uint %uint_1 %m %uint_2 %t2
               OpReturn)");
  // Block numbers in module order: entry 0, t 1, f 2, m 3, t2 4, m2 5.
  EXPECT_LT(position(labelOf(1)), position(labelOf(3)));
  EXPECT_LT(position(labelOf(2)), position(labelOf(3)));
  EXPECT_LT(position(labelOf(4)), position(labelOf(5)));
  EXPECT_FALSE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 0))) << "phi after a uniform branch";
  EXPECT_TRUE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 1))) << "phi after a varying branch";
  EXPECT_FALSE(uniformity->isVarying(resultOf(spv::Op::OpLoad, 1))) << "push constant load";
  EXPECT_TRUE(uniformity->isVarying(resultOf(spv::Op::OpCompositeExtract, 0))) << "LocalInvocationId.x";
}

// A loop whose exit depends on the lane: its counter stays uniform inside the loop (all active
// lanes agree each iteration) but the value seen after the loop is varying (lanes left in
// different iterations: temporal divergence), and the loop occupies [header, merge).
TEST_F(Analysis, LoopWithDivergentExitMakesValuesUsedAfterItVarying) {
  analyse(R"(
               OpBranch %h
          %h = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
       %done = OpUGreaterThan %bool %i %x
               OpBranchConditional %done %merge %cont
       %cont = OpLabel
      %inext = OpIAdd %uint %i %uint_1
               OpBranch %h
      %merge = OpLabel
        %out = OpIAdd %uint %i %uint_2
               OpReturn)");
  // entry 0, h 1, body 2, cont 3, merge 4.
  EXPECT_EQ(cfg.loopLast[1], position(labelOf(3)));
  EXPECT_LT(position(labelOf(3)), position(labelOf(4)));
  EXPECT_TRUE(cfg.isBackEdge(3, 1));
  EXPECT_TRUE(uniformity->isVarying(resultOf(spv::Op::OpIAdd, 1))) << "used after a divergent loop exit";
  EXPECT_TRUE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 0)))
      << "the counter is used after the loop, so it must keep each lane's last value";
}

// The same loop with a uniform exit: everything stays uniform.
TEST_F(Analysis, LoopWithUniformExitKeepsItsCounterUniform) {
  analyse(R"(
               OpBranch %h
          %h = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
       %done = OpUGreaterThan %bool %i %n
               OpBranchConditional %done %merge %cont
       %cont = OpLabel
      %inext = OpIAdd %uint %i %uint_1
               OpBranch %h
      %merge = OpLabel
        %out = OpIAdd %uint %i %uint_2
               OpReturn)");
  EXPECT_FALSE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 0)));
  EXPECT_FALSE(uniformity->isVarying(resultOf(spv::Op::OpIAdd, 1)));
}

// A varying branch inside a loop whose exit is uniform does not make the loop counter varying
// (the lanes rejoin within the iteration).
TEST_F(Analysis, DivergentIfInsideAUniformLoopLeavesTheCounterUniform) {
  analyse(R"(
               OpBranch %h
          %h = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %cont
          %s = OpPhi %uint %uint_0 %entry %snext %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
         %cv = OpULessThan %bool %x %i
               OpSelectionMerge %join None
               OpBranchConditional %cv %then %join
       %then = OpLabel
               OpBranch %join
       %join = OpLabel
      %snext = OpPhi %uint %s %body %uint_1 %then
               OpBranch %cont
       %cont = OpLabel
      %inext = OpIAdd %uint %i %uint_1
       %done = OpUGreaterThan %bool %inext %n
               OpBranchConditional %done %merge %h
      %merge = OpLabel
               OpReturn)");
  EXPECT_FALSE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 0))) << "loop counter";
  EXPECT_TRUE(uniformity->isVarying(resultOf(spv::Op::OpPhi, 2))) << "phi joining the divergent if";
}

// Full blocks (full_mask_blocks.h): a uniform if/else and a uniform loop keep every block
// full; a varying if makes its branch masked but its merge full again (every lane leaves a
// closed construct through its merge).
TEST_F(Analysis, UniformFlowAndMergesOfClosedConstructsRunWithAllLanes) {
  analyse(R"(
          %c = OpULessThan %bool %n %uint_2
               OpSelectionMerge %m None
               OpBranchConditional %c %t %f
          %t = OpLabel
               OpBranch %m
          %f = OpLabel
               OpBranch %m
          %m = OpLabel
               OpBranch %h
          %h = OpLabel
          %i = OpPhi %uint %uint_0 %m %inext %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
         %cv = OpULessThan %bool %x %i
               OpSelectionMerge %join None
               OpBranchConditional %cv %then %join
       %then = OpLabel
               OpBranch %join
       %join = OpLabel
               OpBranch %cont
       %cont = OpLabel
      %inext = OpIAdd %uint %i %uint_1
       %done = OpUGreaterThan %bool %inext %n
               OpBranchConditional %done %merge %h
      %merge = OpLabel
               OpReturn)");
  // entry 0, t 1, f 2, m 3, h 4, body 5, then 6, join 7, cont 8, merge 9.
  const std::vector<uint8_t> expected{1, 1, 1, 1, 1, 1, 0, 1, 1, 1};
  EXPECT_EQ(full(), expected);
}

// A varying break makes the rest of the loop body, the continue construct and (through the
// back-edge) the header masked; the loop's merge is full (every lane leaves through it). A
// varying branch to a return makes everything after it masked: lanes that returned are gone.
TEST_F(Analysis, VaryingBreaksAndReturnsLeaveMaskedBlocks) {
  analyse(R"(
               OpBranch %h
          %h = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %cont
               OpLoopMerge %merge %cont None
               OpBranch %body
       %body = OpLabel
       %stop = OpUGreaterThan %bool %i %x
               OpSelectionMerge %rest None
               OpBranchConditional %stop %merge %rest
       %rest = OpLabel
               OpBranch %cont
       %cont = OpLabel
      %inext = OpIAdd %uint %i %uint_1
       %done = OpUGreaterThan %bool %inext %n
               OpBranchConditional %done %merge %h
      %merge = OpLabel
         %cv = OpULessThan %bool %x %n
               OpSelectionMerge %after None
               OpBranchConditional %cv %ret %after
        %ret = OpLabel
               OpReturn
      %after = OpLabel
               OpReturn)");
  // entry 0, h 1, body 2, rest 3, cont 4, merge 5, ret 6, after 7.
  const std::vector<uint8_t> expected{1, 0, 0, 0, 0, 1, 0, 0};
  EXPECT_EQ(full(), expected);
}

// In a fragment shader a call may terminate lanes (OpKill in the callee): the blocks after a
// block that calls are masked when calls may terminate, full otherwise.
TEST_F(Analysis, ACallThatMayTerminateLanesEndsTheFullRegion) {
  analyse(R"(
       %r = OpFunctionCall %void %helper
            OpBranch %next
    %next = OpLabel
            OpReturn
            OpFunctionEnd
  %helper = OpFunction %void None %fn
      %hl = OpLabel
            OpReturn)");
  const std::vector<uint8_t> allFull{1, 1}, afterCallMasked{1, 0};
  EXPECT_EQ(full(false), allFull);
  EXPECT_EQ(full(true), afterCallMasked);
}

}  // namespace
}  // namespace tessera::jit
