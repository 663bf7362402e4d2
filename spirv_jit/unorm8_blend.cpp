// 8-bit fixed-point "Blending" (tessera/blend_unorm8.h) in a fragment kernel, for chunks of C
// lanes (16 with AVX-512, 8 with AVX2, else 4) in 16-bit arithmetic, two components to a
// vector: the float sources become bytes (VCVTPS2DQ, one PACKUSDW per two components), the
// texels' bytes are transposed within each 128-bit group of four pixels (one PSHUFB) and
// widened (PUNPCKLBW/HBW), so that byte j of every pixel sits where the source's byte j does;
// factors, products (PMULLW), the saturating sum or difference, the clamp and the division by
// 255 (PMULHUW) then work on two components at once, and one PACKUSWB and the same PSHUFB put
// the bytes back in texel order. Each 16-bit vector holds, in 128-bit group g, the values of
// byte 2p of pixels 4g .. 4g + 3 (words 0-3, its "low half") and of byte 2p + 1 (words 4-7):
// PACKUSDW's own order. About 40 instructions for 8 lanes, where the float arithmetic with the
// codec's exact encode took about 110.
#include "unorm8_blend.h"

#include <algorithm>
#include <vector>

#include <llvm/IR/IntrinsicsX86.h>

#include "tessera/cpu_info.h"
#include "tessera/shader_abi.h"

namespace tessera::jit {

bool kernelsBlendUnorm8() { return hostCpu().sse41; }

namespace {

// Whether an ADD of this blend's products can exceed 255 x 255 (so needs the clamp): not when
// one factor is ZERO, or the factors are X and ONE_MINUS_X of the same X (2k and 2k + 1 for
// k = 1 .. 6: colours, alphas, constants), whose sum is exactly 255 for every value.
bool sumMayExceedOne(uint32_t srcFactor, uint32_t dstFactor) {
  if (srcFactor == 0 || dstFactor == 0) return false;
  const uint32_t low = std::min(srcFactor, dstFactor), high = std::max(srcFactor, dstFactor);
  return !(low >= 2 && low <= 12 && low % 2 == 0 && high == low + 1);
}

struct ChunkEmitter {
  llvm::IRBuilderBase& B;
  uint32_t C;  // lanes in a chunk: 4, 8 or 16
  llvm::Type* i16v;  // <2C x i16>
  llvm::Type* i8v;   // <4C x i8>

  llvm::Value* splat16(uint32_t v) { return llvm::ConstantInt::get(i16v, v); }
  llvm::Value* splat16(llvm::Value* scalar16) { return B.CreateVectorSplat(2 * C, scalar16); }

