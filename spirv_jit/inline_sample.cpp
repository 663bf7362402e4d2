// Inline sampling (inline_sample.h). The kernel reads the thread's entry for the instruction's
// slot (FragmentBatch::inlineSampling); when the descriptors name the entry's view and sampler,
// the entry is usable and every active lane's ρ_max² lies in the level's range and its
// coordinates fit, it samples the level itself with the fixed-point routine's arithmetic
// (sampler/batch_sampler_unorm8_uniform.cpp, whose steps each line below names):
//  - NEAREST: i = floor(s w) (exact in float: w is a power of two), wrapped, one texel; each
//    byte c gives c / 255 correctly rounded (the routine's unormQuotient on c 2^16);
//  - LINEAR: x = s w 256, floor(x) + (x - floor(x) >= 1/2) - 128 (linearCoordinatePow2: u - 1/2
//    snapped to 2^-8), i0 = x >> 8, α = x & 255, four texels, the rows c0 (256 - α) + c1 α
//    and (256 - β) row0 + β row1 in integers (the routine's vpmaddwd and exact float steps),
//    over 255 x 2^16 correctly rounded (unormQuotient: a product and two fused multiply-adds);
//  - REPEAT is the low bits, CLAMP_TO_EDGE a clamp to [0, size - 1] (the routine's wrap for
//    powers of two); BGRA swaps bytes 0 and 2; inactive lanes give 0, as the call's do.
// A missed key or range calls tessera_rt_inline_sample_refresh (with the first lane that
// missed) and then the runtime call for this batch; coordinates that do not fit go to the
// call directly.
#include "inline_sample.h"

#include <cstddef>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>

#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {
namespace {

using abi::InlineSampleState;

struct Emitter {
  Translator& t;
  llvm::IRBuilder<>& B;
  const InlineSampleOperands& ops;
  llvm::Function* fn;
  llvm::Type* i32;
  llvm::Type* f32;
  llvm::Type* ptr;
  llvm::Type* vi32;
  llvm::Type* vf32;
  llvm::Value* active;  // <W x i1>
  llvm::Value* entry = nullptr;

  Emitter(Translator& tr, const InlineSampleOperands& o)
      : t(tr), B(tr.b()), ops(o), fn(tr.b().GetInsertBlock()->getParent()), i32(B.getInt32Ty()), f32(B.getFloatTy()),
        ptr(B.getPtrTy()), vi32(tr.laneType(B.getInt32Ty())), vf32(tr.laneType(B.getFloatTy())), active(tr.splat(tr.mask())) {}

  llvm::BasicBlock* block(const char* name) { return llvm::BasicBlock::Create(t.context(), name, fn); }

