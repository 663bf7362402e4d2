#include "vector_math.h"

#include <dlfcn.h>

#include "tessera/cpu_info.h"

namespace tessera::jit {
namespace {

struct Function {
  const char* name;
  uint32_t params;
};
// The float functions of GLSL.std.450 that libmvec has (glibc 2.35+).
constexpr Function kFunctions[] = {
    {"sinf", 1},  {"cosf", 1},  {"tanf", 1},  {"asinf", 1},  {"acosf", 1}, {"atanf", 1}, {"sinhf", 1},
    {"coshf", 1}, {"tanhf", 1}, {"asinhf", 1}, {"acoshf", 1}, {"atanhf", 1}, {"expf", 1},  {"exp2f", 1},
    {"logf", 1},  {"log2f", 1}, {"log10f", 1}, {"powf", 2},   {"atan2f", 2}};

// x86-64 vector function ABI names: _ZGV <isa> N <lanes> <'v' per parameter> _ <name>.
struct Isa {
  char letter;
  uint32_t lanes;
};
constexpr Isa kIsas[] = {{'e', 16}, {'d', 8}, {'b', 4}};

bool isaUsable(const Isa& isa) {
  const CpuInfo& cpu = hostCpu();
  return isa.lanes == 16 ? cpu.avx512 : isa.lanes == 8 ? cpu.avx2 : true;
}

std::string mangle(const Isa& isa, const Function& f) {
  return std::string("_ZGV") + isa.letter + "N" + std::to_string(isa.lanes) + std::string(f.params, 'v') + "_" + f.name;
}

void* library() {
  // Loaded once; never closed (JIT code may call into it until the process exits).
  static void* handle = dlopen("libmvec.so.1", RTLD_NOW | RTLD_LOCAL);
  return handle;
}

void* address(const std::string& symbol) { return library() ? dlsym(library(), symbol.c_str()) : nullptr; }

}  // namespace

VectorMathFunction vectorMathFunction(const std::string& scalarName) {
  for (const Function& f : kFunctions) {
    if (scalarName != f.name) continue;
    for (const Isa& isa : kIsas) {
      if (!isaUsable(isa)) continue;
      std::string symbol = mangle(isa, f);
      if (address(symbol)) return {symbol, isa.lanes};
    }
  }
  return {};
}

std::vector<std::pair<std::string, void*>> vectorMathSymbols() {
  std::vector<std::pair<std::string, void*>> out;
  for (const Function& f : kFunctions)
    for (const Isa& isa : kIsas) {
      if (!isaUsable(isa)) continue;
      std::string symbol = mangle(isa, f);
      if (void* a = address(symbol)) out.emplace_back(std::move(symbol), a);
    }
  return out;
}

}  // namespace tessera::jit
