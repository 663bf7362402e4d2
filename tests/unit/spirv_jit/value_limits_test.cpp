// The translator's limits on composite values (translator.h, kMaxValueScalars and
// kMaxModuleValueScalars; issue 14, "bounded compile time"), and null initializers, which are
// no value at all. Found by CI's 60 s fuzzing run on session 23's tree: a mutated module whose
// compile took over 41 s. A Function array of 400,000 floats with an OpConstantNull
// initializer (valid SPIR-V, 1.6 MB per invocation, within the memory limits) was translated
// as 400,000 stores, which LLVM's scheduler took minutes over; whole-array copies cost about
// the square of their length (1,024 floats 1.3 s, 4,096 floats 11 s).
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "compute_harness.h"

namespace tessera_test {
namespace {

using tessera::jit::CompileStatus;

// Spec "OpVariable": the initializer is the variable's value at every entry to its function.
// Expected per invocation x (k = x mod 8): the first call's elements k and 99,999 (7 + 7 for
// k = 5, else 7), the second call's (0: freshly initialized), the Private array's (0).
TEST(ValueLimits, NullInitializedVariablesOfAnySizeStartAtZeroAtEveryEntry) {
  constexpr uint32_t kInvocations = 16;
  for (bool optimize : {false, true}) {
    ComputeRun run;
    run.shader = "null_initialized_arrays";
    run.groups[0] = kInvocations / 8;
    run.optimize = optimize;
    const auto start = std::chrono::steady_clock::now();
    const auto results = runAtEveryWidth(run, {zeros<float>(3 * kInvocations)});
    // A hang guard, not a benchmark: before null initializers were a memset this took minutes.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    ASSERT_EQ(results.size(), std::size(kSimdWidths));
    for (size_t w = 0; w < results.size(); ++w) {
      const std::vector<float> out = valuesOf<float>(results[w][0]);
      for (uint32_t x = 0; x < kInvocations; ++x) {
        const std::string where = "W = " + std::to_string(kSimdWidths[w]) + ", optimize " + std::to_string(optimize) +
                                  ", invocation " + std::to_string(x);
        EXPECT_EQ(out[3 * x], x % 8 == 5 ? 14.0f : 7.0f) << where << ": first call";
        EXPECT_EQ(out[3 * x + 1], 0.0f) << where << ": second call (the initializer applies at every entry)";
        EXPECT_EQ(out[3 * x + 2], 0.0f) << where << ": Private array";
      }
    }
  }
}

// A compute module that copies a Function array of `length` floats whole (OpLoad and OpStore of
// the array type) `copies` times, then stores an element of the last copy to the buffer.
std::string copyModule(uint32_t length, uint32_t copies) {
  std::string s = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%n = OpConstant %uint )" + std::to_string(length) + R"(
%arr = OpTypeArray %float %n
%rta = OpTypeRuntimeArray %float
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %pBuf StorageBuffer
%pfarr = OpTypePointer Function %arr
%pff = OpTypePointer Function %float
%psf = OpTypePointer StorageBuffer %float
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%main = OpFunction %void None %fnv
%e = OpLabel
%src = OpVariable %pfarr Function
)";
  for (uint32_t c = 0; c < copies; ++c) s += "%dst" + std::to_string(c) + " = OpVariable %pfarr Function\n";
  s += "%in = OpAccessChain %psf %buf %u0 %u0\n%x = OpLoad %float %in\n%s1 = OpAccessChain %pff %src %u1\nOpStore %s1 %x\n";
  std::string from = "%src";
  for (uint32_t c = 0; c < copies; ++c) {
    const std::string n = std::to_string(c), to = "%dst" + n;
    s += "%v" + n + " = OpLoad %arr " + from + "\nOpStore " + to + " %v" + n + "\n";
    from = to;
  }
  s += "%l1 = OpAccessChain %pff " + from + " %u1\n%y = OpLoad %float %l1\n%out = OpAccessChain %psf %buf %u0 %u1\n"
       "OpStore %out %y\nOpReturn\nOpFunctionEnd\n";
  return s;
}

// A compute module that builds a struct of `matrices` mat4 members (16 x `matrices` scalars)
// from undef with one OpCompositeInsert per column (member m's column c holds m + c in every
// component), inserts one whole matrix more into member 0, and stores the struct to the buffer.
std::string insertModule(uint32_t matrices) {
  std::string s = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 64
OpMemberDecorate %S 0 Offset 0
OpMemberDecorate %S 0 ColMajor
OpMemberDecorate %S 0 MatrixStride 16
OpDecorate %S Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%m4 = OpTypeMatrix %v4 4
%uint = OpTypeInt 32 0
%n = OpConstant %uint )" + std::to_string(matrices) + R"(
%arr = OpTypeArray %m4 %n
%S = OpTypeStruct %arr
%pS = OpTypePointer StorageBuffer %S
%buf = OpVariable %pS StorageBuffer
%undef = OpUndef %S
)";
  for (uint32_t k = 0; k < matrices + 4; ++k) {
    const std::string v = std::to_string(k);
    s += "%f" + v + " = OpConstant %float " + v + "\n%c" + v + " = OpConstantComposite %v4 %f" + v + " %f" + v + " %f" + v +
         " %f" + v + "\n";
  }
  s += "%ident = OpConstantComposite %m4 %c1 %c0 %c0 %c1\n%main = OpFunction %void None %fnv\n%e = OpLabel\n";
  std::string from = "%undef";
  for (uint32_t m = 0; m < matrices; ++m)
    for (uint32_t c = 0; c < 4; ++c) {
      const std::string to = "%s" + std::to_string(m) + "_" + std::to_string(c);
      s += to + " = OpCompositeInsert %S %c" + std::to_string(m + c) + " " + from + " 0 " + std::to_string(m) + " " +
           std::to_string(c) + "\n";
      from = to;
    }
  s += "%last = OpCompositeInsert %S %ident " + from + " 0 0\nOpStore %buf %last\nOpReturn\nOpFunctionEnd\n";
  return s;
}

