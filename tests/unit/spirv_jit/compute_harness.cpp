#include "compute_harness.h"

#include <fstream>
#include <iterator>

namespace tessera_test {

std::vector<uint32_t> loadShader(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

tessera::jit::CompileResult runShader(const ComputeRun& run) {
  using namespace tessera;
  std::vector<uint32_t> words = loadShader(run.shader);
  jit::ComputeCompileRequest req;
  req.spirv = words;
  req.interface.simdWidth = run.simdWidth;
  for (uint32_t i = 0; i < run.buffers.size(); ++i)
    req.interface.bindings.push_back({0, i, 7 /* STORAGE_BUFFER */, 1, i * abi::kDescriptorSize, -1});
  req.specialization = run.specialization;
  req.specializationData = run.specializationData.data();
  req.specializationDataSize = run.specializationData.size();
  req.optimize = run.optimize;
  req.useCache = false;
  jit::CompileResult result = jit::compileCompute(req);
  if (result.status != jit::CompileStatus::Success) return result;

  std::vector<abi::BufferDescriptor> set(std::max<size_t>(run.buffers.size(), 1));
  for (size_t i = 0; i < run.buffers.size(); ++i) set[i] = {run.buffers[i]->data(), run.buffers[i]->size(), {}};
  abi::BoundResources resources{};
  resources.sets[0] = reinterpret_cast<const uint8_t*>(set.data());
  std::memcpy(resources.pushConstants, run.pushConstants.data(), std::min<size_t>(run.pushConstants.size(), 256));
  const uint32_t base[3] = {0, 0, 0};
  jit::runCompute(*result.program, &resources, base, run.groups);
  return result;
}

}  // namespace tessera_test