  llvm::Value* field(llvm::Type* ty, size_t offset) {
    return B.CreateLoad(ty, B.CreateConstGEP1_64(B.getInt8Ty(), entry, offset));
  }
  llvm::Value* splatI(int32_t v) { return t.splat(B.getInt32(uint32_t(v))); }
  llvm::Value* splatF(float v) { return t.splat(llvm::ConstantFP::get(f32, v)); }
  llvm::Value* bits(llvm::Value* mask) { return B.CreateBitCast(mask, B.getIntNTy(t.width())); }
  // Whether every active lane has `ok`.
  llvm::Value* allActive(llvm::Value* ok) {
    return B.CreateICmpEQ(bits(B.CreateAnd(active, B.CreateNot(ok))), llvm::ConstantInt::get(B.getIntNTy(t.width()), 0));
  }
  llvm::Value* floorF(llvm::Value* v) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, v); }
  llvm::Value* fabsF(llvm::Value* v) { return B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
  llvm::Value* fma(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return B.CreateIntrinsic(llvm::Intrinsic::fma, {vf32}, {a, b, c});
  }

  // The first lane of `mask` (lane 0 when it has none), then the refresh call with its
  // derivatives.
  void refresh(llvm::Value* mask) {
    llvm::Type* intW = B.getIntNTy(t.width());
    llvm::Value* first = B.CreateIntrinsic(llvm::Intrinsic::cttz, {intW}, {bits(mask), B.getFalse()});
    first = B.CreateZExtOrTrunc(first, i32);
    first = B.CreateSelect(B.CreateICmpULT(first, B.getInt32(t.width())), first, B.getInt32(0));
    llvm::FunctionCallee fnRefresh = t.runtime(
        "tessera_rt_inline_sample_refresh", llvm::FunctionType::get(B.getVoidTy(), {ptr, ptr, ptr, i32, f32, f32, f32, f32}, false));
    B.CreateCall(fnRefresh, {B.CreateIntToPtr(ops.imageDesc, ptr), B.CreateIntToPtr(ops.samplerDesc, ptr), entry,
                             B.getInt32(t.width()), B.CreateExtractElement(ops.dsdx, first), B.CreateExtractElement(ops.dtdx, first),
                             B.CreateExtractElement(ops.dsdy, first), B.CreateExtractElement(ops.dtdy, first)});
  }

  // "Wrapping Operation" of integer texel coordinates for a power-of-two size: REPEAT keeps the
  // low bits (two's complement), CLAMP_TO_EDGE clamps to [0, size - 1]; `clamp` is uniform.
  llvm::Value* wrap(llvm::Value* i, llvm::Value* sizeMask, llvm::Value* clamp) {
    llvm::Value* repeated = B.CreateAnd(i, sizeMask);
    llvm::Value* clamped = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, i, splatI(0)), sizeMask);
    return B.CreateSelect(clamp, clamped, repeated);
  }

  // The active lanes' 32-bit texels at byte offsets `offset` (in int32) from `base`.
  llvm::Value* texels(llvm::Value* base, llvm::Value* offset) {
    llvm::Value* addresses = B.CreateGEP(B.getInt8Ty(), base, B.CreateSExt(offset, t.laneType(B.getInt64Ty())));
    return B.CreateMaskedGather(vi32, addresses, llvm::Align(1), active, llvm::Constant::getNullValue(vi32));
  }
  // The active lanes' 8-byte texel pairs at byte offsets `offset` (the first texel in the low
  // half: little-endian).
  llvm::Value* texelPairs(llvm::Value* base, llvm::Value* offset) {
    llvm::Type* vi64 = t.laneType(B.getInt64Ty());
    llvm::Value* addresses = B.CreateGEP(B.getInt8Ty(), base, B.CreateSExt(offset, vi64));
    return B.CreateMaskedGather(vi64, addresses, llvm::Align(1), active, llvm::Constant::getNullValue(vi64));
  }
  // The texels a later batch will read, into the cache: the block walker goes on 4 pixels to
  // the right, so the texels 8 pixels ahead (two blocks) of a few lanes spread over the block's
  // rows, moved by the quad derivatives (the routine's prefetchAhead).
  void prefetchAhead(llvm::Value* base, llvm::Value* i, llvm::Value* j, llvm::Value* maskW, llvm::Value* maskH,
                     llvm::Value* clampU, llvm::Value* clampV, llvm::Value* pitch, llvm::Value* width, llvm::Value* height) {
    // Only for a step below one texture width (8 |∂s/∂x| < 1, likewise t; NaN fails), as the
    // routine does: larger ones land in texels no later batch of this block row reads.
    llvm::Value* aheadS = B.CreateFMul(ops.dsdx, splatF(8.0f));
    llvm::Value* aheadT = B.CreateFMul(ops.dtdx, splatF(8.0f));
    llvm::Value* near = B.CreateAnd(B.CreateFCmpOLT(fabsF(aheadS), splatF(1.0f)), B.CreateFCmpOLT(fabsF(aheadT), splatF(1.0f)));
    llvm::Value* zero = splatF(0.0f);
    llvm::Value* stepI = B.CreateFPToSI(B.CreateSelect(near, B.CreateFMul(aheadS, t.splat(width)), zero), vi32);
    llvm::Value* stepJ = B.CreateFPToSI(B.CreateSelect(near, B.CreateFMul(aheadT, t.splat(height)), zero), vi32);
    llvm::Value* ai = wrap(B.CreateAdd(i, stepI), maskW, clampU);
    llvm::Value* aj = wrap(B.CreateAdd(j, stepJ), maskH, clampV);
    llvm::Value* offset = B.CreateAdd(B.CreateMul(aj, pitch), B.CreateShl(ai, splatI(2)));
    // Four lanes from the block's four pixel rows (W = 16: its corners and two inner pixels;
    // W = 8 and 4: every other lane or every lane).
    const uint32_t W = t.width();
    const uint32_t lanes[4] = {0, W == 16 ? 5u : W / 4, W == 16 ? 10u : W / 2, W - 1};
    for (uint32_t lane : lanes) {
      llvm::Value* at = B.CreateGEP(B.getInt8Ty(), base, B.CreateSExt(B.CreateExtractElement(offset, B.getInt32(lane)), B.getInt64Ty()));
      B.CreateIntrinsic(llvm::Intrinsic::prefetch, {ptr}, {at, B.getInt32(0), B.getInt32(3), B.getInt32(1)});
    }
  }
  llvm::Value* byteOf(llvm::Value* texel, int c) {
    return B.CreateAnd(c ? B.CreateLShr(texel, splatI(8 * c)) : texel, splatI(0xFF));
  }
  // S / D correctly rounded for integers S in [0, D 2^0 .. 255 x 2^16] (the routine's
  // unormQuotient: q = S r, e = S - q D exactly, q + e r).
  llvm::Value* quotient(llvm::Value* sum, float d) {
    llvm::Value* s = B.CreateUIToFP(sum, vf32);
    llvm::Value* r = splatF(1.0f / d);
    llvm::Value* q = B.CreateFMul(s, r);
    llvm::Value* e = fma(B.CreateFNeg(q), splatF(d), s);
    return fma(e, r, q);
  }

  // The four components in R, G, B, A order (BGRA: bytes 0 and 2 trade places), 0 for inactive
  // lanes, as words.
  std::vector<llvm::Value*> finish(llvm::Value* (&byteValue)[4], llvm::Value* bgra) {
    llvm::Value* red = B.CreateSelect(bgra, byteValue[2], byteValue[0]);
    llvm::Value* blue = B.CreateSelect(bgra, byteValue[0], byteValue[2]);
    llvm::Value* c[4] = {red, byteValue[1], blue, byteValue[3]};
    std::vector<llvm::Value*> out;
    for (llvm::Value* v : c) out.push_back(B.CreateSelect(active, B.CreateBitCast(v, vi32), splatI(0)));
    return out;
  }
};

}  // namespace

