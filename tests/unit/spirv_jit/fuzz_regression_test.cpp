// Inputs that fuzz/spirv_jit_fuzzer found to crash, hang or exhaust memory, minimized and kept
// as SPIR-V assembly: each must now come back as a clean failure status with a message, quickly
// and without a sanitizer report (docs/fuzzing.md lists the findings).
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <chrono>
#include <string>
#include <vector>

#include "compute_harness.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

using tessera::jit::CompileStatus;
using tessera::jit::GraphicsStage;

tessera::jit::GraphicsCompileResult compileStage(GraphicsStage stage, const std::vector<uint32_t>& words) {
  tessera::jit::GraphicsCompileRequest req;
  req.stage = stage;
  req.spirv = words;
  req.useCache = false;
  return tessera::jit::compileGraphicsStage(req);
}

// A compute module whose set 0 binding 0 is a storage buffer, as Findings 2 and 4 declare it.
tessera::jit::CompileResult compileWithOneStorageBuffer(const std::string& text) {
  tessera::jit::ComputeCompileRequest req;
  const std::vector<uint32_t> words = assembleSpirv(text);
  req.spirv = words;
  req.interface.bindings.push_back({0, 0, 7 /* VK_DESCRIPTOR_TYPE_STORAGE_BUFFER */, 1, 0, -1});
  req.useCache = false;
  return tessera::jit::compileCompute(req);
}

// Finding 1 (spirv_jit-oom-770eb936): a vertex stage whose gl_PerVertex declares ClipDistance
// and CullDistance arrays of 134217729 elements (valid to spirv-val) made the interface walk
// allocate ~6 GB of leaves. Now refused before the walk.
TEST(FuzzRegression, HugeBuiltInInterfaceArraysAreRefusedNotWalked) {
  const std::string text = R"(
OpCapability Shader
OpCapability ClipDistance
OpCapability CullDistance
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %out
OpMemberDecorate %pv 0 BuiltIn Position
OpMemberDecorate %pv 1 BuiltIn PointSize
OpMemberDecorate %pv 2 BuiltIn ClipDistance
OpMemberDecorate %pv 3 BuiltIn CullDistance
OpDecorate %pv Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%uint = OpTypeInt 32 0
%int = OpTypeInt 32 1
%huge = OpConstant %uint 134217729
%arr = OpTypeArray %float %huge
%pv = OpTypeStruct %v4 %float %arr %arr
%ppv = OpTypePointer Output %pv
%out = OpVariable %ppv Output
%pv4 = OpTypePointer Output %v4
%i0 = OpConstant %int 0
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%pos = OpConstantComposite %v4 %f0 %f0 %f0 %f1
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pv4 %out %i0
OpStore %p %pos
OpReturn
OpFunctionEnd
)";
  const auto start = std::chrono::steady_clock::now();
  auto r = compileStage(GraphicsStage::Vertex, assembleSpirv(text));
  EXPECT_NE(r.status, CompileStatus::Success);
  EXPECT_FALSE(r.message.empty());
  EXPECT_EQ(r.program, nullptr);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

// Finding 2 (spirv_jit-crash-1bc6655c): OpSpecConstantOp CompositeExtract with an index of 1280
// into a 2-vector (and a VectorShuffle with out-of-range components), which spirv-val accepts,
// read past the composite's leaves into freed memory (ASan: heap-use-after-free in
// translateComposite). Now refused.
TEST(FuzzRegression, SpecConstantCompositeExtractBeyondItsCompositeIsRefused) {
  const std::string text = R"(
OpCapability Shader
OpCapability Int16
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%v2 = OpTypeVector %ushort 2
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%pu = OpTypePointer StorageBuffer %uint
%buf = OpVariable %pblk StorageBuffer
%u0 = OpConstant %uint 0
%s3 = OpSpecConstant %ushort 7
%s4 = OpSpecConstant %ushort 9
%s5 = OpSpecConstant %ushort 100
%c18 = OpSpecConstantComposite %v2 %s3 %s4
%c19 = OpSpecConstantComposite %v2 %s4 %s5
%c20 = OpSpecConstantOp %v2 IAdd %c18 %c19
%c21 = OpSpecConstantOp %v2 VectorShuffle %c20 %c18 1631846403 24948
%c22 = OpSpecConstantOp %ushort CompositeExtract %c21 1280
%main = OpFunction %void None %fn
%entry = OpLabel
%w = OpUConvert %uint %c22
%p = OpAccessChain %pu %buf %u0 %u0
OpStore %p %w
OpReturn
OpFunctionEnd
)";
  auto r = compileWithOneStorageBuffer(text);
  EXPECT_NE(r.status, CompileStatus::Success);
  EXPECT_FALSE(r.message.empty());
}

