// Image instructions on storage images, texel buffers and sampled images: each active lane
// calls a runtime helper (runtime_image.cpp) with the descriptor's address and its
// coordinates; helpers decode/encode through the sampler module's texel codec and
// bounds-check every access. When the descriptor and coordinates are uniform, one call serves
// the batch; R32 and 8-bit RGBA views are read inline, and R32 storage images written inline
// (plainWordsOr). Sampling with
// uniform descriptors calls the runtime once per batch with every
// lane's operands (runtime_sample.cpp), which picks a batched routine of the sampler module.
// An image value is the i64 address of its descriptor (scalar, or per lane for non-uniformly
// indexed arrays); a sampled image is two leaves: image descriptor, sampler descriptor.
#include <llvm/IR/Intrinsics.h>
#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <functional>
#include <optional>

#include "inline_sample.h"
#include "lane_affine.h"
#include "sample_words.h"
#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

// VolatileTexel: every such access must happen as written (a loop polling a texel another
// invocation writes); the inline path's gathers could be hoisted or merged by the optimizer,
// the helpers' calls cannot, so volatile accesses keep the helpers.
constexpr uint32_t kVolatileTexel = 0x800;

struct ImageOperands {
  uint32_t mask = 0;
  uint32_t lod = 0, sample = 0, offset = 0;
};

ImageOperands parseOperands(const Instruction& inst, uint32_t at) {
  ImageOperands r;
  if (at >= inst.operandCount) return r;
  r.mask = inst.operand(at);
  uint32_t next = at + 1;
  auto take = [&](uint32_t bit, uint32_t count, uint32_t* dst) {
    if (!(r.mask & bit)) return;
    if (dst) *dst = inst.operand(next);
    next += count;
  };
  take(0x1, 1, nullptr);        // Bias
  take(0x2, 1, &r.lod);         // Lod
  take(0x4, 2, nullptr);        // Grad
  take(0x8, 1, &r.offset);      // ConstOffset
  take(0x10, 1, &r.offset);     // Offset
  take(0x20, 1, nullptr);       // ConstOffsets
  take(0x40, 1, &r.sample);     // Sample
  return r;
}

struct Images {
  Translator& t;
  const Instruction& inst;
  llvm::IRBuilder<>& B;

  const Type* imageType(uint32_t id) {
    const Type* ty = t.spirv().type(t.spirv().resultTypeOf(id));
    if (ty && ty->kind == TypeKind::SampledImage) ty = t.spirv().type(ty->element);
    return ty;
  }

  // Calls `fn` per active lane (or once when every argument is uniform) with i64 descriptor,
  // i32 arguments, and a pointer to 4 (or 5) result words; returns the words per component.
  // Writes (no output) in fragment shaders run lane by lane over the lanes that may write, so
  // that helper invocations store nothing.
  std::vector<llvm::Value*> call(llvm::FunctionCallee fn, llvm::Value* desc, std::vector<llvm::Value*> ints,
                                 llvm::Value* inWords, bool hasOutput, uint32_t outCount = 4) {
    const bool helperWrites = !hasOutput && t.stage() == Translator::Stage::Fragment;
    bool varying = desc->getType()->isVectorTy() || helperWrites;
    for (llvm::Value* v : ints) varying |= v->getType()->isVectorTy();
    if (inWords) varying |= llvm::cast<llvm::ArrayType>(inWords->getType())->getElementType()->isVectorTy();
    llvm::Type* wordsTy = llvm::ArrayType::get(B.getInt32Ty(), 5);
    llvm::AllocaInst* out = t.entryAlloca(wordsTy, 16);
    llvm::AllocaInst* in = inWords ? t.entryAlloca(wordsTy, 16) : nullptr;
    auto emit = [&](llvm::Value* lane) {
      std::vector<llvm::Value*> args{B.CreateIntToPtr(lane ? t.extractLane(desc, lane) : desc, B.getPtrTy())};
      for (llvm::Value* v : ints) args.push_back(lane ? t.extractLane(v, lane) : v);
      if (in) {
        // inWords: array of 4 leaves, each scalar or vector
        for (uint32_t c = 0; c < 4; ++c) {
          llvm::Value* w = B.CreateExtractValue(inWords, {c});
          B.CreateStore(lane ? t.extractLane(w, lane) : w, B.CreateConstGEP2_32(wordsTy, in, 0, c));
        }
        args.push_back(in);
      }
      if (hasOutput) args.push_back(out);
      return B.CreateCall(fn, args);
    };
    std::vector<llvm::Value*> words;
    if (!varying) {
      emit(nullptr);
      if (hasOutput)
        for (uint32_t c = 0; c < outCount; ++c) words.push_back(B.CreateLoad(B.getInt32Ty(), B.CreateConstGEP2_32(wordsTy, out, 0, c)));
      return words;
    }
    llvm::Type* vt = t.laneType(B.getInt32Ty());
    llvm::AllocaInst* acc = hasOutput ? t.entryAlloca(llvm::ArrayType::get(vt, outCount), 64) : nullptr;
    if (acc) B.CreateStore(llvm::Constant::getNullValue(acc->getAllocatedType()), acc);
    t.forEachActiveLane(helperWrites ? t.sideEffectMask() : t.mask(), [&](llvm::Value* lane) {
      emit(lane);
      if (!acc) return;
      for (uint32_t c = 0; c < outCount; ++c) {
        llvm::Value* slot = B.CreateConstGEP2_32(acc->getAllocatedType(), acc, 0, c);
        llvm::Value* w = B.CreateLoad(B.getInt32Ty(), B.CreateConstGEP2_32(wordsTy, out, 0, c));
        B.CreateStore(B.CreateInsertElement(B.CreateLoad(vt, slot), w, lane), slot);
      }
    });
    if (acc)
      for (uint32_t c = 0; c < outCount; ++c) words.push_back(B.CreateLoad(vt, B.CreateConstGEP2_32(acc->getAllocatedType(), acc, 0, c)));
    return words;
  }

  // What the inline storage-image path knows about the lanes' texels (plainWordsOr).
  struct PlainWords {
    llvm::Value* address;  // <W x i64>: each lane's word, 0 where the lane is out of range
    llvm::Value* inRange;  // <W x i1>
    llvm::Value* isFloat;  // i1: R32_SFLOAT (alpha of a replaced texel is 1.0f, else 1)
    llvm::Value* format;   // i32: the view's VkFormat (an R32 one, or with bytes4 an 8-bit RGBA one)
    llvm::Value* base;     // i64: the level's texel (0, 0), readable: where lanes not read load from
    // Where the IR shows lane i's x to be lane 0's + i and y the same in every lane (a row of a
    // compute grid, say): i1, true when that pattern holds, and the i64 address of lane 0's
    // texel (in range or not), from which lane i's lies 4 i bytes on. Null otherwise.
    llvm::Value* row = nullptr;
    llvm::Value* rowStart = nullptr;
  };

  // The views plainWordsOr takes besides R32 ones: none, 8-bit RGBA/BGRA UNORM and sRGB (reads),
  // or UNORM only (writes: the kernel encodes no sRGB, and no storage view has an sRGB format).
  enum class Bytes4 { None, UnormAndSrgb, Unorm };

  // Whether an access can take plainWordsOr: a uniform descriptor of a 2D, single-sampled,
  // non-arrayed image type, coordinates that differ per lane (a uniform access is one call
  // already), no level or sample other than 0.
  // A module that decorates an image variable Volatile (GLSL `volatile` without the Vulkan memory
  // model) keeps the helpers for all its image accesses: the loaded image value no longer names
  // its variable, and such modules are rare enough not to need the inline path.
  bool hasVolatileImageVariable() {
    for (const GlobalVariable& g : t.spirv().globals()) {
      if (g.storage != spv::StorageClass::UniformConstant || !t.spirv().decorations(g.id).volatile_) continue;
      return true;
    }
    return false;
  }