TEST(ValueLimits, InsertionsIntoALargeStructCountTheirObjectsNotTheStruct) {
  // 8 mat4s (128 scalars) built by 33 insertions: counted as whole structs they would pass the
  // module's 4,096 and the module was refused (CTS composite_insert.nested_struct); what they
  // make is 33 objects of at most 16 scalars, and one store of 128.
  constexpr uint32_t kMatrices = 8;
  const std::vector<uint32_t> words = assembleSpirv(insertModule(kMatrices));
  for (uint32_t w : kSimdWidths) {
    auto r = compileWords(words, w);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    std::vector<uint8_t> buffer = zeros<float>(16 * kMatrices);
    ComputeRun run;
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    const std::vector<float> out = valuesOf<float>(buffer);
    for (uint32_t m = 0; m < kMatrices; ++m)
      for (uint32_t c = 0; c < 4; ++c)
        for (uint32_t i = 0; i < 4; ++i) {
          const float want = m == 0 ? ((c == 0 || c == 3) ? 1.0f : 0.0f) : float(m + c);
          EXPECT_EQ(out[16 * m + 4 * c + i], want) << "W = " << w << ", member " << m << " column " << c << " row " << i;
        }
  }
  // The per-value limit still holds for what insertions build: a struct past 2,048 scalars.
  auto big = compileWords(assembleSpirv(insertModule(129)), 16);
  EXPECT_EQ(big.status, CompileStatus::Unsupported);
  EXPECT_NE(big.message.find("2064 scalars"), std::string::npos) << big.message;
}

TEST(ValueLimits, AWholeArrayCopyWithinTheLimitsCopiesTheArray) {
  ComputeRun run;
  const std::vector<uint32_t> words = assembleSpirv(copyModule(64, 3));
  for (uint32_t w : kSimdWidths) {
    auto r = compileWords(words, w);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    std::vector<uint8_t> buffer = bytesOf(std::vector<float>{2.5f, 0.0f});
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    EXPECT_EQ(valuesOf<float>(buffer)[1], 2.5f) << "W = " << w;
  }
}

// Whole-array and whole-struct assignments in divergent branches, which the translator copies
// memory to memory: lanes that assign get the source's elements, the others keep theirs.
TEST(ValueLimits, WholeCompositeAssignmentsCopyOnlyTheActiveLanes) {
  constexpr uint32_t kInvocations = 128;
  std::vector<float> data(1000 + 6 * kInvocations, 0.0f);
  for (uint32_t i = 0; i < 200; ++i) data[i] = float(i) * 0.25f;
  for (bool optimize : {false, true}) {
    ComputeRun run;
    run.shader = "array_copy_lanes";
    run.groups[0] = kInvocations / 64;
    run.optimize = optimize;
    const auto results = runAtEveryWidth(run, {bytesOf(data)});
    ASSERT_EQ(results.size(), std::size(kSimdWidths));
    for (size_t w = 0; w < results.size(); ++w) {
      const std::vector<float> out = valuesOf<float>(results[w][0]);
      for (uint32_t g = 0; g < kInvocations; ++g) {
        const bool copiesA = g % 3 == 1, copiesS = g % 2 == 0;
        const float* o = &out[1000 + 6 * g];
        const std::string where = "W = " + std::to_string(kSimdWidths[w]) + ", optimize " + std::to_string(optimize) +
                                  ", invocation " + std::to_string(g);
        EXPECT_EQ(o[0], copiesA ? data[g % 200] + float(g) : -1.0f) << where;
        EXPECT_EQ(o[1], copiesA ? data[199] + float(g) : -1.0f) << where;
        EXPECT_EQ(o[2], copiesS ? float(g % 130) * 0.5f + float(g) : 7.0f) << where;
        EXPECT_EQ(o[3], copiesS ? 129 * 0.5f + float(g) : 7.0f) << where;
        EXPECT_EQ(o[4], copiesS ? float(g) : -2.0f) << where;
        EXPECT_EQ(o[5], data[(g + 7) % 200] + float(g)) << where << " (a copy in every lane)";
      }
    }
  }
}

