// The translator sees the pipeline's side of the contract through the public JIT header.
#pragma once

#include "tessera/spirv_jit.h"