  bool plainWordsApply(const Type* it, llvm::Value* desc, const std::vector<llvm::Value*>& xyz, llvm::Value* sample) {
    if (!it || it->image.dim != spv::Dim::Dim2D || it->image.arrayed || it->image.multisampled) return false;
    if (hasVolatileImageVariable()) return false;
    if (desc->getType()->isVectorTy()) return false;
    if (!xyz[0]->getType()->isVectorTy() && !xyz[1]->getType()->isVectorTy()) return false;
    if (sample) {
      auto* c = llvm::dyn_cast<llvm::ConstantInt>(sample);
      if (!c || !c->isZero()) return false;
    }
    return true;
  }

  // Image accesses without a call per lane: when the descriptor's view is one that
  // runtime_image.cpp's isPlainWordView accepts (R32_UINT, R32_SINT or R32_SFLOAT, colour
  // aspect, identity swizzle) or, with `bytes4`, one that its bytes4Table accepts (8-bit RGBA or
  // BGRA, UNORM or, for reads, sRGB, identity swizzle), of type 2D with one sample, the lanes' addresses in
  // level `lod` (a uniform i32; null: level 0) are computed here (bounds-checked as texelAddress
  // does: lod < levelCount, x < width, y < height, unsigned) and `fast` accesses the words; any
  // other view, or a level out of range, takes `slow`, the per-lane helpers. Returns the values
  // both produce, joined. The words are read and written whole (one aligned 32-bit access a
  // lane), as the helpers' relaxed atomics do; other invocations see an old or a new word, never
  // a torn one. (The memory model's ordering comes from the barriers and atomics around the
  // access, as for storage buffers' gathers.)
  std::vector<llvm::Value*> plainWordsOr(llvm::Value* desc, llvm::Value* x, llvm::Value* y,
                                         const std::function<std::vector<llvm::Value*>(const PlainWords&)>& fast,
                                         const std::function<std::vector<llvm::Value*>()>& slow,
                                         llvm::Value* lod = nullptr, Bytes4 bytes4 = Bytes4::None) {
    using abi::ImageDescriptor;
    using abi::ImageLevel;
    using abi::ImageViewState;
    llvm::LLVMContext& ctx = B.getContext();
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    llvm::BasicBlock* readView = llvm::BasicBlock::Create(ctx, "plainword.view", fn);
    llvm::BasicBlock* fastBlock = llvm::BasicBlock::Create(ctx, "plainword.fast", fn);
    llvm::BasicBlock* slowBlock = llvm::BasicBlock::Create(ctx, "plainword.slow", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "plainword.join", fn);
    llvm::Type* i32t = B.getInt32Ty();
    llvm::Type* i64t = B.getInt64Ty();
    llvm::Type* ptr = B.getPtrTy();
    llvm::Type* i8 = B.getInt8Ty();
    B.CreateCondBr(B.CreateICmpNE(desc, llvm::ConstantInt::get(desc->getType(), 0)), readView, slowBlock);

    B.SetInsertPoint(readView);
    llvm::Value* descPtr = B.CreateIntToPtr(desc, ptr);
    llvm::Value* view = B.CreateAlignedLoad(ptr, B.CreateConstGEP1_32(i8, descPtr, offsetof(ImageDescriptor, view)), llvm::Align(8));
    llvm::Value* viewOk = B.CreateICmpNE(view, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptr)));
    auto word = [&](size_t offset) {
      // Loaded only where the view pointer is not null: a select keeps the null case reading
      // nothing (the address is the descriptor's own, which is always readable).
      llvm::Value* at = B.CreateSelect(viewOk, B.CreateConstGEP1_32(i8, view, uint32_t(offset)), descPtr);
      return B.CreateAlignedLoad(i32t, at, llvm::Align(4));
    };
    llvm::Value* format = word(offsetof(ImageViewState, format));
    llvm::Value* ok = viewOk;
    llvm::Value* formatOk = B.CreateICmpULT(B.CreateSub(format, B.getInt32(VK_FORMAT_R32_UINT)), B.getInt32(3));
    std::vector<VkFormat> bytes4Formats;
    if (bytes4 != Bytes4::None) bytes4Formats = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM};
    if (bytes4 == Bytes4::UnormAndSrgb) bytes4Formats.insert(bytes4Formats.end(), {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB});
    for (VkFormat f : bytes4Formats) formatOk = B.CreateOr(formatOk, B.CreateICmpEQ(format, B.getInt32(f)));
    ok = B.CreateAnd(ok, formatOk);
    ok = B.CreateAnd(ok, B.CreateICmpEQ(word(offsetof(ImageViewState, aspect)), B.getInt32(VK_IMAGE_ASPECT_COLOR_BIT)));
    ok = B.CreateAnd(ok, B.CreateICmpEQ(word(offsetof(ImageViewState, viewType)), B.getInt32(VK_IMAGE_VIEW_TYPE_2D)));
    ok = B.CreateAnd(ok, B.CreateICmpEQ(word(offsetof(ImageViewState, samples)), B.getInt32(1)));
    llvm::Value* levelCount = word(offsetof(ImageViewState, levelCount));
    if (!lod) lod = B.getInt32(0);
    llvm::Value* levelOk = B.CreateICmpULT(lod, levelCount);
    ok = B.CreateAnd(ok, levelOk);
    for (uint32_t c = 0; c < 4; ++c)
      ok = B.CreateAnd(ok, B.CreateICmpEQ(word(offsetof(ImageViewState, swizzle) + 4 * c),
                                          B.getInt32(VK_COMPONENT_SWIZZLE_R + c)));
    // The level's fields, read from levels[lod] (levels[0] when lod is out of range, which takes
    // `slow`), or from the descriptor itself when there is no view: the fields read lie within
    // its 32 bytes, so nothing is read out of bounds either way.
    static_assert(offsetof(ImageLevel, rowPitch) + 8 <= sizeof(ImageDescriptor));
    llvm::Value* levelIndex = B.CreateZExt(B.CreateSelect(levelOk, lod, B.getInt32(0)), i64t);
    llvm::Value* levelOffset = B.CreateAdd(B.CreateMul(levelIndex, B.getInt64(sizeof(ImageLevel))),
                                           B.getInt64(offsetof(ImageViewState, levels)));
    llvm::Value* levelAt = B.CreateSelect(viewOk, B.CreateGEP(i8, view, levelOffset), descPtr);
    auto levelField = [&](llvm::Type* type, size_t offset) {
      return B.CreateAlignedLoad(type, B.CreateConstGEP1_32(i8, levelAt, uint32_t(offset)), llvm::Align(type == i32t ? 4 : 8));
    };
    llvm::Value* base = B.CreatePtrToInt(levelField(ptr, offsetof(ImageLevel, base)), i64t);
    ok = B.CreateAnd(ok, B.CreateICmpNE(base, llvm::ConstantInt::get(i64t, 0)));
    llvm::Value* width = levelField(i32t, offsetof(ImageLevel, width));
    llvm::Value* height = levelField(i32t, offsetof(ImageLevel, height));
    llvm::Value* rowPitch = levelField(i64t, offsetof(ImageLevel, rowPitch));
    B.CreateCondBr(ok, fastBlock, slowBlock);

    B.SetInsertPoint(fastBlock);
    llvm::Value* xs = t.splat(x);
    llvm::Value* ys = t.splat(y);
    llvm::Value* inRange = B.CreateAnd(B.CreateICmpULT(xs, t.splat(width)), B.CreateICmpULT(ys, t.splat(height)));
    llvm::Type* v64 = t.laneType(i64t);
    llvm::Value* offset = B.CreateAdd(B.CreateMul(B.CreateZExt(ys, v64), t.splat(rowPitch)),
                                      B.CreateShl(B.CreateZExt(xs, v64), t.constInt(v64, 2)));
    llvm::Value* address = B.CreateSelect(inRange, B.CreateAdd(t.splat(base), offset), llvm::Constant::getNullValue(v64));
    PlainWords words{address, inRange, B.CreateICmpEQ(format, B.getInt32(VK_FORMAT_R32_SFLOAT)), format, base};
    const std::optional<LanePattern> px = lanePattern(B, xs, t.width()), py = lanePattern(B, ys, t.width());
    if (px && py && px->stride() == 1 && py->minOffset() == 0 && py->maxOffset() == 0) {
      llvm::Value* holds = B.getTrue();
      for (llvm::Value* c : px->conditions) holds = B.CreateAnd(holds, c);
      for (llvm::Value* c : py->conditions) holds = B.CreateAnd(holds, c);
      // Lane 0's x sign-extended: lane i's texel is then 4 i bytes on even where lane 0 lies
      // left of the image (and reads nothing).
      llvm::Value* x0 = B.CreateSExt(B.CreateExtractElement(xs, uint64_t(0)), i64t);
      llvm::Value* y0 = B.CreateZExt(B.CreateExtractElement(ys, uint64_t(0)), i64t);
      words.row = holds;
      words.rowStart = B.CreateAdd(base, B.CreateAdd(B.CreateMul(y0, rowPitch), B.CreateShl(x0, 2)));
    }
    std::vector<llvm::Value*> fastValues = fast(words);
    llvm::BasicBlock* fastEnd = B.GetInsertBlock();
    B.CreateBr(join);

    B.SetInsertPoint(slowBlock);
    std::vector<llvm::Value*> slowValues = slow();
    llvm::BasicBlock* slowEnd = B.GetInsertBlock();
    B.CreateBr(join);

    B.SetInsertPoint(join);
    std::vector<llvm::Value*> joined;
    for (size_t i = 0; i < fastValues.size() && i < slowValues.size(); ++i) {
      llvm::PHINode* phi = B.CreatePHI(fastValues[i]->getType(), 2);
      phi->addIncoming(fastValues[i], fastEnd);
      phi->addIncoming(slowValues[i], slowEnd);
      joined.push_back(phi);
    }
    return joined;
  }

  // The texels of plainWordsOr's lanes as the helper tessera_rt_image_read decodes them: an R32
  // view's word as (word, 0, 0, 1); an 8-bit RGBA/BGRA view's bytes through the codec's own
  // UNORM8 or sRGB8 tables (alpha UNORM either way), so the values are the codec's bit for bit.
  // Out-of-range lanes read the word 0 and come out as "Texel Replacement" makes them under
  // robustImageAccess2, as the helper does: (0, 0, 0, 1) for R32 views, which lack alpha, and
  // (0, 0, 0, 0) for the 8-bit views, whose table entry 0 is 0.0.
  std::vector<llvm::Value*> plainTexels(const PlainWords& w) {
    llvm::LLVMContext& ctx = B.getContext();
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    llvm::Type* v32 = t.laneType(B.getInt32Ty());
    llvm::Type* vf = t.laneType(B.getFloatTy());
    if (t.stage() == Translator::Stage::Fragment) prefetchAhead(w);
    llvm::Value* read = readPlainWords(w, B.CreateAnd(t.splat(t.mask()), w.inRange));
    llvm::BasicBlock* wordsBlock = llvm::BasicBlock::Create(ctx, "plaintexel.words", fn);
    llvm::BasicBlock* bytesBlock = llvm::BasicBlock::Create(ctx, "plaintexel.bytes", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "plaintexel.join", fn);
    llvm::Value* isWord = B.CreateICmpULT(B.CreateSub(w.format, B.getInt32(VK_FORMAT_R32_UINT)), B.getInt32(3));
    B.CreateCondBr(isWord, wordsBlock, bytesBlock);

    B.SetInsertPoint(wordsBlock);
    llvm::Value* one = B.CreateSelect(w.isFloat, B.getInt32(0x3F800000u), B.getInt32(1));
    llvm::Value* zero = llvm::Constant::getNullValue(v32);
    std::vector<llvm::Value*> fromWord{read, zero, zero, t.splat(one)};

    B.SetInsertPoint(bytesBlock);
    auto either = [&](VkFormat a, VkFormat b) {
      return B.CreateOr(B.CreateICmpEQ(w.format, B.getInt32(a)), B.CreateICmpEQ(w.format, B.getInt32(b)));
    };
    llvm::Value* bgra = either(VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_B8G8R8A8_SRGB);
    llvm::Value* redShift = B.CreateSelect(bgra, B.getInt32(16), B.getInt32(0));
    llvm::Value* blueShift = B.CreateSelect(bgra, B.getInt32(0), B.getInt32(16));
    auto byteAt = [&](llvm::Value* shift) { return B.CreateAnd(B.CreateLShr(read, t.splat(shift)), t.splat(B.getInt32(0xFF))); };
    llvm::Value* bytes[4] = {byteAt(redShift), byteAt(B.getInt32(8)), byteAt(blueShift), B.CreateLShr(read, t.splat(B.getInt32(24)))};
    // UNORM: c / 255 correctly rounded as fma(c, h, c l) with h = float(1/255) and l = float(1/255 -
    // h), the codec's table value for every byte (checked exhaustively: tests/unit/jit, the
    // UNORM8 quotient test), in three vector operations instead of a 16-lane gather per component
    // (gathers are scalar loads on hosts that lack fast ones: a fifth of tex_fetch's kernel).
    const float hi = 1.0f / 255.0f;
    const float lo = float(1.0 / 255.0 - double(hi));
    auto unormOf = [&](llvm::Value* byte) {
      llvm::Value* c = B.CreateUIToFP(byte, vf);
      llvm::Value* low = B.CreateFMul(c, t.splat(llvm::ConstantFP::get(B.getFloatTy(), lo)));
      llvm::Value* v = B.CreateIntrinsic(llvm::Intrinsic::fma, {vf}, {c, t.splat(llvm::ConstantFP::get(B.getFloatTy(), hi)), low});
      return B.CreateBitCast(v, v32);
    };
    llvm::Value* alpha = unormOf(bytes[3]);
    llvm::Value* srgbFormat = either(VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB);
    llvm::BasicBlock* srgbBlock = llvm::BasicBlock::Create(ctx, "plaintexel.srgb", fn);
    llvm::BasicBlock* unormBlock = llvm::BasicBlock::Create(ctx, "plaintexel.unorm", fn);
    llvm::BasicBlock* bytesJoin = llvm::BasicBlock::Create(ctx, "plaintexel.bytesjoin", fn);
    B.CreateCondBr(srgbFormat, srgbBlock, unormBlock);

    // sRGB: the codec's own table (the transfer function has no short exact form).
    B.SetInsertPoint(srgbBlock);
    llvm::Type* tableTy = llvm::ArrayType::get(B.getFloatTy(), 256);
    llvm::Constant* srgb = t.llvmModule().getOrInsertGlobal("tessera_rt_srgb8_table", tableTy);
    auto fromTable = [&](llvm::Value* byte) {
      llvm::Value* at = B.CreateGEP(B.getFloatTy(), srgb, B.CreateZExt(byte, t.laneType(B.getInt64Ty())));
      return B.CreateBitCast(B.CreateMaskedGather(vf, at, llvm::Align(4)), v32);
    };
    llvm::Value* srgbValues[3] = {fromTable(bytes[0]), fromTable(bytes[1]), fromTable(bytes[2])};
    B.CreateBr(bytesJoin);

    B.SetInsertPoint(unormBlock);
    llvm::Value* unormValues[3] = {unormOf(bytes[0]), unormOf(bytes[1]), unormOf(bytes[2])};
    B.CreateBr(bytesJoin);

    // Component by component, the values of two predecessors of the insertion block.
    auto joinTwo = [&](llvm::Value* const* a, llvm::BasicBlock* fromA, llvm::Value* const* b, llvm::BasicBlock* fromB,
                       size_t count) {
      std::vector<llvm::Value*> joined;
      for (size_t c = 0; c < count; ++c) {
        llvm::PHINode* phi = B.CreatePHI(v32, 2);
        phi->addIncoming(a[c], fromA);
        phi->addIncoming(b[c], fromB);
        joined.push_back(phi);
      }
      return joined;
    };
    B.SetInsertPoint(bytesJoin);
    std::vector<llvm::Value*> fromBytes = joinTwo(srgbValues, srgbBlock, unormValues, unormBlock, 3);
    fromBytes.push_back(alpha);
    B.CreateBr(join);
    B.SetInsertPoint(wordsBlock);
    B.CreateBr(join);

    B.SetInsertPoint(join);
    return joinTwo(fromWord.data(), wordsBlock, fromBytes.data(), bytesJoin, 4);
  }

  // A fragment kernel's texel reads (texelFetch mostly) wait on memory: the block walker goes on
  // 4 pixels to the right, so the words 8 pixels ahead (two blocks) of four lanes spread over
  // the block's rows go into the cache now, each lane's step being its quad's x neighbour's
  // address minus its own (the inline sampling's prefetchAhead, for integer coordinates). A
  // prefetch is only a hint: out-of-range lanes (address 0) and steps that lead anywhere read
  // nothing and cannot fault.
  void prefetchAhead(const PlainWords& w) {
    const uint32_t W = t.width();
    if (W < 4) return;
    const uint32_t lanes[4] = {0, W == 16 ? 5u : W / 4, W == 16 ? 10u : W / 2, W - 1};
    for (uint32_t lane : lanes) {
      llvm::Value* at = B.CreateExtractElement(w.address, B.getInt32(lane));
      llvm::Value* left = B.CreateExtractElement(w.address, B.getInt32(lane & ~1u));
      llvm::Value* right = B.CreateExtractElement(w.address, B.getInt32(lane | 1u));
      llvm::Value* ahead = B.CreateAdd(at, B.CreateShl(B.CreateSub(right, left), B.getInt64(3)));
      B.CreateIntrinsic(llvm::Intrinsic::prefetch, {B.getPtrTy()},
                        {B.CreateIntToPtr(ahead, B.getPtrTy()), B.getInt32(0), B.getInt32(3), B.getInt32(1)});
    }
  }

  // Writes the lanes' texels to plainWordsOr's words as the helper tessera_rt_image_write
  // encodes them: an R32 view's word as it is; with `encodeBytes` (a float texel), an 8-bit RGBA
  // or BGRA UNORM view's components as the codec's floatToUnorm converts them ("Conversion From
  // Floating-Point to Normalized Fixed-Point": clamp to [0, 1], NaN to 0, times 255 exactly in
  // double, rounded to nearest even), packed into one word. One aligned word a lane, as the
  // helper stores it; only the lanes that may write (helper invocations store nothing), in range.
  void storePlainTexels(const PlainWords& w, llvm::Value* words, bool encodeBytes) {
    llvm::Value* writers = t.stage() == Translator::Stage::Fragment ? t.sideEffectMask() : t.mask();
    llvm::Value* mask = B.CreateAnd(t.splat(writers), w.inRange);
    llvm::Value* word = t.splat(B.CreateExtractValue(words, {0}));
    if (!encodeBytes) {
      writePlainWords(w, word, mask);
      return;
    }
    llvm::LLVMContext& ctx = B.getContext();
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    llvm::BasicBlock* wordsBlock = llvm::BasicBlock::Create(ctx, "plainstore.words", fn);
    llvm::BasicBlock* bytesBlock = llvm::BasicBlock::Create(ctx, "plainstore.bytes", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "plainstore.join", fn);
    B.CreateCondBr(B.CreateICmpULT(B.CreateSub(w.format, B.getInt32(VK_FORMAT_R32_UINT)), B.getInt32(3)), wordsBlock,
                   bytesBlock);
    B.SetInsertPoint(wordsBlock);
    writePlainWords(w, word, mask);
    B.CreateBr(join);

    B.SetInsertPoint(bytesBlock);
    llvm::Type* v32 = t.laneType(B.getInt32Ty());
    llvm::Type* vf = t.laneType(B.getFloatTy());
    llvm::Type* vd = t.laneType(B.getDoubleTy());
    auto unorm8 = [&](uint32_t c) {
      llvm::Value* f = B.CreateBitCast(t.splat(B.CreateExtractValue(words, {c})), vf);
      // maxnum(NaN, 0) is 0: NaN converts to 0, as in the codec.
      llvm::Value* clamped = B.CreateBinaryIntrinsic(llvm::Intrinsic::minnum,
                                                     B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, f, llvm::ConstantFP::get(vf, 0.0)),
                                                     llvm::ConstantFP::get(vf, 1.0));
      llvm::Value* scaled = B.CreateFMul(B.CreateFPExt(clamped, vd), llvm::ConstantFP::get(vd, 255.0));
      return B.CreateFPToUI(B.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, scaled), v32);
    };
    llvm::Value* bgra = B.CreateICmpEQ(w.format, B.getInt32(VK_FORMAT_B8G8R8A8_UNORM));
    llvm::Value* r = unorm8(0), *g = unorm8(1), *b = unorm8(2), *a = unorm8(3);
    llvm::Value* low = B.CreateSelect(bgra, b, r), *high = B.CreateSelect(bgra, r, b);
    llvm::Value* packed = B.CreateOr(B.CreateOr(low, B.CreateShl(g, t.constInt(v32, 8))),
                                     B.CreateOr(B.CreateShl(high, t.constInt(v32, 16)), B.CreateShl(a, t.constInt(v32, 24))));
    writePlainWords(w, packed, mask);
    B.CreateBr(join);
    B.SetInsertPoint(join);
  }

  // The words of plainWordsOr's lanes in `mask` (0 elsewhere): one masked vector load where the
  // lanes form a row (PlainWords::row), else a gather of every lane, those outside `mask`
  // reading the level's first word (PlainWords::base) and giving 0: hosts without fast gathers
  // (AMD's) get a masked gather as a test and a branch per lane, an unmasked one as plain loads.
  llvm::Value* readPlainWords(const PlainWords& w, llvm::Value* mask) {
    llvm::Type* v32 = t.laneType(B.getInt32Ty());
    llvm::Value* zero = llvm::Constant::getNullValue(v32);
    auto gather = [&] {
      llvm::Value* address = B.CreateSelect(mask, w.address, t.splat(w.base));
      llvm::Value* all = llvm::Constant::getAllOnesValue(t.laneType(B.getInt1Ty()));
      llvm::Value* words = B.CreateMaskedGather(v32, B.CreateIntToPtr(address, t.laneType(B.getPtrTy())), llvm::Align(4), all, zero);
      return B.CreateSelect(mask, words, zero);
    };
    if (!w.row) return gather();
    llvm::Value* loaded = nullptr;
    onRow(w, [&] { loaded = B.CreateMaskedLoad(v32, B.CreateIntToPtr(w.rowStart, B.getPtrTy()), llvm::Align(4), mask, zero); },
          [&] { loaded = gather(); }, &loaded);
    return loaded;
  }

  // Stores `value`'s lanes in `mask` to plainWordsOr's words: one masked vector store where the
  // lanes form a row, else a scatter (each lane's word whole either way).
  void writePlainWords(const PlainWords& w, llvm::Value* value, llvm::Value* mask) {
    auto scatter = [&] {
      B.CreateMaskedScatter(value, B.CreateIntToPtr(w.address, t.laneType(B.getPtrTy())), llvm::Align(4), mask);
    };
    if (!w.row) return scatter();
    onRow(w, [&] { B.CreateMaskedStore(value, B.CreateIntToPtr(w.rowStart, B.getPtrTy()), llvm::Align(4), mask); },
          scatter, nullptr);
  }

  // Emits `rowCase` where w.row holds and `otherCase` where not; with `value`, joins the value
  // each case left there.
  void onRow(const PlainWords& w, const std::function<void()>& rowCase, const std::function<void()>& otherCase,
             llvm::Value** value) {
    llvm::LLVMContext& ctx = B.getContext();
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    llvm::BasicBlock* rowBlock = llvm::BasicBlock::Create(ctx, "plainword.row", fn);
    llvm::BasicBlock* otherBlock = llvm::BasicBlock::Create(ctx, "plainword.lanes", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx, "plainword.rowjoin", fn);
    B.CreateCondBr(w.row, rowBlock, otherBlock);
    B.SetInsertPoint(rowBlock);
    rowCase();
    llvm::Value* rowValue = value ? *value : nullptr;
    llvm::BasicBlock* rowEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(otherBlock);
    otherCase();
    llvm::Value* otherValue = value ? *value : nullptr;
    llvm::BasicBlock* otherEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(join);
    if (!value) return;
    llvm::PHINode* phi = B.CreatePHI(rowValue->getType(), 2);
    phi->addIncoming(rowValue, rowEnd);
    phi->addIncoming(otherValue, otherEnd);
    *value = phi;
  }

  llvm::Value* i32(llvm::Value* v) {
    return B.CreateSExtOrTrunc(v, v->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty());
  }

  // x, y, z (layer or slice) from a coordinate value of 1-3 components.
  std::vector<llvm::Value*> coords(uint32_t id) {
    Val c = t.value(id);
    std::vector<llvm::Value*> xyz;
    for (uint32_t i = 0; i < 3; ++i) xyz.push_back(i < c.leaves.size() ? i32(c.leaves[i]) : B.getInt32(0));
    return xyz;
  }

  // Texel words -> the result type's components (floats bit-cast, narrower types converted).
  Val fromWords(const std::vector<llvm::Value*>& words, uint32_t resultType, bool signedInt) {
    Val out;
    uint32_t n = t.componentCount(resultType);
    llvm::Type* st = t.scalarType(t.componentType(resultType));
    for (uint32_t c = 0; c < n && c < words.size(); ++c) {
      llvm::Value* w = words[c];
      bool vec = w->getType()->isVectorTy();
      llvm::Type* target = vec ? t.laneType(st) : st;
      llvm::Value* r;
      if (st->isFloatingPointTy()) {
        r = B.CreateBitCast(w, vec ? t.laneType(B.getFloatTy()) : static_cast<llvm::Type*>(B.getFloatTy()));
        if (!st->isFloatTy()) r = B.CreateFPCast(r, target);
      } else {
        r = signedInt ? B.CreateSExtOrTrunc(w, target) : B.CreateZExtOrTrunc(w, target);
      }
      out.leaves.push_back(r);
    }
    return out;
  }

  // A texel value -> 4 words (missing components 0, alpha 1).
  llvm::Value* toWords(const Val& texel, bool isFloat) {
    bool vec = false;
    for (llvm::Value* l : texel.leaves) vec |= l->getType()->isVectorTy();
    llvm::Type* wt = vec ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
    llvm::Type* arr = llvm::ArrayType::get(wt, 4);
    llvm::Value* agg = llvm::UndefValue::get(arr);
    for (uint32_t c = 0; c < 4; ++c) {
      llvm::Value* w;
      if (c < texel.leaves.size()) {
        llvm::Value* l = vec ? t.splat(texel.leaves[c]) : texel.leaves[c];
        if (l->getType()->isFPOrFPVectorTy()) {
          llvm::Type* ft = vec ? t.laneType(B.getFloatTy()) : B.getFloatTy();
          w = B.CreateBitCast(B.CreateFPCast(l, ft), wt);
        } else {
          w = B.CreateSExtOrTrunc(l, wt);
        }
      } else {
        w = isFloat && c == 3 ? B.CreateBitCast(llvm::ConstantFP::get(vec ? t.laneType(B.getFloatTy()) : B.getFloatTy(), 1.0), wt)
                              : llvm::Constant::getNullValue(wt);
        if (!isFloat && c == 3) w = t.constInt(wt, 1);
      }
      agg = B.CreateInsertValue(agg, w, {c});
    }
    return agg;
  }

  llvm::FunctionCallee rt(const char* name, std::vector<llvm::Type*> params, llvm::Type* ret = nullptr) {
    return t.runtime(name, llvm::FunctionType::get(ret ? ret : B.getVoidTy(), params, false));
  }

  bool run();
  void sample();
};

