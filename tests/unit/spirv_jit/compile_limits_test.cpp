// Bounded compilation (issue 14, scope 4): structure_limits.h refuses modules nested deeper
// than kMaxStructuredNesting before the validator (whose cost grows with the cube of the
// depth), and deep_stack.h runs compilation on a stack where LLVM's recursion over a big, valid
// shader fits.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <stdexcept>
#include <string>

#include "compute_harness.h"
#include "deep_stack.h"
#include "structure_limits.h"

namespace tessera_test {
namespace {

using tessera::jit::CompileStatus;
using tessera::jit::kMaxStructuredNesting;

// A compute module with `depth` nested selection constructs: level k runs while v[0] > k, and
// the innermost one stores `depth` into v[1]. v[0] = depth makes every level taken.
std::string nestedModule(uint32_t depth) {
  std::string s = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%buf = OpVariable %pblk StorageBuffer
%pu = OpTypePointer StorageBuffer %uint
%bool = OpTypeBool
%c0 = OpConstant %uint 0
%c1 = OpConstant %uint 1
%depth = OpConstant %uint )" + std::to_string(depth) + R"(
%main = OpFunction %void None %fnty
%entry = OpLabel
%p0 = OpAccessChain %pu %buf %c0 %c0
%x = OpLoad %uint %p0
OpBranch %h0
)";
  for (uint32_t k = 0; k < depth; ++k) {
    const std::string n = std::to_string(k);
    s += "%h" + n + " = OpLabel\n";  // its constant %k<n> is declared with the types (below)
    s += "%gt" + n + " = OpUGreaterThan %bool %x %k" + n + "\n";
    s += "OpSelectionMerge %m" + n + " None\n";
    s += "OpBranchConditional %gt" + n + " %" + (k + 1 < depth ? "h" + std::to_string(k + 1) : std::string("inner")) + " %m" + n + "\n";
  }
  s += "%inner = OpLabel\n%p1 = OpAccessChain %pu %buf %c0 %c1\nOpStore %p1 %depth\nOpBranch %m" + std::to_string(depth - 1) + "\n";
  for (uint32_t k = depth; k-- > 0;) {
    s += "%m" + std::to_string(k) + " = OpLabel\n";
    s += k > 0 ? "OpBranch %m" + std::to_string(k - 1) + "\n" : "OpReturn\n";
  }
  s += "OpFunctionEnd\n";
  std::string constants;
  for (uint32_t k = 0; k < depth; ++k) constants += "%k" + std::to_string(k) + " = OpConstant %uint " + std::to_string(k) + "\n";
  s.insert(s.find("%main = OpFunction"), constants);
  return s;
}

TEST(StructureLimits, TheNestingDepthIsCountedFromTheWords) {
  for (uint32_t depth : {1u, 7u, 40u}) EXPECT_EQ(tessera::jit::structuredNestingDepth(assembleSpirv(nestedModule(depth))), depth);
  // Truncated or garbage words end the scan without a crash.
  auto words = assembleSpirv(nestedModule(12));
  words.resize(words.size() / 2);
  EXPECT_LE(tessera::jit::structuredNestingDepth(words), 12u);
  words.push_back(0xffff0000u);  // an instruction longer than what is left
  EXPECT_LE(tessera::jit::structuredNestingDepth(words), 12u);
  EXPECT_EQ(tessera::jit::structuredNestingDepth({}), 0u);
}

TEST(StructureLimits, NestingAtTheLimitCompilesAndRuns) {
  // Section "Universal Limits" of the SPIR-V specification allows 1023 levels; Tessera's limit
  // is below that, and a module at it must still work.
  auto r = compileWords(assembleSpirv(nestedModule(kMaxStructuredNesting)), 8);
  ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
  for (uint32_t x : {kMaxStructuredNesting, kMaxStructuredNesting - 1}) {
    std::vector<uint8_t> buffer = bytesOf(std::vector<uint32_t>{x, 0});
    ComputeRun run;
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    EXPECT_EQ(valuesOf<uint32_t>(buffer)[1], x == kMaxStructuredNesting ? kMaxStructuredNesting : 0u) << "v[0] = " << x;
  }
}

TEST(StructureLimits, DeeperNestingIsRefusedWithAMessageBeforeValidation) {
  // Depth 1000 took the validator about 23 s; refused, it is a clean error.
  auto r = compileWords(assembleSpirv(nestedModule(1000)), 8);
  EXPECT_EQ(r.status, CompileStatus::Unsupported);
  EXPECT_NE(r.message.find("nested 1000 deep"), std::string::npos) << r.message;
  EXPECT_EQ(r.program, nullptr);
  r = compileWords(assembleSpirv(nestedModule(kMaxStructuredNesting + 1)), 8);
  EXPECT_EQ(r.status, CompileStatus::Unsupported) << r.message;
}

// Uses about `bytes` of stack (the volatile array keeps the compiler from shrinking frames).
int recurse(size_t bytes) {
  volatile char frame[4096];
  frame[0] = char(bytes);
  if (bytes <= sizeof frame) return frame[0];
  return recurse(bytes - sizeof frame) + frame[0];
}

TEST(DeepStack, RecursionFarBeyondAThreadsStackCompletes) {
  // 64 MiB: eight times the usual 8 MiB main-thread stack, on which this would fault.
  int result = -1;
  tessera::jit::runOnDeepStack([&] { result = recurse(size_t(64) << 20); });
  EXPECT_GE(result, 0);
  EXPECT_EQ(tessera::jit::onDeepStack<int>([] { return 42; }), 42);
}

TEST(DeepStack, AnExceptionReachesTheCaller) {
  EXPECT_THROW(tessera::jit::runOnDeepStack([] { throw std::runtime_error("from the deep stack"); }), std::runtime_error);
  // And the next call works as before.
  EXPECT_EQ(tessera::jit::onDeepStack<int>([] { return 7; }), 7);
}

}  // namespace
}  // namespace tessera_test
