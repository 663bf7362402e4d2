#include "spirv_tools_stage.h"

#include <cstring>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

namespace tessera::jit {
namespace {

spvtools::MessageConsumer collectInto(std::string* out) {
  return [out](spv_message_level_t level, const char*, const spv_position_t& position, const char* text) {
    if (level > SPV_MSG_WARNING) return;
    if (!out->empty()) *out += "; ";
    *out += text;
    if (position.index) *out += " (at word " + std::to_string(position.index) + ")";
  };
}

}  // namespace

bool validateSpirv(std::span<const uint32_t> words, const ValidationFeatures& features, std::string* message) {
  if (words.empty()) {
    *message = "empty SPIR-V module";
    return false;
  }
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string diagnostics;
  tools.SetMessageConsumer(collectInto(&diagnostics));
  spvtools::ValidatorOptions options;
  options.SetRelaxBlockLayout(true);  // VK_KHR_relaxed_block_layout is core since 1.1
  options.SetScalarBlockLayout(features.scalarBlockLayout);
  options.SetUniformBufferStandardLayout(features.uniformBufferStandardLayout);
  options.SetWorkgroupScalarBlockLayout(features.workgroupScalarBlockLayout);
  options.SetAllowLocalSizeId(true);  // maintenance4 (core 1.3)
  bool ok = tools.Validate(words.data(), words.size(), options);
  if (!ok) *message = diagnostics.empty() ? "invalid SPIR-V" : diagnostics;
  return ok;
}

SpecializationValues specializationValues(std::span<const SpecializationEntry> entries, const void* data,
                                          size_t dataSize) {
  SpecializationValues values;
  for (const SpecializationEntry& e : entries) {
    if (e.size == 0 || e.size > 8 || e.offset + e.size > dataSize) continue;  // invalid usage: ignore
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const uint8_t*>(data) + e.offset, e.size);
    std::vector<uint32_t> w{uint32_t(bits)};
    if (e.size > 4) w.push_back(uint32_t(bits >> 32));
    values[e.constantId] = std::move(w);
  }
  return values;
}

bool specializeAndOptimize(std::vector<uint32_t>& words, const SpecializationValues& specialization,
                           OptimizationLevel level, std::string* message) {
  spvtools::Optimizer opt(SPV_ENV_VULKAN_1_3);
  std::string diagnostics;
  opt.SetMessageConsumer(collectInto(&diagnostics));
  opt.RegisterPass(spvtools::CreateFlattenDecorationPass());
  if (!specialization.empty()) opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(specialization));
  opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  opt.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  if (level == OptimizationLevel::Full) {
    // Inlining puts every barrier in the entry function and removes call overhead; the memory
    // passes turn function variables into SSA values, which the uniformity analysis can then
    // keep scalar (a load from a per-lane variable is always varying). LLVM does the rest.
    opt.RegisterPass(spvtools::CreateInlineExhaustivePass());
    opt.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
    opt.RegisterPass(spvtools::CreatePrivateToLocalPass());
    opt.RegisterPass(spvtools::CreateScalarReplacementPass(100));
    opt.RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass());
    opt.RegisterPass(spvtools::CreateLocalSingleStoreElimPass());
    opt.RegisterPass(spvtools::CreateSSARewritePass());
    opt.RegisterPass(spvtools::CreateCCPPass());
    opt.RegisterPass(spvtools::CreateSimplificationPass());
    opt.RegisterPass(spvtools::CreateDeadBranchElimPass());
    opt.RegisterPass(spvtools::CreateAggressiveDCEPass());
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // validated before, by validateSpirv
  std::vector<uint32_t> out;
  if (!opt.Run(words.data(), words.size(), &out, options)) {
    *message = diagnostics.empty() ? "SPIR-V optimizer failed" : diagnostics;
    return false;
  }
  words.swap(out);
  return true;
}

}  // namespace tessera::jit