// OpImageSample*, OpImageGather, OpImageDrefGather: the operands are packed into words; with
// uniform descriptors one runtime call takes the whole batch (the sampler module's batched
// routine, or its reference lane by lane where the state has none), otherwise the reference
// (sampleImage) runs once per active lane; once when everything is uniform. Projective division happens in the runtime, per the spec's
// order (coordinates and Dref divided by q before anything else).
void Images::sample() {
  using namespace sample_word;
  using namespace sample_flag;
  const bool gather = inst.op == Op::OpImageGather || inst.op == Op::OpImageDrefGather;
  bool dref = inst.op == Op::OpImageSampleDrefExplicitLod || inst.op == Op::OpImageSampleProjDrefExplicitLod ||
              inst.op == Op::OpImageDrefGather;
  const bool queryLod = inst.op == Op::OpImageQueryLod;
  const bool implicit = inst.op == Op::OpImageSampleImplicitLod || inst.op == Op::OpImageSampleDrefImplicitLod ||
                        inst.op == Op::OpImageSampleProjImplicitLod || inst.op == Op::OpImageSampleProjDrefImplicitLod ||
                        queryLod;
  if (implicit) dref = inst.op == Op::OpImageSampleDrefImplicitLod || inst.op == Op::OpImageSampleProjDrefImplicitLod;
  // Implicit projective forms divide here, so that the derivatives are those of s/q, t/q.
  const bool implicitProj = inst.op == Op::OpImageSampleProjImplicitLod || inst.op == Op::OpImageSampleProjDrefImplicitLod;
  const bool proj = inst.op == Op::OpImageSampleProjExplicitLod || inst.op == Op::OpImageSampleProjDrefExplicitLod;
  const Type* it = imageType(inst.operand(0));
  if (!it) t.fail("image sampling on a value that is not a sampled image");
  uint32_t coordCount = 2;
  switch (it->image.dim) {
    case spv::Dim::Dim1D: coordCount = 1; break;
    case spv::Dim::Dim2D: coordCount = 2; break;
    case spv::Dim::Dim3D:
    case spv::Dim::Cube: coordCount = 3; break;
    default: t.fail("image sampling supports 1D, 2D, 3D and cube images");
  }
  Val sampled = t.value(inst.operand(0));
  llvm::Value* imageDesc = sampled.leaf(0);
  // A combined image sampler is one descriptor holding both; OpSampledImage gives two.
  llvm::Value* samplerDesc = sampled.leaves.size() > 1 ? sampled.leaf(1) : sampled.leaf(0);

  llvm::Type* i32t = B.getInt32Ty();
  std::vector<llvm::Value*> words(kSampleWordCount, B.getInt32(0));
  auto asWord = [&](llvm::Value* v) -> llvm::Value* {
    bool vec = v->getType()->isVectorTy();
    llvm::Type* wt = vec ? t.laneType(i32t) : i32t;
    if (v->getType()->isFPOrFPVectorTy())
      return B.CreateBitCast(B.CreateFPCast(v, vec ? t.laneType(B.getFloatTy()) : static_cast<llvm::Type*>(B.getFloatTy())), wt);
    return B.CreateSExtOrTrunc(v, wt);
  };
  Val coord = t.value(inst.operand(1));
  std::vector<llvm::Value*> coordF;  // as f32, projected for implicit Proj forms
  for (size_t c = 0; c < coord.leaves.size() && c < 4; ++c) {
    llvm::Value* v = coord.leaves[c];
    coordF.push_back(B.CreateFPCast(v, v->getType()->isVectorTy() ? t.laneType(B.getFloatTy()) : B.getFloatTy()));
  }
  llvm::Value* q = implicitProj && coordCount < coordF.size() ? coordF[coordCount] : nullptr;
  auto project = [&](llvm::Value* v) {
    if (!q) return v;
    llvm::Value* a = v, *d = q;
    t.unify(a, d);
    return B.CreateFDiv(a, d);
  };
  for (uint32_t c = 0; c < coordF.size(); ++c) {
    llvm::Value* v = c < coordCount ? project(coordF[c]) : coordF[c];
    words[kCoord + c] = asWord(v);
  }
  uint32_t flags = (coordCount << kCoordCountShift) | (gather ? kFlagGather : 0) | (dref ? kFlagCompare : 0) |
                   (proj ? kFlagProjective : 0) | (it->image.arrayed && !queryLod ? kFlagArrayed : 0) |
                   (queryLod ? kFlagQueryLod : 0);
  uint32_t at = 2;
  if (dref) {
    llvm::Value* d = t.scalarValue(inst.operand(at++));
    d = B.CreateFPCast(d, d->getType()->isVectorTy() ? t.laneType(B.getFloatTy()) : B.getFloatTy());
    words[kDref] = asWord(project(d));
  } else if (inst.op == Op::OpImageGather) words[kGatherComponent] = asWord(t.scalarValue(inst.operand(at++)));

  // Image operands, in the order of their mask bits (SPIR-V "Image Operands").
  uint32_t mask = at < inst.operandCount ? inst.operand(at) : 0;
  uint32_t next = at + 1;
  auto operand = [&]() { return inst.operand(next++); };
  if (mask & 0x1) {
    words[kBias] = asWord(t.scalarValue(operand()));
    flags |= kFlagBias;
  }
  if (mask & 0x2) {
    words[kLod] = asWord(t.scalarValue(operand()));
    flags |= kFlagLod;
  }
  if (mask & 0x4) {
    Val dx = t.value(operand()), dy = t.value(operand());
    for (size_t c = 0; c < 3; ++c) {
      if (c < dx.leaves.size()) words[kGradX + c] = asWord(dx.leaves[c]);
      if (c < dy.leaves.size()) words[kGradY + c] = asWord(dy.leaves[c]);
    }
    flags |= kFlagGrad;
  }
  if (mask & (0x8 | 0x10)) {  // ConstOffset, Offset
    Val off = t.value(operand());
    for (size_t c = 0; c < off.leaves.size() && c < 3; ++c) words[kOffset + c] = asWord(off.leaves[c]);
    flags |= kFlagOffset;
  }
  if (mask & 0x20) {  // ConstOffsets: an array of 4 ivec2, flattened
    Val offs = t.value(operand());
    for (size_t c = 0; c < offs.leaves.size() && c < 8; ++c) words[kGatherOffsets + c] = asWord(offs.leaves[c]);
    flags |= kFlagGatherOffsets;
  }
  if (mask & 0x40) operand();  // Sample: only for multisampled images, which are not sampled
  if (mask & 0x80) {
    words[kMinLod] = asWord(t.scalarValue(operand()));
    flags |= kFlagMinLod;
  }
  if (mask & 0x10000) t.fail("the Offsets image operand is not supported");
  if (implicit) {
    // "Derivative Image Operations": the gradients of the (projected) coordinates across the
    // fragment's quad; the reference sampler turns them into the LOD. Coarse ones (the quad's
    // first row and column, as OpDPdx may be: "Derivative Operations"): the four fragments of a
    // quad share one LOD, as llvmpipe's do, and the sampling routines compute it once per quad.
    for (uint32_t c = 0; c < coordCount && c < coordF.size(); ++c) {
      llvm::Value* v = project(coordF[c]);
      words[kGradX + c] = asWord(t.quadDerivative(v, false, true));
      words[kGradY + c] = asWord(t.quadDerivative(v, true, true));
    }
    flags |= kFlagGrad;
  }

  // Per-lane (or one uniform) calls of the runtime with the packed words.
  llvm::Type* p = B.getPtrTy();
  llvm::FunctionCallee fn = rt("tessera_rt_image_sample", {p, p, i32t, p, p});
  bool varying = imageDesc->getType()->isVectorTy() || samplerDesc->getType()->isVectorTy();
  for (llvm::Value* w : words) varying |= w->getType()->isVectorTy();
  llvm::Type* argsTy = llvm::ArrayType::get(i32t, kSampleWordCount);
  llvm::Type* outTy = llvm::ArrayType::get(i32t, 4);
  llvm::AllocaInst* args = t.entryAlloca(argsTy, 16);
  llvm::AllocaInst* out = t.entryAlloca(outTy, 16);
  auto emit = [&](llvm::Value* lane) {
    auto pick = [&](llvm::Value* v) { return lane ? t.extractLane(v, lane) : v; };
    for (uint32_t w = 0; w < kSampleWordCount; ++w)
      B.CreateStore(pick(words[w]), B.CreateConstGEP2_32(argsTy, args, 0, w));
    B.CreateCall(fn, {B.CreateIntToPtr(pick(imageDesc), p), B.CreateIntToPtr(pick(samplerDesc), p), B.getInt32(flags), args, out});
  };
  std::vector<llvm::Value*> result;
  const bool uniformDescriptors = !imageDesc->getType()->isVectorTy() && !samplerDesc->getType()->isVectorTy();
  if (!varying) {
    emit(nullptr);
    for (uint32_t c = 0; c < 4; ++c) result.push_back(B.CreateLoad(i32t, B.CreateConstGEP2_32(outTy, out, 0, c)));
  } else if (uniformDescriptors) {
    // One call for the batch: the words as W-lane vectors, one after the other (word w of lane
    // l at w * W + l), the active lanes as bits; W results per component come back the same way.
    auto batchCall = [&] {
      std::vector<llvm::Value*> words4;
      llvm::Type* vt = t.laneType(i32t);
      llvm::Type* laneWordsTy = llvm::ArrayType::get(vt, kSampleWordCount);
      llvm::Type* laneOutTy = llvm::ArrayType::get(vt, 4);
      llvm::AllocaInst* laneWords = t.entryAlloca(laneWordsTy, 64);
      llvm::AllocaInst* laneOut = t.entryAlloca(laneOutTy, 64);
      for (uint32_t w = 0; w < kSampleWordCount; ++w)
        if (batchWordPresent(flags, w)) B.CreateStore(t.splat(words[w]), B.CreateConstGEP2_32(laneWordsTy, laneWords, 0, w));
      llvm::Value* activeBits = B.CreateZExt(B.CreateBitCast(t.splat(t.mask()), B.getIntNTy(t.width())), i32t);
      llvm::FunctionCallee batch = rt("tessera_rt_image_sample_batch", {p, p, i32t, i32t, i32t, p, p});
      B.CreateCall(batch, {B.CreateIntToPtr(imageDesc, p), B.CreateIntToPtr(samplerDesc, p), B.getInt32(flags),
                           B.getInt32(t.width()), activeBits, laneWords, laneOut});
      for (uint32_t c = 0; c < 4; ++c) words4.push_back(B.CreateLoad(vt, B.CreateConstGEP2_32(laneOutTy, laneOut, 0, c)));
      return words4;
    };
    // A plain texture(sampler2D, vec2) or texture(samplerCube, vec3) in a fragment shader: the
    // kernel samples the common case itself (inline_sample.h), the call takes the rest.
    const bool cube = it->image.dim == spv::Dim::Cube;
    const bool inlineShape = t.stage() == Translator::Stage::Fragment && inst.op == Op::OpImageSampleImplicitLod && !dref &&
                             ((flags == ((2u << kCoordCountShift) | kFlagGrad) && it->image.dim == spv::Dim::Dim2D) ||
                              (flags == ((3u << kCoordCountShift) | kFlagGrad) && cube)) &&
                             (t.width() == 4 || t.width() == 8 || t.width() == 16);
    const uint32_t slot = inlineShape ? t.takeInlineSampleSlot() : tessera::abi::kInlineSampleSlots;
    if (slot < tessera::abi::kInlineSampleSlots) {
      llvm::Type* vf = t.laneType(B.getFloatTy());
      auto asFloats = [&](llvm::Value* w) { return B.CreateBitCast(t.splat(w), vf); };
      InlineSampleOperands ops;
      ops.imageDesc = imageDesc;
      ops.samplerDesc = samplerDesc;
      ops.s = asFloats(words[kCoord]);
      ops.t = asFloats(words[kCoord + 1]);
      ops.dsdx = asFloats(words[kGradX]);
      ops.dtdx = asFloats(words[kGradX + 1]);
      ops.dsdy = asFloats(words[kGradY]);
      ops.dtdy = asFloats(words[kGradY + 1]);
      if (cube) {
        ops.cube = true;
        ops.r = asFloats(words[kCoord + 2]);
        ops.drdx = asFloats(words[kGradX + 2]);
        ops.drdy = asFloats(words[kGradY + 2]);
      }
      ops.slot = slot;
      result = emitInlineSample(t, ops, batchCall);
    } else {
      result = batchCall();
    }
  } else {
    llvm::Type* vt = t.laneType(i32t);
    llvm::AllocaInst* acc = t.entryAlloca(llvm::ArrayType::get(vt, 4), 64);
    B.CreateStore(llvm::Constant::getNullValue(acc->getAllocatedType()), acc);
    t.forEachActiveLane(t.mask(), [&](llvm::Value* lane) {
      emit(lane);
      for (uint32_t c = 0; c < 4; ++c) {
        llvm::Value* slot = B.CreateConstGEP2_32(acc->getAllocatedType(), acc, 0, c);
        llvm::Value* w = B.CreateLoad(i32t, B.CreateConstGEP2_32(outTy, out, 0, c));
        B.CreateStore(B.CreateInsertElement(B.CreateLoad(vt, slot), w, lane), slot);
      }
    });
    for (uint32_t c = 0; c < 4; ++c) result.push_back(B.CreateLoad(vt, B.CreateConstGEP2_32(acc->getAllocatedType(), acc, 0, c)));
  }
  const Type* sampledType = t.spirv().type(it->element);
  t.define(inst.result, fromWords(result, inst.type, sampledType && sampledType->isSigned));
}

