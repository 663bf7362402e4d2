// Vertex, fragment and geometry stage compilation: the same path as compute (validate -> specialize and
// optimize -> parse -> translate -> LLVM -> load), and the same caches (code_cache.h): the
// application's VkPipelineCache, the process's live programs and remembered object files, the
// disk cache. A stage's object file is stored with the GraphicsFacts the draw loop needs, so a
// stage found in any cache is only linked.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "code_cache.h"
#include "deep_stack.h"
#include "llvm_engine.h"
#include "sample_shading_use.h"
#include "spirv_module.h"
#include "spirv_tools_stage.h"
#include "structure_limits.h"
#include "tessera/spirv_jit.h"
#include "translator.h"

namespace tessera::jit {
namespace {

GraphicsCompileResult fail(CompileStatus status, std::string message) {
  GraphicsCompileResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

GraphicsCompileResult success(AnyProgram program, bool hit) {
  GraphicsCompileResult r;
  r.status = CompileStatus::Success;
  r.program = std::static_pointer_cast<const GraphicsProgram>(std::move(program));
  r.cacheHit = hit;
  return r;
}

}  // namespace

static GraphicsCompileResult compileGraphicsStageOnThisStack(const GraphicsCompileRequest& req) {
  const bool vertex = req.stage == GraphicsStage::Vertex;
  const bool fragment = req.stage == GraphicsStage::Fragment;
  const ObjectKind kind = graphicsObjectKind(req.stage);
  const bool control = req.stage == GraphicsStage::TessControl, evaluation = req.stage == GraphicsStage::TessEval;
  const spv::ExecutionModel model = vertex       ? spv::ExecutionModel::Vertex
                                    : fragment   ? spv::ExecutionModel::Fragment
                                    : control    ? spv::ExecutionModel::TessellationControl
                                    : evaluation ? spv::ExecutionModel::TessellationEvaluation
                                                 : spv::ExecutionModel::Geometry;
  const char* modelName = vertex       ? "Vertex"
                          : fragment   ? "Fragment"
                          : control    ? "TessellationControl"
                          : evaluation ? "TessellationEvaluation"
                                       : "Geometry";
  const char* shortName = vertex ? "vs" : fragment ? "fs" : control ? "tcs" : evaluation ? "tes" : "gs";
  const CacheKey key = computeCacheKey(req);
  if (req.useCache)
    if (FoundProgram found = findCompiled(key, kind, req.interface.simdWidth, req.external); found.program)
      return success(std::move(found.program), found.applicationHit);
  if (req.cacheOnly) return fail(CompileStatus::CompileRequired, "not in any cache");

  std::string message;
  // Structure within the limits before the validator, whose cost grows with it (structure_limits.h).
  if (!checkStructureLimits(req.spirv, &message)) return fail(CompileStatus::Unsupported, message);
  if (!validateSpirv(req.spirv, {}, &message)) return fail(CompileStatus::InvalidSpirv, "invalid SPIR-V: " + message);
  // Read before the optimizer can drop an input that is named but never read.
  const bool staticSampleShading = fragment && staticallyUsesSampleShadingInputs(req.spirv, req.entryPoint);
  std::vector<uint32_t> words(req.spirv.begin(), req.spirv.end());
  SpecializationValues spec = specializationValues(req.specialization, req.specializationData, req.specializationDataSize);
  if (!specializeAndOptimize(words, spec, req.optimize ? OptimizationLevel::Full : OptimizationLevel::None, &message))
    return fail(CompileStatus::InternalError, "SPIR-V optimizer: " + message);
  Module module;
  if (!module.parse(words, &message)) return fail(CompileStatus::InvalidSpirv, "SPIR-V: " + message);
  const EntryPoint* entry = module.findEntryPoint(req.entryPoint, model);
  if (!entry)
    return fail(CompileStatus::InvalidSpirv,
                std::string("no ") + modelName + " entry point named \"" + std::string(req.entryPoint) + "\"");
  CachedObject object;
  object.kind = kind;
  object.symbol = objectSymbol(kind, key);
  object.info.simdWidth = req.interface.simdWidth;
  {
    llvm::LLVMContext context;
    auto llvmModule = std::make_unique<llvm::Module>(std::string("tessera_") + shortName, context);
    Translator translator(module, req.interface, context, *llvmModule);
    if (!translator.translateGraphics(*entry, object.symbol, &object.facts, &message))
      return fail(CompileStatus::Unsupported, message);
    object.facts.perSampleShading = object.facts.perSampleShading || staticSampleShading;
    object.info.stackBytes = translator.stackBytes();
    if (object.info.stackBytes > (uint64_t(1) << 26))
      return fail(CompileStatus::Unsupported, "per-invocation memory of " + std::to_string(object.info.stackBytes) +
                                                  " bytes per SIMD batch is too large");
    EngineOptions options;
    options.simdWidth = req.interface.simdWidth;
    // TESSERA_DUMP_DIR: the stage's IR before and after optimization and its assembly, as for compute.
    const std::string dumpPrefix =
        dumpDirectory().empty() ? "" : dumpDirectory() + "/" + shortName + "_" + key.hex();
    if (!emitObject(*llvmModule, options, &object.code, &message, dumpPrefix))
      return fail(CompileStatus::InternalError, message);
  }
  AnyProgram program = storeCompiled(key, object, req.external, req.useCache, &message);
  if (!program) return fail(CompileStatus::InternalError, "loading machine code: " + message);
  return success(std::move(program), false);
}

// Compilation runs on a deep stack of its own (deep_stack.h): LLVM recursion on a big, valid
// shader must not overflow the application's thread.
GraphicsCompileResult compileGraphicsStage(const GraphicsCompileRequest& req) {
  return onDeepStack<GraphicsCompileResult>([&] { return compileGraphicsStageOnThisStack(req); });
}

}  // namespace tessera::jit