// Finding 3 (spirv_jit-crash-493ae04f): readFeedbackLayout, which pipeline creation runs on the
// module's words before they are validated, recursed without end on a vector type whose
// component type is itself (ASan: stack-overflow in alignmentOf). It now gives up on the type.
TEST(FuzzRegression, TransformFeedbackLayoutOfASelfReferencingTypeEnds) {
  const std::string text = R"(
OpCapability Shader
OpCapability TransformFeedback
OpMemoryModel Logical GLSL450
OpEntryPoint Vertex %main "main" %out
OpExecutionMode %main Xfb
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %out Location 0
OpDecorate %out XfbBuffer 0
OpDecorate %out XfbStride 16
%void = OpTypeVoid
%fn = OpTypeFunction %void
%self = OpTypeVector %self 3
%inner = OpTypeStruct %self
%blk = OpTypeStruct %inner
%pblk = OpTypePointer Output %blk
%out = OpVariable %pblk Output
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
  const std::vector<uint32_t> words = assembleSpirv(text);
  ASSERT_FALSE(words.empty());
  const tessera::FeedbackLayout layout = tessera::jit::readFeedbackLayout(words, "main", GraphicsStage::Vertex);
  EXPECT_TRUE(layout.unsupportedOutputs);
}

// Finding 4 (spirv_jit-crash-a1051be5, CI of session 19): OpSDot of a 4-vector and a 2-vector,
// which spirv-val accepts, read past the shorter operand's leaves (ASan: heap-buffer-overflow in
// translateComposite). Each malformed shape of the integer dot product is now refused with a
// message; the well-formed ones beside them still compile.
std::string dotModule(const std::string& dot) {
  return R"(
OpCapability Shader
OpCapability Int64
OpCapability DotProduct
OpCapability DotProductInputAll
OpCapability DotProductInput4x8BitPacked
OpExtension "SPV_KHR_integer_dot_product"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %buf
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%v4 = OpTypeVector %int 4
%v2 = OpTypeVector %int 2
%f4 = OpTypeVector %float 4
%arr = OpTypeRuntimeArray %int
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%pi = OpTypePointer StorageBuffer %int
%buf = OpVariable %pblk StorageBuffer
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%l1 = OpConstant %long 1
%f1 = OpConstant %float 1
%a4 = OpConstantComposite %v4 %i1 %i1 %i1 %i1
%b2 = OpConstantComposite %v2 %i1 %i1
%g4 = OpConstantComposite %f4 %f1 %f1 %f1 %f1
%main = OpFunction %void None %fn
%entry = OpLabel
%p = OpAccessChain %pi %buf %i0 %i0
%x = OpLoad %int %p
%vx = OpCompositeConstruct %v4 %x %x %x %x
)" + dot + R"(
OpStore %p %d
OpReturn
OpFunctionEnd
)";
}

TEST(FuzzRegression, IntegerDotProductOfMismatchedOperandsIsRefused) {
  for (const char* dot : {"%d = OpSDot %int %vx %b2",                       // 4-vector with 2-vector
                          "%d = OpUDot %int %b2 %vx",                       // 2-vector with 4-vector
                          "%d = OpSDot %int %vx %x",                        // vector with scalar
                          "%d = OpSDot %int %vx %g4",                       // float components
                          "%d = OpSDotAccSat %int %vx %a4 %l1",             // 64-bit accumulator, 32-bit result
                          "%d = OpSDot %int %vx %x PackedVectorFormat4x8Bit"}) {  // packed vector
    SCOPED_TRACE(dot);
    auto r = compileWithOneStorageBuffer(dotModule(dot));
    EXPECT_NE(r.status, CompileStatus::Success);
    EXPECT_NE(r.message.find("dot product"), std::string::npos) << r.message;
  }
  for (const char* dot : {"%d = OpSDot %int %vx %a4", "%d = OpSDotAccSat %int %vx %a4 %x",
                          "%d = OpUDot %int %x %i1 PackedVectorFormat4x8Bit"}) {
    SCOPED_TRACE(dot);
    auto r = compileWithOneStorageBuffer(dotModule(dot));
    EXPECT_EQ(r.status, CompileStatus::Success) << r.message;
  }
}

}  // namespace
}  // namespace tessera_test
