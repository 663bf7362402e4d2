// The first piece of the compiled fragment back end (issue 12, scope 5): a fragment kernel
// encodes its colour outputs into 8-bit UNORM attachments and stores them itself when the draw
// loop names the attachment (abi::FragmentBatch::direct), instead of handing 4 float words per
// lane back for the loop to encode and write. The encode is the texel codec's "Conversion From
// Floating-Point to Normalized Fixed-Point" operation for operation, as raster's
// encodeUnorm8 does it (NaN -> 0, clamp to [0, 1], times 255 in double, round to nearest even
// by adding and subtracting 2^52; at W >= 8 the same integer from the float's bits on AVX2
// hosts, see times255RoundedBits, from float arithmetic elsewhere, see times255Rounded, and
// with AVX-512 from two instructions with their own rounding mode, see times255RoundedInt), so
// the pixels are bit-identical to the loop's. Blended attachments take the 8-bit fixed-point
// rule of tessera/blend_unorm8.h (unorm8_blend.cpp), as the loop does.
#include <algorithm>
#include <array>
#include <cstddef>

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/IntrinsicsX86.h>

#include "tessera/cpu_info.h"
#include "translator.h"
#include "unorm8_blend.h"

namespace tessera::jit {

uint32_t Translator::directColorCandidates(std::array<std::array<int, 4>, abi::kMaxColorAttachments>* leaves) const {
  if (stage_ != Stage::Fragment) return 0;
  // The block layout the stores assume exists at these widths (shader_abi.h).
  const uint32_t w = width();
  if (w != 4 && w != 8 && w != 16) return 0;
  std::array<std::array<int, 4>, abi::kMaxColorAttachments> found;
  for (auto& l : found) l.fill(-1);
  uint32_t unusable = 0;
  for (size_t i = 0; i < outputLeaves_.size(); ++i) {
    const InterfaceLeaf& l = outputLeaves_[i];
    if (l.builtIn != -1 || l.location >= abi::kMaxColorAttachments || l.component >= 4) continue;
    const Type* st = module_.type(l.type);
    const bool float32 = st && st->kind == TypeKind::Float && st->width == 32;
    if (!float32 || found[l.location][l.component] != -1) unusable |= 1u << l.location;
    found[l.location][l.component] = int(i);
  }
  uint32_t mask = 0;
  for (uint32_t loc = 0; loc < abi::kMaxColorAttachments; ++loc) {
    bool all = true;
    for (int c = 0; c < 4; ++c) all = all && found[loc][c] != -1;
    // Without the 16-bit arithmetic of the kernels' blending (kernelsBlendUnorm8) the draw
    // loop blends: a blended location is then handed back as words.
    const bool blendsElsewhere = interface_.colorBlend[loc] && !kernelsBlendUnorm8();
    if (all && !(unusable >> loc & 1) && !blendsElsewhere) mask |= 1u << loc;
  }
  if (leaves) *leaves = found;
  return mask;
}

void Translator::emitDirectColorWrites() {
  std::array<std::array<int, 4>, abi::kMaxColorAttachments> leaves;
  const uint32_t candidates = directColorCandidates(&leaves);
  if (!candidates) return;
  if (facts_) facts_->directColorLocations = uint8_t(candidates);
  // Attachments of 4 samples per pixel when the pipeline rasterizes with 4, else of 1.
  const bool fourSamples = interface_.colorSamples == 4;
  if (facts_) {
    for (uint32_t loc = 0; loc < abi::kMaxColorAttachments; ++loc)
      facts_->directBlend[loc] = candidates >> loc & 1 ? interface_.colorBlend[loc] : 0u;
    facts_->directSamples = fourSamples ? 4 : 1;
  }
  auto& B = b();
  // The encode must round exactly as the codec does: no fast-math flag may reach it (with
  // reassociation, (x + 2^52) - 2^52 would fold to x).
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  llvm::LLVMContext& ctx = B.getContext();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  const uint32_t w = width();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Type* vi = laneType(i32);
  llvm::Type* vf = laneType(B.getFloatTy());
  llvm::Type* vd = laneType(B.getDoubleTy());

  // Lane l of the batch is pixel (laneX, laneY) of its block (shader_abi.h: quads in rows, the
  // pixels of a quad in order); rows of `perRow` pixels, `rows` of them.
  const uint32_t rows = w == 16 ? 4 : 2, perRow = w == 4 ? 2 : 4;
  auto laneAt = [&](uint32_t r, uint32_t p) { return ((r >> 1) * (perRow / 2) + (p >> 1)) * 4 + (r & 1) * 2 + (p & 1); };

  // The lanes still alive (coverage, minus discards: the caller stored it before us), as one
  // mask per pixel row: `alive` tested against each pixel's lane bit in row-major pixel order
  // (one broadcast and one test for the whole block), each row a run of that mask. Extracting
  // each row's bits with scalar shifts cost about 35 instructions a block, a shuffle of the
  // lane mask about as many mask-register ones.
  llvm::Value* aliveBits = batchField(offsetof(abi::FragmentBatch, alive), i32);
  std::vector<llvm::Constant*> pixelLaneBit;
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t p = 0; p < perRow; ++p) pixelLaneBit.push_back(B.getInt32(1u << laneAt(r, p)));
  llvm::Value* alivePixels = B.CreateICmpNE(
      B.CreateAnd(B.CreateVectorSplat(rows * perRow, aliveBits), llvm::ConstantVector::get(pixelLaneBit)),
      llvm::Constant::getNullValue(llvm::FixedVectorType::get(i32, rows * perRow)));
  // (Kernels for 4 samples mask per sample instead, below.)
  std::vector<llvm::Value*> rowMasks;
  for (uint32_t r = 0; r < rows && !fourSamples; ++r) {
    std::vector<int> run;
    for (uint32_t p = 0; p < perRow; ++p) run.push_back(int(r * perRow + p));
    rowMasks.push_back(B.CreateShuffleVector(alivePixels, run));
  }

