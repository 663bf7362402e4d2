// Malformed SPIR-V through compileCompute: empty and truncated modules, bad magic and header
// fields, bad ids and word counts, invalid structured control flow, missing entry points,
// random corruption. Each must come back as a clean status (InvalidSpirv, with a message)
// and never crash; modules using what Tessera does not offer (variable pointers) must say so
// with CompileStatus::Unsupported. (Also run by hand under valgrind: no invalid reads.)
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "compute_harness.h"

namespace tessera_test {
namespace {

using tessera::jit::CompileStatus;

// Stores i or 7 into v[i] depending on i < 4: small, valid, with a selection construct.
const std::string kBase = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %buf
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %buf DescriptorSet 0
OpDecorate %buf Binding 0
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%pblk = OpTypePointer StorageBuffer %blk
%buf = OpVariable %pblk StorageBuffer
%pu = OpTypePointer StorageBuffer %uint
%bool = OpTypeBool
%c0 = OpConstant %uint 0
%c4 = OpConstant %uint 4
%c7 = OpConstant %uint 7
%main = OpFunction %void None %fnty
%entry = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%lt = OpULessThan %bool %i %c4
OpSelectionMerge %merge None
OpBranchConditional %lt %then %else
%then = OpLabel
%p1 = OpAccessChain %pu %buf %c0 %i
OpStore %p1 %i
OpBranch %merge
%else = OpLabel
%p2 = OpAccessChain %pu %buf %c0 %i
OpStore %p2 %c7
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// A clean rejection: one of the failure statuses, with a message.
void expectRejected(std::span<const uint32_t> words, const std::string& what, CompileStatus want = CompileStatus::InvalidSpirv) {
  auto r = compileWords(words, 8);
  EXPECT_EQ(r.status, want) << what << ": " << r.message;
  EXPECT_FALSE(r.message.empty()) << what;
  EXPECT_EQ(r.program, nullptr) << what;
}

TEST(MalformedSpirv, TheBaseModuleIsValidAndRuns) {
  auto words = assembleSpirv(kBase);
  for (uint32_t w : kSimdWidths) {
    auto r = compileWords(words, w);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    std::vector<uint8_t> buffer = zeros<uint32_t>(8);
    ComputeRun run;
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    EXPECT_EQ(valuesOf<uint32_t>(buffer), (std::vector<uint32_t>{0, 1, 2, 3, 7, 7, 7, 7})) << "W=" << w;
  }
}

TEST(MalformedSpirv, EmptyShortAndBadHeaders) {
  const auto good = assembleSpirv(kBase);
  expectRejected({}, "empty module");
  for (size_t n = 1; n < 5; ++n) expectRejected(std::span(good.data(), n), "only " + std::to_string(n) + " header words");
  auto magic = good;
  magic[0] ^= 0x10;
  expectRejected(magic, "wrong magic");
  // A byte-swapped module is not in host endianness (invalid usage); SPIRV-Tools reads it
  // anyway. Either a clean rejection or a program that computes what the native one does.
  auto swapped = good;
  for (uint32_t& w : swapped) w = __builtin_bswap32(w);
  auto r = compileWords(swapped, 8);
  if (r.status == CompileStatus::Success) {
    std::vector<uint8_t> buffer = zeros<uint32_t>(8);
    ComputeRun run;
    run.buffers = {&buffer};
    dispatch(*r.program, run);
    EXPECT_EQ(valuesOf<uint32_t>(buffer), (std::vector<uint32_t>{0, 1, 2, 3, 7, 7, 7, 7}));
  } else {
    EXPECT_FALSE(r.message.empty());
  }
  for (uint32_t version : {0x00020000u, 0x00010700u, 0x00000000u}) {
    auto v = good;
    v[1] = version;
    expectRejected(v, "version word " + std::to_string(version));
  }
  for (uint32_t bound : {0u, 5u, 0x400000u + 1, 0xffffffffu}) {
    auto b = good;
    b[3] = bound;
    expectRejected(b, "id bound " + std::to_string(bound));
  }
}

TEST(MalformedSpirv, EveryTruncationIsRejected) {
  const auto good = assembleSpirv(kBase);
  for (size_t n = 5; n < good.size(); ++n) {
    auto r = compileWords(std::span(good.data(), n), 8);
    ASSERT_NE(r.status, CompileStatus::Success) << "truncated to " << n << " of " << good.size() << " words";
    ASSERT_FALSE(r.message.empty()) << "truncated to " << n;
  }
}

TEST(MalformedSpirv, BadWordCountsOpcodesAndIds) {
  const auto good = assembleSpirv(kBase);
  // Instruction start positions.
  std::vector<size_t> starts;
  for (size_t pos = 5; pos < good.size(); pos += good[pos] >> 16) starts.push_back(pos);
  ASSERT_GT(starts.size(), 20u);
  for (size_t k = 0; k < starts.size(); k += 3) {
    auto zero = good;
    zero[starts[k]] &= 0xffff;  // word count 0
    expectRejected(zero, "word count 0 at instruction " + std::to_string(k));
    auto huge = good;
    huge[starts[k]] |= 0xffff0000u;  // word count past the end
    expectRejected(huge, "word count 65535 at instruction " + std::to_string(k));
    auto shorter = good;
    if ((good[starts[k]] >> 16) > 1) {
      shorter[starts[k]] -= 1u << 16;  // one word too few: the rest is misparsed
      auto r = compileWords(shorter, 8);
      EXPECT_NE(r.status, CompileStatus::Success) << "word count one short at instruction " << k;
    }
    auto opcode = good;
    opcode[starts[k]] = (opcode[starts[k]] & 0xffff0000u) | 0xfffe;  // no such opcode
    expectRejected(opcode, "unknown opcode at instruction " + std::to_string(k));
  }
  // Result and type ids at or past the bound, and ids that were never defined.
  for (size_t k = 0; k < starts.size(); ++k) {
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(spv::Op(good[starts[k]] & 0xffff), &hasResult, &hasType);
    for (uint32_t id : {good[3], good[3] + 10, 0xffffffffu}) {
      if (hasType) {
        auto t = good;
        t[starts[k] + 1] = id;
        expectRejected(t, "result type id " + std::to_string(id) + " at instruction " + std::to_string(k));
      }
      if (hasResult) {
        auto t = good;
        t[starts[k] + (hasType ? 2 : 1)] = id;
        expectRejected(t, "result id " + std::to_string(id) + " at instruction " + std::to_string(k));
      }
    }
  }
  expectRejected(assembleSpirv(replaced(kBase, "OpStore %p1 %i", "OpStore %p1 %never_defined")), "undefined id");
  expectRejected(assembleSpirv(replaced(kBase, "OpStore %p2 %c7", "OpStore %p2 %lt")), "store of the wrong type");
  expectRejected(assembleSpirv(replaced(kBase, "%p1 = OpAccessChain %pu %buf %c0 %i", "%p1 = OpAccessChain %pu %buf %c4 %i")),
                 "struct index out of range");
}

TEST(MalformedSpirv, InvalidControlFlow) {
  const std::pair<const char*, std::string> cases[] = {
      {"branch without a selection merge", replaced(kBase, "OpSelectionMerge %merge None\n", "")},
      {"branch to the entry block", replaced(kBase, "OpStore %p1 %i\nOpBranch %merge", "OpStore %p1 %i\nOpBranch %entry")},
      {"back edge without a loop", replaced(kBase, "%merge = OpLabel\nOpReturn", "%merge = OpLabel\nOpBranch %then")},
      {"block without a terminator", replaced(kBase, "OpStore %p1 %i\nOpBranch %merge\n", "OpStore %p1 %i\n")},
      {"function without OpFunctionEnd", replaced(kBase, "OpFunctionEnd", "")},
      {"instruction outside a block", replaced(kBase, "%entry = OpLabel\n", "")},
      {"loop whose continue target is outside it",
       replaced(kBase, "OpSelectionMerge %merge None\nOpBranchConditional %lt %then %else",
                "OpLoopMerge %merge %entry None\nOpBranchConditional %lt %then %else")},
      {"two functions sharing a label",
       replaced(kBase, "OpFunctionEnd", "OpFunctionEnd\n%f2 = OpFunction %void None %fnty\n%then2 = OpLabel\nOpBranch %merge\nOpFunctionEnd")},
  };
  int assembled = 0;
  for (const auto& [what, text] : cases) {
    std::vector<uint32_t> words;
    spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
    if (!tools.Assemble(text, &words)) continue;  // not even assemblable (no words to hand over)
    ++assembled;
    expectRejected(words, what);
  }
  EXPECT_GE(assembled, 6);
}

TEST(MalformedSpirv, MissingOrWrongEntryPoints) {
  expectRejected(assembleSpirv(replaced(kBase, "\"main\"", "\"other\"")), "no entry point named main");
  expectRejected(assembleSpirv(replaced(replaced(kBase, "OpEntryPoint GLCompute %main \"main\" %gid %buf",
                                            "OpEntryPoint Fragment %main \"main\""),
                                   "OpExecutionMode %main LocalSize 8 1 1", "OpExecutionMode %main OriginUpperLeft")),
                 "a fragment shader");
}

TEST(MalformedSpirv, RandomCorruptionNeverCrashes) {
  const auto good = assembleSpirv(kBase);
  Rng rng(2024);
  int rejected = 0;
  for (int k = 0; k < 300; ++k) {
    auto words = good;
    const int flips = 1 + int(rng.next() % 3);
    for (int f = 0; f < flips; ++f) {
      size_t at = rng.next() % words.size();
      words[at] ^= 1u << (rng.next() % 32);
    }
    auto r = compileWords(words, 8);
    if (r.status != CompileStatus::Success) {
      EXPECT_FALSE(r.message.empty()) << "corruption " << k;
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 150) << "most random corruptions are invalid modules";
}

// Variable pointers work into one buffer, and one OpSelect may choose between two bindings'
// descriptor arrays (tests/unit/spirv_jit/variable_pointers_test.cpp, as the CTS's
// select_descriptor_array does); a choice among such choices (a second OpSelect taking the first
// one's result) is refused with a clear Unsupported, not a crash or a wrong result.
TEST(MalformedSpirv, VariablePointersChoosingAmongChosenDescriptorArraysAreUnsupportedWithAMessage) {
  const std::string text = R"(
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid %bufs %other
OpExecutionMode %main LocalSize 8 1 1
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %arr ArrayStride 4
OpMemberDecorate %blk 0 Offset 0
OpDecorate %blk Block
OpDecorate %bufs DescriptorSet 0
OpDecorate %bufs Binding 0
OpDecorate %other DescriptorSet 0
OpDecorate %other Binding 1
%void = OpTypeVoid
%fnty = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v3 = OpTypeVector %uint 3
%pin = OpTypePointer Input %v3
%gid = OpVariable %pin Input
%arr = OpTypeRuntimeArray %uint
%blk = OpTypeStruct %arr
%c2 = OpConstant %uint 2
%blks = OpTypeArray %blk %c2
%pblks = OpTypePointer StorageBuffer %blks
%bufs = OpVariable %pblks StorageBuffer
%other = OpVariable %pblks StorageBuffer
%pu = OpTypePointer StorageBuffer %uint
%bool = OpTypeBool
%c0 = OpConstant %uint 0
%c4 = OpConstant %uint 4
%main = OpFunction %void None %fnty
%entry = OpLabel
%g = OpLoad %v3 %gid
%i = OpCompositeExtract %uint %g 0
%lt = OpULessThan %bool %i %c4
%sel = OpSelect %pblks %lt %bufs %other
%ge = OpUGreaterThanEqual %bool %i %c2
%sel2 = OpSelect %pblks %ge %sel %bufs
%p = OpAccessChain %pu %sel2 %c0 %c0 %i
OpStore %p %i
OpReturn
OpFunctionEnd
)";
  for (bool optimize : {true, false}) {
    auto r = compileWords(assembleSpirv(text), 8, 2, optimize);
    EXPECT_EQ(r.status, CompileStatus::Unsupported) << r.message;
    EXPECT_NE(r.message.find("descriptor arrays"), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace tessera_test
