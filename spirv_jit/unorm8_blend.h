// The fragment kernels' own "Blending" into 8-bit UNORM attachments (translate_direct_color.cpp):
// the 8-bit fixed-point rule of tessera/blend_unorm8.h emitted as 16-bit SIMD arithmetic.
#pragma once

#include <cstdint>

#include <llvm/IR/IRBuilder.h>

namespace tessera::jit {

// Whether kernels on this host blend 8-bit UNORM attachments themselves: the arithmetic needs
// SSE4.1 (PACKUSDW); elsewhere the draw loop blends (the pipeline's kernel does not name a
// blended attachment as written).
bool kernelsBlendUnorm8();

// The blended texels of W lanes (<W x i32>, every byte written; the caller merges the write
// mask's kept bits): plan is abi::packBlend's word (not 0), src the lanes' R, G, B, A sources
// (<W x float> each), current the attachment's texels of the lanes (R8G8B8A8, or B8G8R8A8 when
// bgra, an i1, is true: the two layouts the draw loop hands the kernel), constants the blend
// constants (float scalars). Every lane gives blendUnorm8Texel's bytes.
// chunkLanes: the lanes a chunk of 16-bit arithmetic takes (4, 8 or 16: SSE4.1, AVX2, AVX-512
// BW); 0 picks the host's. (Tests verify the IR of every chunk width on any host.)
llvm::Value* emitUnorm8Blend(llvm::IRBuilderBase& B, uint32_t plan, llvm::Value* const (&src)[4], llvm::Value* current,
                             llvm::Value* bgra, llvm::Value* const (&constants)[4], uint32_t chunkLanes = 0);

}  // namespace tessera::jit