  // The vector whose low halves come from lo and high halves from hi.
  llvm::Value* halves(llvm::Value* lo, llvm::Value* hi) {
    if (lo == hi) return lo;
    std::vector<int> mask(2 * C);
    for (uint32_t e = 0; e < 2 * C; ++e) mask[e] = int(e % 8 < 4 ? e : 2 * C + e);
    return B.CreateShuffleVector(lo, hi, mask);
  }
  // Every half of a group holding that group's high half of v (the alpha of a byte-2/3 pair).
  llvm::Value* highHalves(llvm::Value* v) {
    std::vector<int> mask(2 * C);
    for (uint32_t e = 0; e < 2 * C; ++e) mask[e] = int(e / 8 * 8 + 4 + e % 4);
    return B.CreateShuffleVector(v, v, mask);
  }
  // Bytes i of each 16-byte group transposed as a 4 x 4 matrix: texel order (pixel-major) to
  // byte-major and back (the transpose is its own inverse).
  llvm::Value* transposeBytes(llvm::Value* v) {
    std::vector<int> mask(4 * C);
    for (uint32_t e = 0; e < 4 * C; ++e) mask[e] = int(e / 16 * 16 + e % 4 * 4 + e % 16 / 4);
    return B.CreateShuffleVector(v, v, mask);
  }
  // Bytes 0-7 (high = false) or 8-15 of each group widened to 16 bits.
  llvm::Value* widen(llvm::Value* bytes, bool high) {
    std::vector<int> mask(4 * C);
    for (uint32_t e = 0; e < 4 * C; ++e)
      mask[e] = e % 2 ? int(4 * C) : int(e / 16 * 16 + (high ? 8 : 0) + e % 16 / 2);
    return B.CreateBitCast(B.CreateShuffleVector(bytes, llvm::Constant::getNullValue(i8v), mask), i16v);
  }
  llvm::Value* intrinsic(llvm::Intrinsic::ID sse, llvm::Intrinsic::ID avx2, llvm::Intrinsic::ID avx512,
                         std::vector<llvm::Value*> args) {
    return B.CreateIntrinsic(C == 16 ? avx512 : C == 8 ? avx2 : sse, {}, args);
  }
  // blendInputUnorm8 of C float lanes: the clamps (NaN to 0: x > 0 ? x : 0), x 255, and the
  // conversion in the default rounding mode (to nearest, ties to even).
  llvm::Value* toUnorm8(llvm::Value* f) {
    llvm::Type* vf = f->getType();
    llvm::Value* zero = llvm::Constant::getNullValue(vf);
    llvm::Value* one = llvm::ConstantFP::get(vf, 1.0);
    f = B.CreateSelect(B.CreateFCmpOGT(f, zero), f, zero);
    f = B.CreateSelect(B.CreateFCmpOLT(f, one), f, one);
    f = B.CreateFMul(f, llvm::ConstantFP::get(vf, 255.0));
    if (C == 16) {
      llvm::Type* vi = llvm::FixedVectorType::get(B.getInt32Ty(), 16);
      constexpr uint32_t kCurrentDirection = 4;  // _MM_FROUND_CUR_DIRECTION
      return B.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_cvtps2dq_512, {},
                               {f, llvm::Constant::getNullValue(vi), B.getInt16(0xFFFF), B.getInt32(kCurrentDirection)});
    }
    return B.CreateIntrinsic(C == 8 ? llvm::Intrinsic::x86_avx_cvt_ps2dq_256 : llvm::Intrinsic::x86_sse2_cvtps2dq, {}, {f});
  }
  llvm::Value* packWords(llvm::Value* a, llvm::Value* b) {
    return intrinsic(llvm::Intrinsic::x86_sse41_packusdw, llvm::Intrinsic::x86_avx2_packusdw,
                     llvm::Intrinsic::x86_avx512_packusdw_512, {a, b});
  }
  llvm::Value* packBytes(llvm::Value* a, llvm::Value* b) {
    return intrinsic(llvm::Intrinsic::x86_sse2_packuswb_128, llvm::Intrinsic::x86_avx2_packuswb,
                     llvm::Intrinsic::x86_avx512_packuswb_512, {a, b});
  }
  // divide255Rounded: ((t + 128) x 257) >> 16, the high half of a 16-bit product (t + 128 stays
  // below 2^16 for t <= 255 x 255).
  // (Written as a widened product and shift, LLVM 19 widens it to 32-bit lanes: 14
  // instructions for 8 lanes where PMULHUW takes 2.)
  llvm::Value* divide255(llvm::Value* t) {
    return intrinsic(llvm::Intrinsic::x86_sse2_pmulhu_w, llvm::Intrinsic::x86_avx2_pmulhu_w,
                     llvm::Intrinsic::x86_avx512_pmulhu_w_512, {B.CreateAdd(t, splat16(128)), splat16(257)});
  }
};

}  // namespace

