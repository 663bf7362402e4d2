// Subgroup operations: a subgroup is one SIMD batch (SubgroupSize = W).
#include "translator.h"

namespace tessera::jit {

bool Translator::translateSubgroup(const Instruction&) { return false; }

}  // namespace tessera::jit