bool Images::run() {
  llvm::Type* p = B.getPtrTy();
  llvm::Type* i = B.getInt32Ty();
  switch (inst.op) {
    case Op::OpSampledImage: {
      Val img = t.value(inst.operand(0)), smp = t.value(inst.operand(1));
      t.define(inst.result, Val{{img.leaf(0), smp.leaf(0)}});
      return true;
    }
    case Op::OpImage: {
      t.define(inst.result, Val{{t.value(inst.operand(0)).leaf(0)}});
      return true;
    }
    case Op::OpImageRead:
    case Op::OpImageFetch: {
      const Type* it = imageType(inst.operand(0));
      llvm::Value* desc = t.value(inst.operand(0)).leaf(0);
      ImageOperands ops = parseOperands(inst, 2);
      bool signedInt = false;
      if (const Type* sampled = it ? t.spirv().type(it->element) : nullptr) signedInt = sampled->isSigned;
      if (ops.mask & 0x1000) signedInt = true;   // SignExtend
      if (ops.mask & 0x2000) signedInt = false;  // ZeroExtend
      std::vector<llvm::Value*> words;
      if (it && it->image.dim == spv::Dim::Buffer) {
        words = call(rt("tessera_rt_texel_buffer_read", {p, i, p}), desc, {coords(inst.operand(1))[0]}, nullptr, true);
      } else {
        std::vector<llvm::Value*> xyz = coords(inst.operand(1));
        if (it && it->image.dim == spv::Dim::SubpassData) {
          // subpassLoad ("Input Attachments"): the coordinate is an offset from the fragment's
          // pixel, i.e. floor(FragCoord.xy) (also the pixel with per-sample shading); the
          // layer is the one being rendered: the view's first, or in a multiview subpass the
          // layer of the view (ViewIndex; "Multiview" reads layer ViewIndex of the input
          // attachment's view).
          t.noteFragCoordReads(0x3);
          t.noteInputAttachmentRead();
          for (uint32_t c = 0; c < 2; ++c) {
            llvm::Value* at = B.CreateConstGEP1_32(
                B.getInt8Ty(), t.workgroupState(),
                uint32_t(offsetof(tessera::abi::FragmentBatch, fragCoord) + c * 4 * tessera::abi::kMaxSimdWidth));
            llvm::Value* pixel = B.CreateFPToSI(B.CreateAlignedLoad(t.laneType(B.getFloatTy()), at, llvm::Align(4)),
                                                t.laneType(B.getInt32Ty()));
            llvm::Value* offset = xyz[c];
            t.unify(pixel, offset);
            xyz[c] = B.CreateAdd(pixel, offset);
          }
          xyz[2] = t.viewIndex();
        }
        if (ops.offset) {
          Val off = t.value(ops.offset);
          for (size_t c = 0; c < off.leaves.size() && c < 3; ++c) {
            llvm::Value* a = xyz[c], *o = i32(off.leaves[c]);
            t.unify(a, o);
            xyz[c] = B.CreateAdd(a, o);
          }
        }
        llvm::Value* sample = ops.sample ? i32(t.scalarValue(ops.sample)) : B.getInt32(0);
        llvm::Value* lod = ops.lod ? i32(t.scalarValue(ops.lod)) : B.getInt32(0);
        auto perLane = [&] {
          return call(rt("tessera_rt_image_read", {p, i, i, i, i, i, p}), desc, {xyz[0], xyz[1], xyz[2], sample, lod}, nullptr, true);
        };
        // texelFetch and storage-image reads of a uniform level (texelFetch's is almost always
        // the constant 0) read the lanes' texels inline from the views plainWordsOr knows.
        if (!ops.sample && !lod->getType()->isVectorTy() && !(ops.mask & kVolatileTexel) &&
            plainWordsApply(it, desc, xyz, nullptr)) {
          words = plainWordsOr(desc, xyz[0], xyz[1], [&](const PlainWords& w) { return plainTexels(w); }, perLane, lod,
                               Bytes4::UnormAndSrgb);
        } else {
          words = perLane();
        }
      }
      t.define(inst.result, fromWords(words, inst.type, signedInt));
      return true;
    }
    case Op::OpImageWrite: {
      const Type* it = imageType(inst.operand(0));
      llvm::Value* desc = t.value(inst.operand(0)).leaf(0);
      Val texel = t.value(inst.operand(2));
      ImageOperands ops = parseOperands(inst, 3);
      bool isFloat = texel.leaf(0)->getType()->isFPOrFPVectorTy();
      llvm::Value* words = toWords(texel, isFloat);
      if (it && it->image.dim == spv::Dim::Buffer) {
        call(rt("tessera_rt_texel_buffer_write", {p, i, p}), desc, {coords(inst.operand(1))[0]}, words, false);
      } else {
        std::vector<llvm::Value*> xyz = coords(inst.operand(1));
        llvm::Value* sample = ops.sample ? i32(t.scalarValue(ops.sample)) : B.getInt32(0);
        llvm::Value* lod = ops.lod ? i32(t.scalarValue(ops.lod)) : B.getInt32(0);
        auto perLane = [&] {
          call(rt("tessera_rt_image_write", {p, i, i, i, i, i, p}), desc, {xyz[0], xyz[1], xyz[2], sample, lod}, words, false);
          return std::vector<llvm::Value*>{};
        };
        if (!ops.sample && !ops.lod && !(ops.mask & kVolatileTexel) && plainWordsApply(it, desc, xyz, nullptr)) {
          plainWordsOr(desc, xyz[0], xyz[1], [&](const PlainWords& w) {
            storePlainTexels(w, words, isFloat);
            return std::vector<llvm::Value*>{};
          }, perLane, nullptr, isFloat ? Bytes4::Unorm : Bytes4::None);
        } else {
          perLane();
        }
      }
      return true;
    }
    case Op::OpImageQuerySize:
    case Op::OpImageQuerySizeLod:
    case Op::OpImageQueryLevels:
    case Op::OpImageQuerySamples: {
      const Type* it = imageType(inst.operand(0));
      llvm::Value* desc = t.value(inst.operand(0)).leaf(0);
      Val out;
      llvm::Type* rt0 = t.scalarType(t.componentType(inst.type));
      auto cast = [&](llvm::Value* w) {
        return B.CreateZExtOrTrunc(w, w->getType()->isVectorTy() ? t.laneType(rt0) : rt0);
      };
      if (it && it->image.dim == spv::Dim::Buffer) {
        std::vector<llvm::Value*> r;
        auto fn = rt("tessera_rt_texel_buffer_size", {p}, i);
        if (!desc->getType()->isVectorTy()) {
          r.push_back(B.CreateCall(fn, {B.CreateIntToPtr(desc, p)}));
        } else {
          llvm::AllocaInst* acc = t.entryAlloca(t.laneType(i), 64);
          B.CreateStore(llvm::Constant::getNullValue(t.laneType(i)), acc);
          t.forEachActiveLane(t.mask(), [&](llvm::Value* lane) {
            llvm::Value* n = B.CreateCall(fn, {B.CreateIntToPtr(t.extractLane(desc, lane), p)});
            B.CreateStore(B.CreateInsertElement(B.CreateLoad(t.laneType(i), acc), n, lane), acc);
          });
          r.push_back(B.CreateLoad(t.laneType(i), acc));
        }
        out.leaves.push_back(cast(r[0]));
        t.define(inst.result, out);
        return true;
      }
      llvm::Value* lod = inst.op == Op::OpImageQuerySizeLod ? i32(t.scalarValue(inst.operand(1))) : B.getInt32(0);
      std::vector<llvm::Value*> words = call(rt("tessera_rt_image_query", {p, i, p}), desc, {lod}, nullptr, true, 5);
      if (inst.op == Op::OpImageQueryLevels) out.leaves.push_back(cast(words[3]));
      else if (inst.op == Op::OpImageQuerySamples) out.leaves.push_back(cast(words[4]));
      else
        for (uint32_t c = 0; c < t.componentCount(inst.type); ++c) out.leaves.push_back(cast(words[c]));
      t.define(inst.result, out);
      return true;
    }
    case Op::OpImageTexelPointer: {
      // A pointer to one texel of a storage image or texel buffer, for atomics.
      Ptr image = t.pointer(inst.operand(0));
      llvm::Value* desc = image.offset;  // Image pointers carry the descriptor address
      const Type* it = t.spirv().type(image.pointee);
      std::vector<llvm::Value*> xyz = coords(inst.operand(1));
      llvm::Value* sample = i32(t.scalarValue(inst.operand(2)));
      bool isBuffer = it && it->image.dim == spv::Dim::Buffer;
      auto fn = isBuffer ? rt("tessera_rt_texel_buffer_texel", {p, i}, p) : rt("tessera_rt_image_texel", {p, i, i, i, i}, p);
      bool varying = desc->getType()->isVectorTy() || sample->getType()->isVectorTy();
      for (auto* c : xyz) varying |= c->getType()->isVectorTy();
      auto args = [&](llvm::Value* lane) {
        auto pick = [&](llvm::Value* v) { return lane ? t.extractLane(v, lane) : v; };
        std::vector<llvm::Value*> a{B.CreateIntToPtr(pick(desc), p), pick(xyz[0])};
        if (!isBuffer) a.insert(a.end(), {pick(xyz[1]), pick(xyz[2]), pick(sample)});
        return a;
      };
      Ptr out;
      out.kind = Ptr::Kind::Memory;
      out.storage = spv::StorageClass::Image;
      out.pointee = t.spirv().type(inst.type)->element;
      llvm::Value* addr;
      auto perLane = [&] {
        llvm::Type* v64 = t.laneType(B.getInt64Ty());
        llvm::AllocaInst* acc = t.entryAlloca(v64, 64);
        B.CreateStore(llvm::Constant::getNullValue(v64), acc);
        t.forEachActiveLane(t.mask(), [&](llvm::Value* lane) {
          llvm::Value* a = B.CreatePtrToInt(B.CreateCall(fn, args(lane)), B.getInt64Ty());
          B.CreateStore(B.CreateInsertElement(B.CreateLoad(v64, acc), a, lane), acc);
        });
        return std::vector<llvm::Value*>{B.CreateLoad(v64, acc)};
      };
      if (!varying) {
        addr = B.CreatePtrToInt(B.CreateCall(fn, args(nullptr)), B.getInt64Ty());
      } else if (!isBuffer && plainWordsApply(it, desc, xyz, sample)) {
        // Inactive lanes get no address, as the per-lane path leaves them.
        addr = plainWordsOr(desc, xyz[0], xyz[1], [&](const PlainWords& w) {
          llvm::Value* v64zero = llvm::Constant::getNullValue(w.address->getType());
          return std::vector<llvm::Value*>{B.CreateSelect(t.splat(t.mask()), w.address, v64zero)};
        }, perLane)[0];
      } else {
        addr = perLane()[0];
      }
      out.offset = addr;
      out.validLanes = B.CreateICmpNE(addr, llvm::Constant::getNullValue(addr->getType()));
      t.definePointer(inst.result, out);
      return true;
    }
    case Op::OpImageSampleExplicitLod:
    case Op::OpImageSampleDrefExplicitLod:
    case Op::OpImageSampleProjExplicitLod:
    case Op::OpImageSampleProjDrefExplicitLod:
    case Op::OpImageGather:
    case Op::OpImageDrefGather:
      sample();
      return true;
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
      // Implicit LOD: the gradients come from the fragment quad (compute derivative groups
      // are not offered, so validation allows these in fragment shaders only).
      if (t.stage() != Translator::Stage::Fragment) t.fail("implicit-LOD image sampling outside a fragment shader");
      sample();
      return true;
    case Op::OpImageQueryLod:
      // The LOD an implicit-LOD sample would use: the same quad derivatives, the reference
      // sampler's "Image Level of Detail Query" (SampleKind::QueryLod).
      if (t.stage() != Translator::Stage::Fragment) t.fail("OpImageQueryLod outside a fragment shader");
      sample();
      return true;
    default:
      return false;
  }
}

}  // namespace

bool Translator::translateImage(const Instruction& inst) {
  Images images{*this, inst, b()};
  return images.run();
}

}  // namespace tessera::jit
