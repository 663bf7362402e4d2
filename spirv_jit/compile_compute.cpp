// Compute pipeline compilation: validate -> specialize/optimize (SPIRV-Tools) -> parse ->
// translate (SIMD LLVM IR) -> optimize and emit an object (LLVM) -> load. Compiled code is
// shared by every pipeline with the same key (code_cache.h).
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <spirv-tools/libspirv.hpp>

#include <chrono>
#include <fstream>

#include "code_cache.h"
#include "deep_stack.h"
#include "memory_limits.h"
#include "llvm_engine.h"
#include "spirv_module.h"
#include "spirv_tools_stage.h"
#include "structure_limits.h"
#include "tessera/spirv_jit.h"
#include "translator.h"

namespace tessera::jit {
namespace {

void dumpSpirv(const std::string& prefix, const std::vector<uint32_t>& words, const char* suffix) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string text;
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT))
    return;
  std::ofstream(prefix + suffix) << text;
}

CompileResult fail(CompileStatus status, std::string message) {
  CompileResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

}  // namespace

static CompileResult compileComputeOnThisStack(const ComputeCompileRequest& req) {
  const CacheKey key = computeCacheKey(req);
  auto success = [](AnyProgram program, bool hit) {
    CompileResult r;
    r.status = CompileStatus::Success;
    r.program = std::static_pointer_cast<const ComputeProgram>(std::move(program));
    r.cacheHit = hit;
    return r;
  };
  if (req.useCache)
    if (FoundProgram found = findCompiled(key, ObjectKind::Compute, req.interface.simdWidth, req.external); found.program)
      return success(std::move(found.program), found.applicationHit);
  if (req.cacheOnly) return fail(CompileStatus::CompileRequired, "not in any cache");

  std::string message;
  // Structure within the limits before the validator, whose cost grows with it (structure_limits.h).
  if (!checkStructureLimits(req.spirv, &message)) return fail(CompileStatus::Unsupported, message);
  if (!validateSpirv(req.spirv, {}, &message)) return fail(CompileStatus::InvalidSpirv, "invalid SPIR-V: " + message);
  std::vector<uint32_t> words(req.spirv.begin(), req.spirv.end());
  SpecializationValues spec = specializationValues(req.specialization, req.specializationData, req.specializationDataSize);
  const std::string dumpPrefix = dumpDirectory().empty() ? "" : dumpDirectory() + "/cs_" + key.hex();
  if (!dumpPrefix.empty()) dumpSpirv(dumpPrefix, words, ".spvasm");
  static const bool spirvOpt = [] {
    const char* v = std::getenv("TESSERA_SPIRV_OPT");  // 0: skip the SPIRV-Tools passes (measurement knob)
    return !(v && std::string(v) == "0");
  }();
  if (!specializeAndOptimize(words, spec, req.optimize && spirvOpt ? OptimizationLevel::Full : OptimizationLevel::None,
                             &message))
    return fail(CompileStatus::InternalError, "SPIR-V optimizer: " + message);
  if (!dumpPrefix.empty()) dumpSpirv(dumpPrefix, words, ".opt.spvasm");

  Module module;
  if (!module.parse(words, &message)) return fail(CompileStatus::InvalidSpirv, "SPIR-V: " + message);
  const EntryPoint* entry = module.findEntryPoint(req.entryPoint, spv::ExecutionModel::GLCompute);
  if (!entry)
    return fail(CompileStatus::InvalidSpirv, "no GLCompute entry point named \"" + std::string(req.entryPoint) + "\"");
  // Declared memory within the limits before translation and code generation (memory_limits.h).
  if (!checkMemoryLimits(module, &message)) return fail(CompileStatus::Unsupported, message);

  CachedObject object;
  object.kind = ObjectKind::Compute;
  object.symbol = objectSymbol(ObjectKind::Compute, key);
  {
    llvm::LLVMContext context;
    auto llvmModule = std::make_unique<llvm::Module>("tessera_cs", context);
    Translator translator(module, req.interface, context, *llvmModule);
    if (!translator.translateCompute(*entry, object.symbol, &message))
      return fail(CompileStatus::Unsupported, message);
    object.info.simdWidth = req.interface.simdWidth;
    object.info.sharedMemoryBytes = translator.sharedMemoryBytes();
    object.info.usesBarrier = translator.usesBarrier();
    object.info.resumable = translator.resumable();
    object.info.zeroInitSharedMemory = translator.zeroInitShared();
    object.info.stackBytes = translator.stackBytes();
    // Per-invocation memory beyond this cannot be given a stack (it would be W copies).
    if (object.info.stackBytes > (uint64_t(1) << 30))
      return fail(CompileStatus::Unsupported, "per-invocation (Function and Private) memory of " +
                                                  std::to_string(object.info.stackBytes) + " bytes per SIMD batch is too large");
    translator.localSize(object.info.localSize);
    EngineOptions options;
    options.simdWidth = req.interface.simdWidth;
    if (!emitObject(*llvmModule, options, &object.code, &message, dumpPrefix))
      return fail(CompileStatus::InternalError, message);
  }
  AnyProgram program = storeCompiled(key, object, req.external, req.useCache, &message);
  if (!program) return fail(CompileStatus::InternalError, "loading machine code: " + message);
  return success(std::move(program), false);
}

// Compilation runs on a deep stack of its own (deep_stack.h): LLVM recursion on a big, valid
// shader must not overflow the application's thread.
CompileResult compileCompute(const ComputeCompileRequest& req) {
  return onDeepStack<CompileResult>([&] { return compileComputeOnThisStack(req); });
}

}  // namespace tessera::jit
