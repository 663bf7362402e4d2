#include "compute_harness.h"

#include <gtest/gtest.h>

#include <spirv-tools/libspirv.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace tessera_test {

std::vector<uint32_t> assembleSpirv(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words, SPV_TEXT_TO_BINARY_OPTION_NONE)) << text;
  return words;
}


std::vector<uint32_t> loadShader(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

namespace {

// The pipeline layout the harness builds: binding b's descriptors follow binding b - 1's.
std::vector<tessera::jit::DescriptorBinding> bindingsOf(const ComputeRun& run) {
  std::vector<tessera::jit::DescriptorBinding> bindings;
  const size_t count = run.arraySizes.empty() ? run.buffers.size() : run.arraySizes.size();
  uint32_t offset = 0;
  int32_t dynamicIndex = 0;
  for (uint32_t b = 0; b < count; ++b) {
    uint32_t type = b < run.descriptorTypes.size() && run.descriptorTypes[b] ? run.descriptorTypes[b] : kStorageBuffer;
    uint32_t n = b < run.arraySizes.size() ? run.arraySizes[b] : 1;
    bool dynamic = type == 8 || type == kStorageBufferDynamic;
    bindings.push_back({0, b, type, n, offset, dynamic ? dynamicIndex : -1});
    if (dynamic) dynamicIndex += int32_t(n);
    offset += n * tessera::abi::kDescriptorSize;
  }
  return bindings;
}

}  // namespace

tessera::jit::CompileResult compileShader(const ComputeRun& run) {
  std::vector<uint32_t> words = loadShader(run.shader);
  tessera::jit::ComputeCompileRequest req;
  req.spirv = words;
  req.interface.simdWidth = run.simdWidth;
  req.interface.bindings = bindingsOf(run);
  req.specialization = run.specialization;
  req.specializationData = run.specializationData.data();
  req.specializationDataSize = run.specializationData.size();
  req.optimize = run.optimize;
  req.useCache = false;
  return tessera::jit::compileCompute(req);
}

tessera::jit::CompileResult compileWords(std::span<const uint32_t> words, uint32_t simdWidth, uint32_t buffers, bool optimize) {
  tessera::jit::ComputeCompileRequest req;
  req.spirv = words;
  req.interface.simdWidth = simdWidth;
  for (uint32_t i = 0; i < buffers; ++i) req.interface.bindings.push_back({0, i, kStorageBuffer, 1, i * tessera::abi::kDescriptorSize, -1});
  req.optimize = optimize;
  req.useCache = false;
  return tessera::jit::compileCompute(req);
}

void dispatch(const tessera::jit::ComputeProgram& program, const ComputeRun& run) {
  // Descriptors of consecutive bindings are consecutive (bindingsOf), one per buffer.
  std::vector<tessera::abi::BufferDescriptor> set(std::max<size_t>(run.buffers.size(), 1));
  for (size_t i = 0; i < run.buffers.size(); ++i) {
    BufferView v = i < run.views.size() ? run.views[i] : BufferView{};
    std::vector<uint8_t>& buffer = *run.buffers[i];
    uint64_t offset = std::min<uint64_t>(v.offset, buffer.size());
    uint64_t range = std::min<uint64_t>(v.range, buffer.size() - offset);
    set[i] = {buffer.data() + offset, range, {}};
  }
  tessera::abi::BoundResources resources{};
  resources.sets[0] = reinterpret_cast<const uint8_t*>(set.data());
  for (size_t i = 0; i < run.dynamicOffsets.size() && i < tessera::abi::kMaxDynamicBuffers; ++i)
    resources.dynamicOffsets[i] = run.dynamicOffsets[i];
  resources.cancel = run.cancel;
  if (!run.pushConstants.empty())  // data() of an empty vector may be null, which memcpy may not take
    std::memcpy(resources.pushConstants, run.pushConstants.data(), std::min<size_t>(run.pushConstants.size(), 256));
  const uint32_t base[3] = {0, 0, 0};
  tessera::jit::runCompute(program, &resources, base, run.groups);
}

tessera::jit::CompileResult runShader(const ComputeRun& run) {
  tessera::jit::CompileResult result = compileShader(run);
  if (result.status == tessera::jit::CompileStatus::Success) dispatch(*result.program, run);
  return result;
}

std::vector<Buffers> runAtEveryWidth(ComputeRun run, const Buffers& initial) {
  std::vector<Buffers> results;
  for (uint32_t w : kSimdWidths) {
    Buffers buffers = initial;
    run.simdWidth = w;
    run.buffers.clear();
    for (auto& b : buffers) run.buffers.push_back(&b);
    tessera::jit::CompileResult r = runShader(run);
    if (r.status != tessera::jit::CompileStatus::Success) {
      ADD_FAILURE() << run.shader << " at W=" << w << " did not compile: " << r.message;
      return {};
    }
    results.push_back(std::move(buffers));
  }
  return results;
}

void expectSameAtEveryWidth(const std::vector<Buffers>& results) {
  for (size_t w = 1; w < results.size(); ++w)
    for (size_t b = 0; b < results[w].size(); ++b)
      EXPECT_TRUE(results[w][b] == results[0][b])
          << "buffer " << b << " differs between W=" << kSimdWidths[0] << " and W=" << kSimdWidths[w];
}

namespace {

template <typename F, typename I>
int64_t ordered(F x) {
  I bits;
  std::memcpy(&bits, &x, sizeof(x));
  // Map the sign-magnitude representation onto a monotonic integer line.
  return bits < 0 ? int64_t(std::numeric_limits<I>::min()) - int64_t(bits) : int64_t(bits);
}

}  // namespace

int64_t ulpDistance(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<int64_t>::max();
  int64_t d = ordered<float, int32_t>(a) - ordered<float, int32_t>(b);
  return d < 0 ? -d : d;
}

int64_t ulpDistance(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return 0;
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<int64_t>::max();
  __int128 d = __int128(ordered<double, int64_t>(a)) - __int128(ordered<double, int64_t>(b));
  if (d < 0) d = -d;
  return d > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : int64_t(d);
}

double ulpOf(float x) {
  float a = std::fabs(x);
  if (!std::isfinite(a)) return std::numeric_limits<double>::infinity();
  return double(std::nextafter(a, std::numeric_limits<float>::infinity())) - double(a);
}

}  // namespace tessera_test
