// The checks spirv_tools_stage.h puts between SPIRV-Tools' passes: everyUsedIdIsDefined, which
// decides whether a pass's output may go on to aggressive DCE and translation (a module using an
// id nothing defines crashed DCE in CI), and the compile that still succeeds when a module is
// whole.
#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <string>
#include <vector>

#include "spirv_tools_stage.h"

namespace tessera_test {
namespace {

using tessera::jit::everyUsedIdIsDefined;

std::vector<uint32_t> assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) << text;
  return words;
}

// A compute shader that stores %value into a buffer; `value` names the stored id.
std::string storeOf(const std::string& value) {
  return R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main" %11
OpExecutionMode %1 LocalSize 1 1 1
OpDecorate %9 Block
OpMemberDecorate %9 0 Offset 0
OpDecorate %11 DescriptorSet 0
OpDecorate %11 Binding 0
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeInt 32 0
%5 = OpConstant %4 7
%6 = OpConstant %4 0
%9 = OpTypeStruct %4
%10 = OpTypePointer StorageBuffer %9
%11 = OpVariable %10 StorageBuffer
%12 = OpTypePointer StorageBuffer %4
%1 = OpFunction %2 None %3
%13 = OpLabel
%14 = OpAccessChain %12 %11 %6
OpStore %14 )" + value + R"(
OpReturn
OpFunctionEnd
)";
}

TEST(SpirvToolsStage, AWholeModuleHasEveryUsedIdDefined) {
  const std::vector<uint32_t> words = assemble(storeOf("%5"));
  ASSERT_FALSE(words.empty());
  EXPECT_TRUE(everyUsedIdIsDefined(words));
  std::string message;
  EXPECT_TRUE(tessera::jit::validateSpirv(words, {}, &message)) << message;
}

TEST(SpirvToolsStage, AnOperandThatNothingDefinesIsFound) {
  // %8 is below the bound (the assembler raises it to 15) but no instruction defines it.
  const std::vector<uint32_t> words = assemble(storeOf("%8"));
  ASSERT_FALSE(words.empty());
  EXPECT_FALSE(everyUsedIdIsDefined(words));
}

TEST(SpirvToolsStage, AResultTypeThatNothingDefinesIsFound) {
  std::string text = storeOf("%5");
  text.replace(text.find("%14 = OpAccessChain %12"), 23, "%14 = OpAccessChain %7");
  const std::vector<uint32_t> words = assemble(text);
  ASSERT_FALSE(words.empty());
  EXPECT_FALSE(everyUsedIdIsDefined(words));
}

TEST(SpirvToolsStage, WordsThatDoNotParseAreNotWhole) {
  std::vector<uint32_t> words = assemble(storeOf("%5"));
  ASSERT_GT(words.size(), 8u);
  words.resize(words.size() - 3);  // the last instructions cut
  words.back() = 0xFFFF0000u;       // a word count past the end
  EXPECT_FALSE(everyUsedIdIsDefined(words));
  EXPECT_FALSE(everyUsedIdIsDefined({}));
  EXPECT_FALSE(everyUsedIdIsDefined({0x07230203u, 0x00010000u, 0, 0xFFFFFFFFu, 0}));  // absurd bound
}

}  // namespace
}  // namespace tessera_test