llvm::Value* emitUnorm8Blend(llvm::IRBuilderBase& B, uint32_t plan, llvm::Value* const (&src)[4], llvm::Value* current,
                             llvm::Value* bgra, llvm::Value* const (&constants)[4], uint32_t chunkLanes) {
  const uint32_t w = llvm::cast<llvm::FixedVectorType>(current->getType())->getNumElements();
  const CpuInfo& cpu = hostCpu();
  if (!chunkLanes) chunkLanes = cpu.avx512 ? 16u : cpu.avx2 ? 8u : 4u;
  const uint32_t C = std::min(w, chunkLanes);
  ChunkEmitter e{B, C, llvm::FixedVectorType::get(B.getInt16Ty(), 2 * C), llvm::FixedVectorType::get(B.getInt8Ty(), 4 * C)};
  const abi::UnpackedBlend u = abi::unpackBlend(plan);

  // Sources and constants by byte: byte 0 holds R (B8G8R8A8: B), byte 2 B (R), bytes 1 and 3
  // G and A in both layouts.
  llvm::Value* bySource[4] = {B.CreateSelect(bgra, src[2], src[0]), src[1], B.CreateSelect(bgra, src[0], src[2]), src[3]};
  llvm::Value* byConstant[4] = {B.CreateSelect(bgra, constants[2], constants[0]), constants[1],
                                B.CreateSelect(bgra, constants[0], constants[2]), constants[3]};
  // The constants' bytes (blendInputUnorm8 on scalars: clamps, x 255, then to nearest even by
  // adding and subtracting 2^23, exact below 2^23), as 16-bit values.
  llvm::Value* k[4];
  for (uint32_t j = 0; j < 4; ++j) {
    llvm::Value* f = byConstant[j];
    llvm::Value* zero = llvm::ConstantFP::get(B.getFloatTy(), 0.0), *one = llvm::ConstantFP::get(B.getFloatTy(), 1.0);
    f = B.CreateSelect(B.CreateFCmpOGT(f, zero), f, zero);
    f = B.CreateSelect(B.CreateFCmpOLT(f, one), f, one);
    f = B.CreateFMul(f, llvm::ConstantFP::get(B.getFloatTy(), 255.0));
    llvm::Value* big = llvm::ConstantFP::get(B.getFloatTy(), 8388608.0);  // 2^23
    f = B.CreateFSub(B.CreateFAdd(f, big), big);
    k[j] = B.CreateFPToUI(f, B.getInt16Ty());
  }

  const bool colourClamp = u.colorOp == 0 && sumMayExceedOne(u.srcColor, u.dstColor);
  const bool alphaClamp = u.alphaOp == 0 && sumMayExceedOne(u.srcAlpha, u.dstAlpha);
  std::vector<llvm::Value*> chunks;
  for (uint32_t first = 0; first < w; first += C) {
    std::vector<int> lanes(C);
    for (uint32_t l = 0; l < C; ++l) lanes[l] = int(first + l);
    auto chunkOf = [&](llvm::Value* v) { return C == w ? v : B.CreateShuffleVector(v, lanes); };
    // Sources: pair p holds bytes 2p (low halves) and 2p + 1 (high halves).
    llvm::Value* s[2], *d[2];
    for (uint32_t p = 0; p < 2; ++p)
      s[p] = e.packWords(e.toUnorm8(chunkOf(bySource[2 * p])), e.toUnorm8(chunkOf(bySource[2 * p + 1])));
    llvm::Value* byteMajor = e.transposeBytes(B.CreateBitCast(chunkOf(current), e.i8v));
    d[0] = e.widen(byteMajor, false);
    d[1] = e.widen(byteMajor, true);
    llvm::Value* sourceAlpha = e.highHalves(s[1]), *destAlpha = e.highHalves(d[1]);
    llvm::Value* full = e.splat16(255);

    // blendFactorUnorm8 for the bytes of pair p (alpha: the alpha byte's factor).
    auto factor = [&](uint32_t f, uint32_t p, bool alpha) -> llvm::Value* {
      auto constantPair = [&]() { return e.halves(e.splat16(k[2 * p]), e.splat16(k[2 * p + 1])); };
      switch (f) {
        case 0: return e.splat16(0u);                                           // ZERO
        case 1: return full;                                                   // ONE
        case 2: return s[p];                                                   // SRC_COLOR
        case 3: return B.CreateSub(full, s[p]);                                // ONE_MINUS_SRC_COLOR
        case 4: return d[p];                                                   // DST_COLOR
        case 5: return B.CreateSub(full, d[p]);                                // ONE_MINUS_DST_COLOR
        case 6: return sourceAlpha;                                            // SRC_ALPHA
        case 7: return B.CreateSub(full, sourceAlpha);                         // ONE_MINUS_SRC_ALPHA
        case 8: return destAlpha;                                              // DST_ALPHA
        case 9: return B.CreateSub(full, destAlpha);                           // ONE_MINUS_DST_ALPHA
        case 10: return constantPair();                                        // CONSTANT_COLOR
        case 11: return B.CreateSub(full, constantPair());                     // ONE_MINUS_CONSTANT_COLOR
        case 12: return e.splat16(k[3]);                                       // CONSTANT_ALPHA
        case 13: return B.CreateSub(full, e.splat16(k[3]));                    // ONE_MINUS_CONSTANT_ALPHA
        case 14:                                                               // SRC_ALPHA_SATURATE
          return alpha ? full : B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, sourceAlpha, B.CreateSub(full, destAlpha));
        default: return e.splat16(0u);
      }
    };
    // blendOpUnorm8 on a pair.
    auto operate = [&](uint32_t op, uint32_t p, llvm::Value* sf, llvm::Value* df, bool clamp) -> llvm::Value* {
      llvm::Value* a = B.CreateMul(s[p], sf), *b = B.CreateMul(d[p], df);
      switch (op) {
        case 1: return e.divide255(B.CreateBinaryIntrinsic(llvm::Intrinsic::usub_sat, a, b));  // SUBTRACT
        case 2: return e.divide255(B.CreateBinaryIntrinsic(llvm::Intrinsic::usub_sat, b, a));  // REVERSE_SUBTRACT
        case 3: return B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, s[p], d[p]);             // MIN
        case 4: return B.CreateBinaryIntrinsic(llvm::Intrinsic::umax, s[p], d[p]);             // MAX
        default: {                                                                             // ADD
          // The saturating sum: above 65535 it is above 255 x 255 as well.
          llvm::Value* t = B.CreateBinaryIntrinsic(llvm::Intrinsic::uadd_sat, a, b);
          if (clamp) t = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, t, e.splat16(255 * 255));
          return e.divide255(t);
        }
      }
    };
    llvm::Value* result[2];
    for (uint32_t p = 0; p < 2; ++p) {
      // Pair 0 is all colour; pair 1's high half is alpha.
      llvm::Value* sf = factor(u.srcColor, p, false), *df = factor(u.dstColor, p, false);
      if (p) sf = e.halves(sf, factor(u.srcAlpha, p, true)), df = e.halves(df, factor(u.dstAlpha, p, true));
      const bool clamp = colourClamp || (p == 1 && alphaClamp);
      llvm::Value* colour = operate(u.colorOp, p, sf, df, clamp);
      result[p] = p && u.alphaOp != u.colorOp ? e.halves(colour, operate(u.alphaOp, p, sf, df, clamp)) : colour;
    }
    chunks.push_back(B.CreateBitCast(e.transposeBytes(e.packBytes(result[0], result[1])),
                                     llvm::FixedVectorType::get(B.getInt32Ty(), C)));
  }
  while (chunks.size() > 1) {  // concatenate pairwise, lanes in order
    std::vector<llvm::Value*> joined;
    for (size_t i = 0; i < chunks.size(); i += 2) {
      const uint32_t n = llvm::cast<llvm::FixedVectorType>(chunks[i]->getType())->getNumElements();
      std::vector<int> both(2 * n);
      for (uint32_t l = 0; l < 2 * n; ++l) both[l] = int(l);
      joined.push_back(B.CreateShuffleVector(chunks[i], chunks[i + 1], both));
    }
    chunks = std::move(joined);
  }
  return chunks[0];
}

}  // namespace tessera::jit