// An array loaded in one block and stored, as the value loaded, at the head of a loop whose
// body changes the source: every iteration must store the value of the load (1), not what the
// source holds by then (5). Only a store right after its load in the same block may copy
// memory to memory.
TEST(ValueLimits, AValueLoadedInAnotherBlockIsStoredAsLoaded) {
  const std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %rta ArrayStride 4
OpMemberDecorate %Buf 0 Offset 0
OpDecorate %Buf Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%bool = OpTypeBool
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%n = OpConstant %uint 32
%arr = OpTypeArray %float %n
%rta = OpTypeRuntimeArray %float
%Buf = OpTypeStruct %rta
%pBuf = OpTypePointer StorageBuffer %Buf
%buf = OpVariable %pBuf StorageBuffer
%pfarr = OpTypePointer Function %arr
%pff = OpTypePointer Function %float
%pfu = OpTypePointer Function %uint
%psf = OpTypePointer StorageBuffer %float
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%f1 = OpConstant %float 1
%f5 = OpConstant %float 5
%main = OpFunction %void None %fnv
%e = OpLabel
%a = OpVariable %pfarr Function
%b = OpVariable %pfarr Function
%i = OpVariable %pfu Function
OpStore %i %u0
%a0 = OpAccessChain %pff %a %u0
OpStore %a0 %f1
%v = OpLoad %arr %a
OpBranch %h
%h = OpLabel
OpStore %b %v
OpLoopMerge %x %c None
OpBranch %body
%body = OpLabel
OpStore %a0 %f5
OpBranch %c
%c = OpLabel
%iv = OpLoad %uint %i
%inext = OpIAdd %uint %iv %u1
OpStore %i %inext
%more = OpULessThan %bool %inext %u2
OpBranchConditional %more %h %x
%x = OpLabel
%b0 = OpAccessChain %pff %b %u0
%r = OpLoad %float %b0
%out = OpAccessChain %psf %buf %u0 %u0
OpStore %out %r
OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> words = assembleSpirv(text);
  for (uint32_t w : kSimdWidths) {
    auto r = compileWords(words, w, 1, /*optimize=*/false);  // as written: the load stays in its block
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    std::vector<uint8_t> buffer = bytesOf(std::vector<float>{0.0f});
    ComputeRun run;
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    EXPECT_EQ(valuesOf<float>(buffer)[0], 1.0f) << "W = " << w;
  }
}

TEST(ValueLimits, AnArrayValueBeyondTheLimitIsRefusedWithAMessage) {
  const auto start = std::chrono::steady_clock::now();
  auto r = compileWords(assembleSpirv(copyModule(4096, 1)), 16);
  EXPECT_EQ(r.status, CompileStatus::Unsupported);
  EXPECT_NE(r.message.find("4096 scalars"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("element by element"), std::string::npos) << r.message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(ValueLimits, ManyCopiesWithinThePerValueLimitAddUpToTheModuleLimit) {
  // 1,024 floats is within kMaxValueScalars; five copies move 10,240 scalars.
  auto r = compileWords(assembleSpirv(copyModule(1024, 5)), 8, 1, /*optimize=*/false);  // as written, not merged
  EXPECT_EQ(r.status, CompileStatus::Unsupported);
  EXPECT_NE(r.message.find("in all"), std::string::npos) << r.message;
}

TEST(ValueLimits, AConstantRepeatingABigConstituentIsRefusedBeforeItsLeavesAreMade) {
  // 1,000 copies of one 1,000-float constant: a million leaves from a few kilobytes.
  std::string text = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fnv = OpTypeFunction %void
%float = OpTypeFloat 32
%uint = OpTypeInt 32 0
%n = OpConstant %uint 1000
%arr = OpTypeArray %float %n
%arr2 = OpTypeArray %arr %n
%pf2 = OpTypePointer Function %arr2
%f1 = OpConstant %float 1
%row = OpConstantComposite %arr)";
  for (int i = 0; i < 1000; ++i) text += " %f1";
  text += "\n%all = OpConstantComposite %arr2";
  for (int i = 0; i < 1000; ++i) text += " %row";
  text += R"(
%main = OpFunction %void None %fnv
%e = OpLabel
%v = OpVariable %pf2 Function %all
OpReturn
OpFunctionEnd
)";
  const auto start = std::chrono::steady_clock::now();
  auto r = compileWords(assembleSpirv(text), 8, 0, /*optimize=*/false);  // the unused variable stays
  EXPECT_EQ(r.status, CompileStatus::Unsupported);
  EXPECT_NE(r.message.find("1000000 scalars"), std::string::npos) << r.message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace tessera_test
