// Compiling on a deep stack. LLVM's analyses recurse along chains of values (ScalarEvolution
// follows a phi chain one frame group per phi): a valid shader with a few thousand if-statements
// in a loop overflowed the 8 MiB stack of the application thread that called
// vkCreate*Pipelines and ended the process. Compilation therefore runs on a stack of its own,
// kDeepStackBytes of address space committed only where touched, on the calling thread (so its
// thread-local target machine and caches still apply); its guard page turns what would still
// overflow into a fault at a known place rather than a write into a neighbour.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>

namespace tessera::jit {

inline constexpr size_t kDeepStackBytes = size_t(512) << 20;

// Runs `work` on a kDeepStackBytes stack and returns once it has. An exception it throws is
// rethrown here. Throws std::bad_alloc when the stack cannot be mapped.
void runOnDeepStack(const std::function<void()>& work);

template <typename Result, typename Work>
Result onDeepStack(Work&& work) {
  std::optional<Result> result;
  runOnDeepStack([&] { result.emplace(work()); });
  return std::move(*result);
}

}  // namespace tessera::jit
