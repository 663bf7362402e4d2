// Storage images and texel buffers through the sampler module's texel codec.
#include "translator.h"

namespace tessera::jit {

bool Translator::translateImage(const Instruction&) { return false; }

}  // namespace tessera::jit
