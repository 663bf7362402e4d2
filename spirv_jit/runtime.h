// Functions that generated kernels call (tessera_rt_*), and the table the JIT links them by.
#pragma once

#include <vector>

namespace tessera::jit {

struct HostSymbol {
  const char* name;
  void* address;
};

std::vector<HostSymbol> runtimeSymbols();

}  // namespace tessera::jit