  // The byte permutes' indices (bytePermutes below) for R8G8B8A8, then for B8G8R8A8 (R and B
  // swapped), kPermuteEntries of 64 bytes each: entry c < 4 reads component c of the row-major
  // texels into byte 4l of lane l (the other bytes are cleared after the permute); entry 4
  // takes the row-major texels' bytes from lane texels with component c at byte c.
  constexpr uint32_t kPermuteEntries = 5;
  auto unorm8BytePermutes = [&]() -> llvm::Value* {
    llvm::Module& module = *fn->getParent();
    const char* name = "tessera_unorm8_byte_permutes";
    if (llvm::GlobalVariable* g = module.getNamedGlobal(name)) return g;
    std::vector<uint32_t> pixelOfLane(w);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t p = 0; p < perRow; ++p) pixelOfLane[laneAt(r, p)] = r * perRow + p;
    std::vector<uint8_t> bytes;
    for (uint32_t bgra = 0; bgra < 2; ++bgra) {
      // The byte of a texel holding component c; swapping R and B is its own inverse.
      auto bytePos = [&](uint32_t c) { return bgra && (c == 0 || c == 2) ? 2 - c : c; };
      for (uint32_t c = 0; c < 4; ++c)
        for (uint32_t i = 0; i < 64; ++i) bytes.push_back(uint8_t(i % 4 ? 0 : pixelOfLane[i / 4] * 4 + bytePos(c)));
      for (uint32_t i = 0; i < 64; ++i) {
        const uint32_t pixel = i / 4, lane = laneAt(pixel / perRow, pixel % perRow);
        bytes.push_back(uint8_t(4 * lane + bytePos(i % 4)));
      }
    }
    auto* init = llvm::ConstantDataArray::get(ctx, bytes);
    auto* g = new llvm::GlobalVariable(module, init->getType(), /*isConstant=*/true, llvm::GlobalValue::PrivateLinkage,
                                       init, name);
    g->setAlignment(llvm::Align(64));
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return g;
  };

  // The attachment's texels of the alive lanes (0 elsewhere) in lane order: one masked load
  // per pixel row, the rows joined, then lane l takes pixel (laneX(l), laneY(l)); or, with
  // `rowMajor`, the joined rows as they are.
  auto loadBlockTexels = [&](llvm::Value* row, llvm::Value* pitch, bool rowMajor) {
    llvm::Type* rowTy = llvm::FixedVectorType::get(i32, perRow);
    std::vector<llvm::Value*> parts;
    for (uint32_t r = 0; r < rows; ++r) {
      llvm::Value* at = B.CreateGEP(B.getInt8Ty(), row, B.CreateMul(pitch, B.getInt64(r)));
      parts.push_back(B.CreateMaskedLoad(rowTy, at, llvm::Align(4), rowMasks[r], llvm::Constant::getNullValue(rowTy)));
    }
    while (parts.size() > 1) {  // concatenate pairwise: rows in order, row-major
      std::vector<llvm::Value*> joined;
      for (size_t i = 0; i < parts.size(); i += 2) {
        const uint32_t n = llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements();
        std::vector<int> both;
        for (uint32_t e = 0; e < 2 * n; ++e) both.push_back(int(e));
        joined.push_back(B.CreateShuffleVector(parts[i], parts[i + 1], both));
      }
      parts = std::move(joined);
    }
    if (rowMajor) return parts[0];
    std::vector<int> toLanes(w);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t p = 0; p < perRow; ++p) toLanes[laneAt(r, p)] = int(r * perRow + p);
    return B.CreateShuffleVector(parts[0], toLanes);
  };

  for (uint32_t loc = 0; loc < abi::kMaxColorAttachments; ++loc) {
    if (!(candidates >> loc & 1)) continue;
    const size_t target = offsetof(abi::FragmentBatch, direct) + loc * sizeof(abi::FragmentBatch::DirectColor);
    llvm::Value* row = batchField(target + offsetof(abi::FragmentBatch::DirectColor, row), B.getPtrTy());
    llvm::Value* words[4];
    for (int c = 0; c < 4; ++c) words[c] = outputLeafWords(outputLeaves_[size_t(leaves[loc][c])]);
    auto* direct = llvm::BasicBlock::Create(ctx, "direct_color", fn);
    auto* toWords = llvm::BasicBlock::Create(ctx, "color_words", fn);
    auto* next = llvm::BasicBlock::Create(ctx, "color_done", fn);
    B.CreateCondBr(B.CreateIsNotNull(row), direct, toWords);

    // No attachment named: the words, as for any output.
    B.SetInsertPoint(toWords);
    llvm::Value* outputs = batchField(offsetof(abi::FragmentBatch, outputs), B.getPtrTy());
    for (uint32_t c = 0; c < 4; ++c)
      B.CreateAlignedStore(words[c], B.CreateConstGEP1_32(i32, outputs, (loc * 4 + c) * w), llvm::Align(4));
    B.CreateBr(next);

    B.SetInsertPoint(direct);
    llvm::Value* zeroF = llvm::Constant::getNullValue(vf);
    llvm::Value* oneF = llvm::ConstantFP::get(vf, 1.0);
    llvm::Value* round = llvm::ConstantFP::get(vd, 4503599627370496.0);  // 2^52
    llvm::Value* pitch = batchField(target + offsetof(abi::FragmentBatch::DirectColor, pitch), B.getInt64Ty());
    llvm::Value* keep = batchField(target + offsetof(abi::FragmentBatch::DirectColor, keep), i32);
    llvm::Value* shifts[4];
    for (uint32_t c = 0; c < 4; ++c)
      shifts[c] = batchField(target + offsetof(abi::FragmentBatch::DirectColor, shift) + 4 * c, i32);
    llvm::Value* results[4];
    for (uint32_t c = 0; c < 4; ++c) results[c] = B.CreateBitCast(words[c], vf);
    // With AVX-512 VBMI (W = 16, one sample) the texels move between the attachment's row-major
    // pixels and the lanes' block order by byte permutes (VPERMB, one micro-operation): one per
    // component reads it out of the loaded rows into its lanes, zero-extended, and one puts the
    // encoded components (combined by constant shifts) into the format's order and row order,
    // so the rows store without a shuffle. The lane-order path reads a component with a shift
    // by a register (two micro-operations) and a mask after a lane shuffle, and writes with
    // shifts by registers and 5 shuffles: about 18 more of a blending kernel's 95.
    // (VPERMT2B, two-source, costs three micro-operations here: measured no faster.)
    const bool bytePermutes = !fourSamples && w == 16 && hostCpu().avx512 && hostCpu().avx512vbmi;
    llvm::Value* permutes = nullptr;  // this draw's format's entries of unorm8BytePermutes
    if (bytePermutes) {
      // The two formats the draw loop hands the kernel (raster's Unorm8Target): R at bit 0 or
      // (B8G8R8A8) at bit 16.
      llvm::Value* table = unorm8BytePermutes();
      permutes = B.CreateSelect(B.CreateICmpNE(shifts[0], B.getInt32(0)),
                                B.CreateConstGEP1_32(B.getInt8Ty(), table, kPermuteEntries * 64), table);
    }
    llvm::Type* v64i8 = llvm::FixedVectorType::get(B.getInt8Ty(), 64);
    auto permuteEntry = [&](uint32_t e) {
      return B.CreateAlignedLoad(v64i8, B.CreateConstGEP1_32(B.getInt8Ty(), permutes, e * 64), llvm::Align(64));
    };
    // Byte i of the result: byte index[i] % 64 of `bytes` (VPERMB).
    auto permuteBytes = [&](llvm::Value* bytes, llvm::Value* index) {
      return B.CreateIntrinsic(llvm::Intrinsic::x86_avx512_permvar_qi_512, {}, {B.CreateBitCast(bytes, v64i8), index});
    };
    // "Blending" (8-bit fixed point, unorm8_blend.h): the attachment's texels in lane order.
    const uint32_t blendPlan = interface_.colorBlend[loc];
    llvm::Value* bgra = B.CreateICmpNE(shifts[0], B.getInt32(0));  // R at bit 16: B8G8R8A8
    llvm::Value* k[4] = {};
    if (blendPlan)
      for (uint32_t c = 0; c < 4; ++c)
        k[c] = batchField(target + offsetof(abi::FragmentBatch::DirectColor, constants) + 4 * c, B.getFloatTy());
    // round-half-even(f x 255) for f in [0, 1], as the codec computes it: in double, f x 255
    // exact, rounded by adding and subtracting 2^52. At W >= 8 (hosts with fused multiply-add)
    // in float at full width instead: p = f 255 rounded, e = f 255 - p exactly (an FMA), r =
    // roundeven(p); p and the exact product round to the same integer unless p lies halfway
    // between two, where e's sign decides (the same integer for every float in [0, 1]: checked
    // exhaustively when this was written).
    auto times255Rounded = [&](llvm::Value* f) -> llvm::Value* {
      if (w < 8) {
        llvm::Value* d = B.CreateFPExt(f, vd);
        return B.CreateFSub(B.CreateFAdd(B.CreateFMul(d, llvm::ConstantFP::get(vd, 255.0)), round), round);
      }
      llvm::Value* k255 = llvm::ConstantFP::get(vf, 255.0);
      llvm::Value* p = B.CreateFMul(f, k255);
      llvm::Value* e = B.CreateIntrinsic(llvm::Intrinsic::fma, {vf}, {f, k255, B.CreateFNeg(p)});
      llvm::Value* r = B.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, p);
      llvm::Value* d = B.CreateFSub(p, r);
      llvm::Value* zero = llvm::Constant::getNullValue(vf), *one = llvm::ConstantFP::get(vf, 1.0);
      llvm::Value* up = B.CreateAnd(B.CreateFCmpOEQ(d, llvm::ConstantFP::get(vf, 0.5)), B.CreateFCmpOGT(e, zero));
      llvm::Value* down = B.CreateAnd(B.CreateFCmpOEQ(d, llvm::ConstantFP::get(vf, -0.5)), B.CreateFCmpOLT(e, zero));
      r = B.CreateFAdd(r, B.CreateSelect(up, one, zero));
      return B.CreateFSub(r, B.CreateSelect(down, one, zero));
    };
    // With AVX-512 (W = 16 on such a host) the same integer in two instructions, by AVX-512's
    // per-instruction rounding: n = floor(rd(f 255 + 0.5)), the fused multiply-add rounded
    // down ({rd-sae}) and converted rounding down. Every integer up to 256 is a float, so
    // rounding down never crosses one: n = floor(f 255 + 0.5) exactly, and that is
    // round-half-even(f 255) because f 255 is never halfway (f = (2k + 1) / 510 is not a
    // binary fraction). Checked against the codec around every halfway point by
    // GraphicsStages.FragmentKernelWritesUnorm8AttachmentsItself.
    const bool embeddedRounding = w == 16 && hostCpu().avx512;
    // Elsewhere at W >= 8 on AVX2 hosts, the same integer from the float's bits, exactly: f = M
    // 2^(e - 150) (M the 24-bit significand with its leading 1, e the biased exponent), so
    // f 255 = t 2^-s with t = 255 M < 2^32 and s = 150 - e >= 23, and round-half-even(f 255) =
    // floor(f 255 + 1/2) (never halfway, above) = (floor(t / 2^(s - 1)) + 1) / 2, floored; a
    // shift by 32 or more gives 0, which is right for every f < 2^-9 (zero and
    // denormals included). Nine integer operations where the float way takes fifteen on the two
    // FMA ports (checked for every float in [0, 1] against the double arithmetic when written;
    // GraphicsStages.FragmentKernelWritesUnorm8AttachmentsItself's halfway inputs test it here).
    const bool integerRounding = !embeddedRounding && w >= 8 && hostCpu().avx2;
    auto times255RoundedBits = [&](llvm::Value* f) -> llvm::Value* {
      llvm::Value* bits = B.CreateBitCast(f, vi);
      llvm::Value* m = B.CreateOr(B.CreateAnd(bits, constInt(vi, 0x7FFFFF)), constInt(vi, 0x800000));
      llvm::Value* t = B.CreateSub(B.CreateShl(m, constInt(vi, 8)), m);
      llvm::Value* shift = B.CreateSub(constInt(vi, 149), B.CreateLShr(bits, constInt(vi, 23)));
      // A shift of 32 or more is poison in IR, so it is selected away, except at W = 8, where
      // VPSRLVD itself gives the 0 (LLVM 19 keeps the select as three more instructions).
      llvm::Value* q = w == 8 ? B.CreateIntrinsic(llvm::Intrinsic::x86_avx2_psrlv_d_256, {}, {t, shift})
                              : B.CreateSelect(B.CreateICmpULT(shift, constInt(vi, 32)), B.CreateLShr(t, shift),
                                               llvm::Constant::getNullValue(vi));
      return B.CreateLShr(B.CreateAdd(q, constInt(vi, 1)), constInt(vi, 1));
    };
    auto times255RoundedInt = [&](llvm::Value* f) -> llvm::Value* {
      if (integerRounding) return times255RoundedBits(f);
      if (!embeddedRounding) return B.CreateFPToSI(times255Rounded(f), vi);
      constexpr uint32_t kRoundDownNoExceptions = 0x9;  // _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC
      llvm::Value* x = B.CreateIntrinsic(llvm::Intrinsic::x86_avx512_vfmadd_ps_512, {},
                                         {f, llvm::ConstantFP::get(vf, 255.0), llvm::ConstantFP::get(vf, 0.5),
                                          B.getInt32(kRoundDownNoExceptions)});
      return B.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_cvtps2dq_512, {},
                               {x, llvm::Constant::getNullValue(vi), B.getInt16(0xFFFF), B.getInt32(kRoundDownNoExceptions)});
    };
    // Component c's byte (0 .. 255 in a 32-bit lane).
    auto encodeComponent = [&](llvm::Value* f) {
      f = B.CreateSelect(B.CreateFCmpOGT(f, zeroF), f, zeroF);  // NaN fails the comparison: 0
      f = B.CreateSelect(B.CreateFCmpOLT(f, oneF), f, oneF);
      return times255RoundedInt(f);
    };
    auto encode = [&](llvm::Value* const (&colour)[4]) {
      llvm::Value* texel = llvm::Constant::getNullValue(vi);
      for (uint32_t c = 0; c < 4; ++c) texel = B.CreateOr(texel, B.CreateShl(encodeComponent(colour[c]), splat(shifts[c])));
      return texel;
    };
    if (fourSamples) {
      // 4 samples per pixel: pixel x of a row is 4 consecutive texels, so a pixel row of the
      // block is 4 * perRow words. The block's 4 * W sample texels go as 4 chunks of W words
      // (W / 4 pixels each, row-major); element e of a chunk is sample e % 4 of its pixel
      // e / 4, which takes the colour of that pixel's lane. Lane l's colour goes to the samples
      // of directSamples[l] if l is alive; blending reads and blends each sample on its own.
      llvm::Value* samplesAt = batchField(offsetof(abi::FragmentBatch, directSamples), B.getPtrTy());
      std::vector<llvm::Constant*> laneIds, sampleBit;
      for (uint32_t l = 0; l < w; ++l) laneIds.push_back(B.getInt32(l)), sampleBit.push_back(B.getInt32(1u << (l % 4)));
      llvm::Value* laneAlive = B.CreateICmpNE(B.CreateAnd(B.CreateLShr(splat(aliveBits), llvm::ConstantVector::get(laneIds)),
                                                          constInt(vi, 1)),
                                              llvm::Constant::getNullValue(vi));
      llvm::Value* laneSamples = B.CreateSelect(laneAlive, B.CreateAlignedLoad(vi, samplesAt, llvm::Align(4)),
                                                llvm::Constant::getNullValue(vi));
      const uint32_t plan = blendPlan;
      // Without blending every sample of a lane gets the lane's texel: encode once.
      llvm::Value* laneTexels = plan ? nullptr : encode(results);
      llvm::Value* keepSplat = splat(keep);
      llvm::Value* writeBits = B.CreateNot(keepSplat);
      const uint32_t pixelsPerChunk = w / 4;
      for (uint32_t chunk = 0; chunk < 4; ++chunk) {
        const uint32_t firstPixel = chunk * pixelsPerChunk;  // row-major in the block's pixels
        std::vector<int> lanesOf(w);
        for (uint32_t e = 0; e < w; ++e) {
          const uint32_t pixel = firstPixel + e / 4;
          lanesOf[e] = int(laneAt(pixel / perRow, pixel % perRow));
        }
        llvm::Value* at = B.CreateGEP(
            B.getInt8Ty(), row,
            B.CreateAdd(B.CreateMul(pitch, B.getInt64(firstPixel / perRow)), B.getInt64((firstPixel % perRow) * 16)));
        llvm::Value* mask = B.CreateICmpNE(
            B.CreateAnd(B.CreateShuffleVector(laneSamples, lanesOf), llvm::ConstantVector::get(sampleBit)),
            llvm::Constant::getNullValue(vi));
        llvm::Value* texels;
        llvm::Value* current = nullptr;
        if (plan) {
          current = B.CreateMaskedLoad(vi, at, llvm::Align(4), mask, llvm::Constant::getNullValue(vi));
          llvm::Value* colour[4];
          for (uint32_t c = 0; c < 4; ++c) colour[c] = B.CreateShuffleVector(results[c], lanesOf);
          texels = emitUnorm8Blend(B, plan, colour, current, bgra, k);
        } else {
          texels = B.CreateShuffleVector(laneTexels, lanesOf);
        }
        // The write mask's components keep the sample's bits (read only when some are kept).
        auto* merge = llvm::BasicBlock::Create(ctx, "direct4_merge", fn);
        auto* store = llvm::BasicBlock::Create(ctx, "direct4_store", fn);
        llvm::BasicBlock* from = B.GetInsertBlock();
        B.CreateCondBr(B.CreateICmpEQ(keep, B.getInt32(0)), store, merge);
        B.SetInsertPoint(merge);
        llvm::Value* old = current ? current : B.CreateMaskedLoad(vi, at, llvm::Align(4), mask, llvm::Constant::getNullValue(vi));
        llvm::Value* merged = B.CreateOr(B.CreateAnd(texels, writeBits), B.CreateAnd(old, keepSplat));
        B.CreateBr(store);
        B.SetInsertPoint(store);
        llvm::PHINode* out = B.CreatePHI(vi, 2);
        out->addIncoming(texels, from);
        out->addIncoming(merged, merge);
        B.CreateMaskedStore(out, at, llvm::Align(4), mask);
      }
      B.CreateBr(next);
      B.SetInsertPoint(next);
      continue;
    }
    // The texels in lane order, or (bytePermutes) in row-major pixel order: component c at
    // byte c of its lane, then each pixel's bytes taken from its lane in the format's order.
    llvm::Value* texel;
    const bool rowOrder = bytePermutes && !blendPlan;  // blended texels are in lane order
    if (blendPlan) {
      texel = emitUnorm8Blend(B, blendPlan, results, loadBlockTexels(row, pitch, /*rowMajor=*/false), bgra, k);
    } else if (bytePermutes) {
      llvm::Value* lanes = llvm::Constant::getNullValue(vi);
      for (uint32_t c = 0; c < 4; ++c) lanes = B.CreateOr(lanes, B.CreateShl(encodeComponent(results[c]), constInt(vi, 8 * c)));
      texel = B.CreateBitCast(permuteBytes(lanes, permuteEntry(4)), vi);
    } else {
      texel = encode(results);
    }
    llvm::Type* rowTy = llvm::FixedVectorType::get(i32, perRow);
    llvm::Value* keepRow = B.CreateVectorSplat(perRow, keep);
    llvm::Value* writeRow = B.CreateNot(keepRow);
    // Two versions of the stores: with every component written the attachment is never read
    // (a read would wait for the line to arrive; a store need not), else its kept bits merged.
    auto* whole = llvm::BasicBlock::Create(ctx, "direct_whole", fn);
    auto* merge = llvm::BasicBlock::Create(ctx, "direct_merge", fn);
    B.CreateCondBr(B.CreateICmpEQ(keep, B.getInt32(0)), whole, merge);
    for (int merging = 0; merging < 2; ++merging) {
      B.SetInsertPoint(merging ? merge : whole);
      for (uint32_t r = 0; r < rows; ++r) {
        std::vector<int> pick;
        for (uint32_t p = 0; p < perRow; ++p) pick.push_back(int(rowOrder ? r * perRow + p : laneAt(r, p)));
        llvm::Value* rowTexels = B.CreateShuffleVector(texel, pick);
        llvm::Value* at = B.CreateGEP(B.getInt8Ty(), row, B.CreateMul(pitch, B.getInt64(r)));
        if (merging) {
          llvm::Value* old = B.CreateMaskedLoad(rowTy, at, llvm::Align(4), rowMasks[r], llvm::Constant::getNullValue(rowTy));
          rowTexels = B.CreateOr(B.CreateAnd(rowTexels, writeRow), B.CreateAnd(old, keepRow));
        }
        B.CreateMaskedStore(rowTexels, at, llvm::Align(4), rowMasks[r]);
      }
      B.CreateBr(next);
    }
    B.SetInsertPoint(next);
  }
}

}  // namespace tessera::jit