std::vector<llvm::Value*> emitInlineSample(Translator& t, const InlineSampleOperands& ops,
                                           const std::function<std::vector<llvm::Value*>()>& call) {
  Emitter e(t, ops);
  llvm::IRBuilder<>& B = e.B;
  // Exact arithmetic: nothing may be contracted or reassociated here.
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();

  llvm::BasicBlock* keyBB = e.block("isample.key");
  llvm::BasicBlock* usableBB = e.block("isample.usable");
  llvm::BasicBlock* rangeBB = e.block("isample.range");
  llvm::BasicBlock* refreshKeyBB = e.block("isample.refresh.key");
  llvm::BasicBlock* refreshRangeBB = e.block("isample.refresh.range");
  llvm::BasicBlock* filterBB = e.block("isample.filter");
  llvm::BasicBlock* nearestBB = e.block("isample.nearest");
  llvm::BasicBlock* nearestFetchBB = e.block("isample.nearest.fetch");
  llvm::BasicBlock* linearBB = e.block("isample.linear");
  llvm::BasicBlock* linearFetchBB = e.block("isample.linear.fetch");
  llvm::BasicBlock* callBB = e.block("isample.call");
  llvm::BasicBlock* doneBB = e.block("isample.done");

  // The entry: FragmentBatch::inlineSampling (null: always the call) + slot.
  llvm::Value* slots = B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), t.workgroupState(), offsetof(abi::FragmentBatch, inlineSampling)));
  e.entry = B.CreateConstGEP1_64(B.getInt8Ty(), slots, uint64_t(ops.slot) * sizeof(InlineSampleState));
  llvm::Value* zero64 = llvm::ConstantInt::get(ops.imageDesc->getType(), 0);
  llvm::Value* present = B.CreateAnd(B.CreateIsNotNull(slots),
                                     B.CreateAnd(B.CreateICmpNE(ops.imageDesc, zero64), B.CreateICmpNE(ops.samplerDesc, zero64)));
  B.CreateCondBr(present, keyBB, callBB);

  // The key: the descriptors' view and sampler.
  B.SetInsertPoint(keyBB);
  llvm::Value* view = B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), B.CreateIntToPtr(ops.imageDesc, e.ptr), offsetof(abi::ImageDescriptor, view)));
  llvm::Value* sampler =
      B.CreateLoad(e.ptr, B.CreateConstGEP1_64(B.getInt8Ty(), B.CreateIntToPtr(ops.samplerDesc, e.ptr), offsetof(abi::ImageDescriptor, sampler)));
  llvm::Value* hit = B.CreateAnd(B.CreateICmpEQ(view, e.field(e.ptr, offsetof(InlineSampleState, view))),
                                 B.CreateICmpEQ(sampler, e.field(e.ptr, offsetof(InlineSampleState, sampler))));
  B.CreateCondBr(hit, usableBB, refreshKeyBB);

  B.SetInsertPoint(refreshKeyBB);
  e.refresh(e.active);
  B.CreateBr(callBB);

  // A pair the kernel does not sample stays on the call until the entry is cleared (a draw).
  B.SetInsertPoint(usableBB);
  B.CreateCondBr(B.CreateICmpNE(e.field(e.i32, offsetof(InlineSampleState, usable)), B.getInt32(0)), rangeBB, callBB);

  // ρ_max² per lane in float (batch_sampler_unorm8_uniform.cpp squaredRhoLanes: |d| size,
  // squared, summed, the larger sum), inside the level's range for every active lane.
  B.SetInsertPoint(rangeBB);
  llvm::Value* baseW = t.splat(e.field(e.f32, offsetof(InlineSampleState, baseWidth)));
  llvm::Value* baseH = t.splat(e.field(e.f32, offsetof(InlineSampleState, baseHeight)));
  llvm::Value* mx0 = B.CreateFMul(e.fabsF(ops.dsdx), baseW);
  llvm::Value* mx1 = B.CreateFMul(e.fabsF(ops.dtdx), baseH);
  llvm::Value* my0 = B.CreateFMul(e.fabsF(ops.dsdy), baseW);
  llvm::Value* my1 = B.CreateFMul(e.fabsF(ops.dtdy), baseH);
  llvm::Value* sumX = B.CreateFAdd(B.CreateFMul(mx0, mx0), B.CreateFMul(mx1, mx1));
  llvm::Value* sumY = B.CreateFAdd(B.CreateFMul(my0, my0), B.CreateFMul(my1, my1));
  llvm::Value* rho2 = B.CreateSelect(B.CreateFCmpOLT(sumX, sumY), sumY, sumX);
  llvm::Value* inRange = B.CreateAnd(B.CreateFCmpOGE(rho2, t.splat(e.field(e.f32, offsetof(InlineSampleState, rho2Lo)))),
                                     B.CreateFCmpOLT(rho2, t.splat(e.field(e.f32, offsetof(InlineSampleState, rho2Hi)))));
  B.CreateCondBr(e.allActive(inRange), filterBB, refreshRangeBB);

  B.SetInsertPoint(refreshRangeBB);
  e.refresh(B.CreateAnd(e.active, B.CreateNot(inRange)));
  B.CreateBr(callBB);

  B.SetInsertPoint(filterBB);
  llvm::Value* flags = e.field(e.i32, offsetof(InlineSampleState, flags));
  auto flag = [&](uint32_t bit) { return t.splat(B.CreateICmpNE(B.CreateAnd(flags, B.getInt32(bit)), B.getInt32(0))); };
  llvm::Value* clampU = flag(abi::kInlineClampU);
  llvm::Value* clampV = flag(abi::kInlineClampV);
  llvm::Value* bgra = flag(abi::kInlineBgra);
  llvm::Value* base = e.field(e.ptr, offsetof(InlineSampleState, base));
  llvm::Value* pitch = t.splat(e.field(e.i32, offsetof(InlineSampleState, rowPitch)));
  llvm::Value* maskW = t.splat(e.field(e.i32, offsetof(InlineSampleState, widthMask)));
  llvm::Value* maskH = t.splat(e.field(e.i32, offsetof(InlineSampleState, heightMask)));
  llvm::Value* width = e.field(e.f32, offsetof(InlineSampleState, width));
  llvm::Value* height = e.field(e.f32, offsetof(InlineSampleState, height));
  B.CreateCondBr(B.CreateICmpNE(B.CreateAnd(flags, B.getInt32(abi::kInlineLinear)), B.getInt32(0)), linearBB, nearestBB);

  // NEAREST (nearestCoordinatePow2): floor(s w), exact; fits when |floor| < 2^22.
  B.SetInsertPoint(nearestBB);
  llvm::Value* fx = e.floorF(B.CreateFMul(ops.s, t.splat(width)));
  llvm::Value* fy = e.floorF(B.CreateFMul(ops.t, t.splat(height)));
  llvm::Value* nearFits = B.CreateAnd(B.CreateFCmpOLT(e.fabsF(fx), e.splatF(4194304.0f)), B.CreateFCmpOLT(e.fabsF(fy), e.splatF(4194304.0f)));
  B.CreateCondBr(e.allActive(nearFits), nearestFetchBB, callBB);

  B.SetInsertPoint(nearestFetchBB);
  llvm::Value* zeroF = e.splatF(0.0f);
  llvm::Value* i = e.wrap(B.CreateFPToSI(B.CreateSelect(e.active, fx, zeroF), e.vi32), maskW, clampU);
  llvm::Value* j = e.wrap(B.CreateFPToSI(B.CreateSelect(e.active, fy, zeroF), e.vi32), maskH, clampV);
  llvm::Value* texel = e.texels(base, B.CreateAdd(B.CreateMul(j, pitch), B.CreateShl(i, e.splatI(2))));
  e.prefetchAhead(base, i, j, maskW, maskH, clampU, clampV, pitch, width, height);
  llvm::Value* nearValue[4];
  for (int c = 0; c < 4; ++c) nearValue[c] = e.quotient(e.byteOf(texel, c), 255.0f);
  std::vector<llvm::Value*> nearResult = e.finish(nearValue, bgra);
  llvm::BasicBlock* nearEnd = B.GetInsertBlock();
  B.CreateBr(doneBB);

  // LINEAR (linearCoordinatePow2): x = s w 256 (exact), floor(x) + (x - floor(x) >= 1/2) - 128;
  // fits when |floor(x)| < 2^29 (the routine's 2^30 bounds with room for the adjustment).
  B.SetInsertPoint(linearBB);
  llvm::Value* xs = B.CreateFMul(ops.s, t.splat(B.CreateFMul(width, llvm::ConstantFP::get(e.f32, 256.0))));
  llvm::Value* ys = B.CreateFMul(ops.t, t.splat(B.CreateFMul(height, llvm::ConstantFP::get(e.f32, 256.0))));
  llvm::Value* lx = e.floorF(xs);
  llvm::Value* ly = e.floorF(ys);
  llvm::Value* linFits = B.CreateAnd(B.CreateFCmpOLT(e.fabsF(lx), e.splatF(536870912.0f)), B.CreateFCmpOLT(e.fabsF(ly), e.splatF(536870912.0f)));
  B.CreateCondBr(e.allActive(linFits), linearFetchBB, callBB);

  B.SetInsertPoint(linearFetchBB);
  auto fixed = [&](llvm::Value* x, llvm::Value* f) {
    llvm::Value* up = B.CreateZExt(B.CreateFCmpOGE(B.CreateFSub(x, f), e.splatF(0.5f)), e.vi32);
    llvm::Value* n = B.CreateFPToSI(B.CreateSelect(e.active, f, zeroF), e.vi32);
    return B.CreateSub(B.CreateAdd(n, up), e.splatI(128));
  };
  llvm::Value* X = fixed(xs, lx);
  llvm::Value* Y = fixed(ys, ly);
  llvm::Value* i0 = B.CreateAShr(X, e.splatI(8));
  llvm::Value* j0 = B.CreateAShr(Y, e.splatI(8));
  llvm::Value* alpha = B.CreateAnd(X, e.splatI(255));
  llvm::Value* beta = B.CreateAnd(Y, e.splatI(255));
  llvm::Value* x0 = B.CreateShl(e.wrap(i0, maskW, clampU), e.splatI(2));
  llvm::Value* x1 = B.CreateShl(e.wrap(B.CreateAdd(i0, e.splatI(1)), maskW, clampU), e.splatI(2));
  llvm::Value* y0 = B.CreateMul(e.wrap(j0, maskH, clampV), pitch);
  llvm::Value* y1 = B.CreateMul(e.wrap(B.CreateAdd(j0, e.splatI(1)), maskH, clampV), pitch);
  e.prefetchAhead(base, e.wrap(i0, maskW, clampU), e.wrap(j0, maskH, clampV), maskW, maskH, clampU, clampV, pitch, width, height);
  e.prefetchAhead(base, e.wrap(i0, maskW, clampU), e.wrap(B.CreateAdd(j0, e.splatI(1)), maskH, clampV), maskW, maskH, clampU, clampV,
                  pitch, width, height);
  // Where every active lane's right texel is the next one in memory (no wrap or clamp between
  // them), each row's two texels are one 8-byte load: half the loads (the routine's
  // loadTexelPairs).
  llvm::BasicBlock* pairsBB = e.block("isample.linear.pairs");
  llvm::BasicBlock* singlesBB = e.block("isample.linear.singles");
  llvm::BasicBlock* filterLinearBB = e.block("isample.linear.filter");
  B.CreateCondBr(e.allActive(B.CreateICmpEQ(x1, B.CreateAdd(x0, e.splatI(4)))), pairsBB, singlesBB);
  B.SetInsertPoint(pairsBB);
  llvm::Value* pairTexels[4];
  for (int r = 0; r < 2; ++r) {
    llvm::Value* pair = e.texelPairs(base, B.CreateAdd(r ? y1 : y0, x0));
    pairTexels[2 * r] = B.CreateTrunc(pair, e.vi32);
    pairTexels[2 * r + 1] = B.CreateTrunc(B.CreateLShr(pair, t.splat(B.getInt64(32))), e.vi32);
  }
  B.CreateBr(filterLinearBB);
  B.SetInsertPoint(singlesBB);
  // The right texels first: were both paths to begin with the same address, SimplifyCFG would
  // hoist it above the branch, and a gather whose address vector comes from another block is
  // selected as a gather of 64-bit pointers (twice the instructions).
  llvm::Value* singleTexels[4];
  singleTexels[1] = e.texels(base, B.CreateAdd(y0, x1));
  singleTexels[3] = e.texels(base, B.CreateAdd(y1, x1));
  singleTexels[0] = e.texels(base, B.CreateAdd(y0, x0));
  singleTexels[2] = e.texels(base, B.CreateAdd(y1, x0));
  B.CreateBr(filterLinearBB);
  B.SetInsertPoint(filterLinearBB);
  llvm::Value* texel4[4];
  for (int k = 0; k < 4; ++k) {
    llvm::PHINode* phi = B.CreatePHI(e.vi32, 2);
    phi->addIncoming(pairTexels[k], pairsBB);
    phi->addIncoming(singleTexels[k], singlesBB);
    texel4[k] = phi;
  }
  llvm::Value* t00 = texel4[0];
  llvm::Value* t10 = texel4[1];
  llvm::Value* t01 = texel4[2];
  llvm::Value* t11 = texel4[3];
  llvm::Value* ialpha = B.CreateSub(e.splatI(256), alpha);
  llvm::Value* ibeta = B.CreateSub(e.splatI(256), beta);
  llvm::Value* linValue[4];
  for (int c = 0; c < 4; ++c) {
    llvm::Value* row0 = B.CreateAdd(B.CreateMul(e.byteOf(t00, c), ialpha), B.CreateMul(e.byteOf(t10, c), alpha));
    llvm::Value* row1 = B.CreateAdd(B.CreateMul(e.byteOf(t01, c), ialpha), B.CreateMul(e.byteOf(t11, c), alpha));
    llvm::Value* sum = B.CreateAdd(B.CreateMul(row0, ibeta), B.CreateMul(row1, beta));
    linValue[c] = e.quotient(sum, 16711680.0f);  // 255 x 2^16
  }
  std::vector<llvm::Value*> linResult = e.finish(linValue, bgra);
  llvm::BasicBlock* linEnd = B.GetInsertBlock();
  B.CreateBr(doneBB);

  // Everything else: the runtime call, as without inline sampling.
  B.SetInsertPoint(callBB);
  std::vector<llvm::Value*> callResult = call();
  llvm::BasicBlock* callEnd = B.GetInsertBlock();
  B.CreateBr(doneBB);

  B.SetInsertPoint(doneBB);
  std::vector<llvm::Value*> result;
  for (size_t c = 0; c < 4; ++c) {
    llvm::PHINode* phi = B.CreatePHI(e.vi32, 3);
    phi->addIncoming(nearResult[c], nearEnd);
    phi->addIncoming(linResult[c], linEnd);
    phi->addIncoming(callResult[c], callEnd);
    result.push_back(phi);
  }
  return result;
}

}  // namespace tessera::jit
