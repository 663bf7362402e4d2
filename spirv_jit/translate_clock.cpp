// OpReadClockKHR (SPV_KHR_shader_clock, VK_KHR_shader_clock): one call of the runtime's clock
// (runtime_clock.cpp) per batch. A batch is one subgroup, so every invocation of a subgroup
// reads the same value, which the Subgroup scope allows and the uniformity analysis expects
// (the result depends only on the scope, a constant). The result is a 64-bit integer or a
// two-component vector of 32-bit integers, low word first (SPIR-V spec, OpReadClockKHR).
#include "translator.h"

namespace tessera::jit {

void Translator::emitReadClock(const Instruction& inst) {
  llvm::IRBuilder<>& B = b();
  llvm::FunctionCallee clock = runtime("tessera_rt_read_clock", llvm::FunctionType::get(B.getInt64Ty(), {}, false));
  llvm::Value* now = B.CreateCall(clock);
  Val v;
  const Type* type = module_.type(inst.type);
  if (type && type->kind == TypeKind::Vector) {
    v.leaves.push_back(B.CreateTrunc(now, B.getInt32Ty()));
    v.leaves.push_back(B.CreateTrunc(B.CreateLShr(now, 32), B.getInt32Ty()));
  } else {
    v.leaves.push_back(now);
  }
  define(inst.result, v);
}

}  // namespace tessera::jit
