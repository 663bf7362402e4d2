// libFuzzer target: a SPIR-V module through the JIT front end as the driver takes it at
// pipeline creation: validation, specialization, SPIRV-Tools optimization, translation to LLVM
// IR and machine code (tessera::jit::compileCompute / compileGraphicsStage, what
// icd/compute_pipeline.cpp and icd/shader_stage.cpp call). The input is the module's bytes;
// its first entry point picks the stage, its descriptor declarations the pipeline layout
// (spirv_reflect.h), its length the SIMD width. Nothing is cached, so every input compiles.
//
// Any status is fine (invalid and unsupported modules are expected); a crash, a sanitizer
// report, a hang (-timeout) or an exit is a finding. See fuzz/README.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "spirv_reflect.h"
#include "tessera/spirv_jit.h"

// TESSERA_FUZZ_VERBOSE=1 prints each input's status and message to stderr (replaying an
// artifact: what the driver made of it).
static bool verbose = false;

static void report(tessera::jit::CompileStatus status, const std::string& message) {
  if (verbose) std::fprintf(stderr, "status %d: %s\n", int(status), message.c_str());
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("TESSERA_SHADER_CACHE", "0", 1);  // no disk cache: nothing written, nothing read
  const char* v = std::getenv("TESSERA_FUZZ_VERBOSE");
  verbose = v != nullptr && v[0] == '1';
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 20)) return -1;  // bigger modules only slow the fuzzer down
  std::vector<uint32_t> words(size / 4);
  if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
  using namespace tessera::jit;
  const tessera_fuzz::EntryPoint entry = tessera_fuzz::firstEntryPoint(words);
  ShaderInterface interface;
  static constexpr uint32_t kWidths[] = {4, 8, 16};
  interface.simdWidth = kWidths[words.size() % 3];
  interface.bindings = tessera_fuzz::reflectBindings(words);
  constexpr uint32_t kGLCompute = 5;
  if (entry.executionModel == kGLCompute || entry.executionModel > 4) {
    ComputeCompileRequest request;
    request.spirv = words;
    request.entryPoint = entry.name;
    request.interface = std::move(interface);
    request.useCache = false;
    const auto result = compileCompute(request);
    report(result.status, result.message);
    return 0;
  }
  // Execution models 0..4: Vertex, TessellationControl, TessellationEvaluation, Geometry, Fragment.
  static constexpr GraphicsStage kStages[] = {GraphicsStage::Vertex, GraphicsStage::TessControl,
                                              GraphicsStage::TessEval, GraphicsStage::Geometry,
                                              GraphicsStage::Fragment};
  GraphicsCompileRequest request;
  request.stage = kStages[entry.executionModel];
  request.spirv = words;
  request.entryPoint = entry.name;
  request.interface = std::move(interface);
  request.useCache = false;
  if (request.stage != GraphicsStage::Fragment && request.stage != GraphicsStage::TessControl)
    (void)readFeedbackLayout(words, entry.name, request.stage);
  const auto result = compileGraphicsStage(request);
  report(result.status, result.message);
  return 0;
}
