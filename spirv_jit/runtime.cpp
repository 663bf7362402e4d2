#include "runtime.h"

#include "tessera/shader_abi.h"

extern "C" void tessera_rt_barrier(tessera::abi::WorkgroupState* wg);

namespace tessera::jit {

std::vector<HostSymbol> runtimeSymbols() {
  return {
      {"tessera_rt_barrier", reinterpret_cast<void*>(&tessera_rt_barrier)},
  };
}

}  // namespace tessera::jit
