// LLVM's half of compilation: optimize a translated module, emit host machine code as an
// object file, and load object files into the process (one ORC LLJIT for the process, one
// resource tracker per loaded object so destroying a pipeline frees its code).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
}

namespace tessera::jit {

struct EngineOptions {
  uint32_t simdWidth = 8;
};

// The optimizer pipeline emitObject runs (LLVM's default at the JIT's level, with the JIT's own
// passes such as cancel_polls.h's): for `tm`'s target, or a generic one when null.
void optimizeModule(llvm::Module& module, llvm::TargetMachine* tm = nullptr);

// Optimizes `module` for the host CPU and returns its object code; false with *error on failure.
bool emitObject(llvm::Module& module, const EngineOptions& options, std::vector<char>* object, std::string* error,
                const std::string& dumpPrefix = {});

// Machine code loaded into the process; unloaded when destroyed.
class LoadedCode {
 public:
  virtual ~LoadedCode() = default;
  virtual void* symbol(const std::string& name) const = 0;
};

std::unique_ptr<LoadedCode> loadObject(const std::vector<char>& object, const std::string& symbolName,
                                       std::string* error);

// TESSERA_DUMP_DIR: where pipelines' SPIR-V, IR and assembly are written ("" when unset).
const std::string& dumpDirectory();
// The host CPU's name and feature string, for cache keys.
const std::string& hostTargetDescription();

}  // namespace tessera::jit
