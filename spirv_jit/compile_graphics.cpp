// Vertex and fragment stage compilation: the same path as compute (validate -> specialize and
// optimize -> parse -> translate -> LLVM -> load). Identical stages (same key as a compute
// request would have, the stage included) share one compiled program while any pipeline holds
// it, and the most recent ones stay loaded; there is no pipeline-cache or disk persistence for
// graphics stages yet.
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>

#include "code_cache.h"
#include "llvm_engine.h"
#include "spirv_module.h"
#include "spirv_tools_stage.h"
#include "tessera/spirv_jit.h"
#include "translator.h"

namespace tessera::jit {
namespace {

struct LoadedGraphicsProgram : GraphicsProgram {
  std::unique_ptr<LoadedCode> code;
};

GraphicsCompileResult fail(CompileStatus status, std::string message) {
  GraphicsCompileResult r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// Live graphics programs by key, and the most recently compiled ones kept alive.
struct StageCache {
  std::mutex mutex;
  std::map<CacheKey, std::weak_ptr<const GraphicsProgram>> live;
  std::deque<std::shared_ptr<const GraphicsProgram>> recent;
  static constexpr size_t kRecent = 64;
};
StageCache& stageCache() {
  static StageCache c;
  return c;
}

CacheKey stageKey(const GraphicsCompileRequest& req) {
  ComputeCompileRequest asCompute;
  asCompute.spirv = req.spirv;
  // The stage is part of the key through the entry point name (a module may hold both).
  const std::string entry = std::string(req.stage == GraphicsStage::Vertex ? "vertex:" : "fragment:") + std::string(req.entryPoint);
  asCompute.entryPoint = entry;
  asCompute.specialization = req.specialization;
  asCompute.specializationData = req.specializationData;
  asCompute.specializationDataSize = req.specializationDataSize;
  asCompute.interface = req.interface;
  asCompute.optimize = req.optimize;
  return computeCacheKey(asCompute);
}

GraphicsCompileResult compileUncached(const GraphicsCompileRequest& req);

}  // namespace

GraphicsCompileResult compileGraphicsStage(const GraphicsCompileRequest& req) {
  const CacheKey key = stageKey(req);
  StageCache& cache = stageCache();
  {
    std::lock_guard lock(cache.mutex);
    auto it = cache.live.find(key);
    if (it != cache.live.end())
      if (auto program = it->second.lock()) {
        GraphicsCompileResult r;
        r.status = CompileStatus::Success;
        r.program = std::move(program);
        return r;
      }
  }
  GraphicsCompileResult r = compileUncached(req);
  if (r.status == CompileStatus::Success) {
    std::lock_guard lock(cache.mutex);
    cache.live[key] = r.program;
    cache.recent.push_back(r.program);
    if (cache.recent.size() > StageCache::kRecent) cache.recent.pop_front();
  }
  return r;
}

namespace {

GraphicsCompileResult compileUncached(const GraphicsCompileRequest& req) {
  std::string message;
  if (!validateSpirv(req.spirv, {}, &message)) return fail(CompileStatus::InvalidSpirv, "invalid SPIR-V: " + message);
  std::vector<uint32_t> words(req.spirv.begin(), req.spirv.end());
  SpecializationValues spec = specializationValues(req.specialization, req.specializationData, req.specializationDataSize);
  if (!specializeAndOptimize(words, spec, req.optimize ? OptimizationLevel::Full : OptimizationLevel::None, &message))
    return fail(CompileStatus::InternalError, "SPIR-V optimizer: " + message);
  Module module;
  if (!module.parse(words, &message)) return fail(CompileStatus::InvalidSpirv, "SPIR-V: " + message);
  const bool vertex = req.stage == GraphicsStage::Vertex;
  const EntryPoint* entry =
      module.findEntryPoint(req.entryPoint, vertex ? spv::ExecutionModel::Vertex : spv::ExecutionModel::Fragment);
  if (!entry)
    return fail(CompileStatus::InvalidSpirv, std::string("no ") + (vertex ? "Vertex" : "Fragment") +
                                                 " entry point named \"" + std::string(req.entryPoint) + "\"");
  // Symbols only need to be unique among loaded objects of this process.
  static std::atomic<uint64_t> serial{0};
  const std::string symbol = std::string(vertex ? "tessera_vs_" : "tessera_fs_") + std::to_string(serial++);
  auto program = std::make_shared<LoadedGraphicsProgram>();
  std::vector<char> object;
  {
    llvm::LLVMContext context;
    auto llvmModule = std::make_unique<llvm::Module>(vertex ? "tessera_vs" : "tessera_fs", context);
    Translator translator(module, req.interface, context, *llvmModule);
    if (!translator.translateGraphics(*entry, symbol, &program->facts, &message))
      return fail(CompileStatus::Unsupported, message);
    program->stackBytes = translator.stackBytes();
    if (program->stackBytes > (uint64_t(1) << 26))
      return fail(CompileStatus::Unsupported, "per-invocation memory of " + std::to_string(program->stackBytes) +
                                                  " bytes per SIMD batch is too large");
    EngineOptions options;
    options.simdWidth = req.interface.simdWidth;
    if (!emitObject(*llvmModule, options, &object, &message, {})) return fail(CompileStatus::InternalError, message);
  }
  program->code = loadObject(object, symbol, &message);
  if (!program->code) return fail(CompileStatus::InternalError, "loading machine code: " + message);
  program->stage = req.stage;
  program->simdWidth = req.interface.simdWidth;
  void* fn = program->code->symbol(symbol);
  if (vertex) program->vertex = reinterpret_cast<abi::VertexBatchFn>(fn);
  else program->fragment = reinterpret_cast<abi::FragmentBatchFn>(fn);
  GraphicsCompileResult r;
  r.status = CompileStatus::Success;
  r.program = std::move(program);
  return r;
}

}  // namespace
}  // namespace tessera::jit
