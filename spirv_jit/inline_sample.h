// Inline sampling in fragment kernels: the common case of an implicit-LOD 2D or cube sample (an
// R8G8B8A8 / B8G8R8A8 UNORM level with power-of-two sides, NEAREST or LINEAR, REPEAT or
// CLAMP_TO_EDGE, one level for the batch) sampled by the kernel's own vector code, checked at
// run time against the thread's InlineSampleState entry (shader_abi.h); everything else goes
// through the runtime call as before. The results are the call's bit for bit.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace llvm {
class Value;
}

namespace tessera::jit {

class Translator;

struct InlineSampleOperands {
  llvm::Value* imageDesc = nullptr;    // i64 descriptor addresses, uniform over the batch
  llvm::Value* samplerDesc = nullptr;
  llvm::Value* s = nullptr;            // <W x float> coordinates
  llvm::Value* t = nullptr;
  llvm::Value* dsdx = nullptr;         // <W x float> quad derivatives (the call's gradient words)
  llvm::Value* dtdx = nullptr;
  llvm::Value* dsdy = nullptr;
  llvm::Value* dtdy = nullptr;
  // A cube sample (samplerCube): s, t, r are the direction's x, y, z and the derivatives come
  // with drdx and drdy, all as the call's words; the kernel selects each lane's face first.
  bool cube = false;
  llvm::Value* r = nullptr;
  llvm::Value* drdx = nullptr;
  llvm::Value* drdy = nullptr;
  uint32_t slot = 0;                   // entry index, below kInlineSampleSlots
};

// Emits the inline path and, for every batch it does not take, `call` (which emits today's
// runtime call at the insertion point and returns its four <W x i32> result words); returns
// the four result words of whichever ran.
std::vector<llvm::Value*> emitInlineSample(Translator& t, const InlineSampleOperands& ops,
                                           const std::function<std::vector<llvm::Value*>()>& call);

}  // namespace tessera::jit
