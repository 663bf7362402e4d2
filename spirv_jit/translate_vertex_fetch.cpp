// Vertex attribute fetch compiled into the vertex kernel ("Vertex Input Description", "Vertex
// Attribute Fetch"): for each input location the pipeline feeds from an attribute whose format
// is a plain array of 8, 16 or 32-bit components, the kernel computes every lane's address from
// the run-time binding (abi::VertexBuffer) and decodes the components itself, exactly as the
// texel codec does (the unit tests compare the two bit for bit on random bytes); the other
// formats (packed, sRGB, 64-bit, ...) still arrive decoded by the caller in VertexBatch::inputs.
#include <cstddef>

#include "tessera/format.h"
#include "translator.h"

namespace tessera::jit {
namespace {

// Where each of R, G, B, A lies in a texel block of a format the kernel decodes itself.
struct FetchFormat {
  uint32_t blockSize = 0;
  bool integer = false;  // UINT/SINT: a missing alpha reads 1, not 1.0
  struct Channel {
    bool present = false;
    uint32_t byteOffset = 0, bits = 0;
    NumericFormat numeric = NumericFormat::None;
  } channel[4];
};

bool fetchFormat(uint32_t vkFormat, FetchFormat* out) {
  const FormatInfo* f = formatInfo(VkFormat(vkFormat));
  if (!f || f->isCompressed() || f->planeCount > 1 || f->packedBits != 0 || f->sharedExponent ||
      f->needsYcbcrConversion || !(f->aspects & VK_IMAGE_ASPECT_COLOR_BIT) || f->componentCount == 0 ||
      f->componentCount > 4)
    return false;
  FetchFormat r;
  r.blockSize = f->blockSize;
  const NumericFormat first = f->components[0].numeric;
  r.integer = first == NumericFormat::UInt || first == NumericFormat::SInt;
  for (uint8_t i = 0; i < f->componentCount; ++i) {
    const FormatComponent& c = f->components[i];
    const int channel = c.name == 'R' ? 0 : c.name == 'G' ? 1 : c.name == 'B' ? 2 : c.name == 'A' ? 3 : -1;
    if (channel < 0 || c.bitOffset % 8 != 0 || (c.bits != 8 && c.bits != 16 && c.bits != 32)) return false;
    switch (c.numeric) {
      case NumericFormat::UNorm:
      case NumericFormat::SNorm:
      case NumericFormat::UScaled:
      case NumericFormat::SScaled:
        if (c.bits == 32) return false;
        break;
      case NumericFormat::UInt:
      case NumericFormat::SInt: break;
      case NumericFormat::SFloat:
        if (c.bits == 8) return false;
        break;
      default: return false;  // sRGB, UFLOAT
    }
    r.channel[channel] = {true, uint32_t(c.bitOffset / 8), c.bits, c.numeric};
  }
  *out = r;
  return true;
}

}  // namespace

// The lanes' words of channel `k` of one attribute: `address` is each lane's first byte of the
// element, `live` the lanes that read memory (active and in range).
static llvm::Value* decodeChannel(Translator& t, const FetchFormat::Channel& c, llvm::Value* address,
                                  llvm::Value* live) {
  auto& B = t.b();
  llvm::Type* elem = B.getIntNTy(c.bits);
  llvm::Value* ptrs = B.CreateGEP(B.getInt8Ty(), address, t.splat(B.getInt64(c.byteOffset)));
  llvm::Value* raw = B.CreateMaskedGather(t.laneType(elem), ptrs, llvm::Align(1), live,
                                          llvm::Constant::getNullValue(t.laneType(elem)));
  llvm::Type* vi = t.laneType(B.getInt32Ty());
  llvm::Type* vf = t.laneType(B.getFloatTy());
  llvm::Type* vd = t.laneType(B.getDoubleTy());
  auto asWords = [&](llvm::Value* f) { return B.CreateBitCast(f, vi); };
  const double maxUnsigned = double((uint64_t(1) << c.bits) - 1), maxSigned = double((uint64_t(1) << (c.bits - 1)) - 1);
  switch (c.numeric) {
    case NumericFormat::UNorm:
      // The codec's float(double(c) / (2^b - 1)); for 8 bits the float division rounds alike.
      if (c.bits == 8) return asWords(B.CreateFDiv(B.CreateUIToFP(raw, vf), llvm::ConstantFP::get(vf, maxUnsigned)));
      return asWords(B.CreateFPTrunc(B.CreateFDiv(B.CreateUIToFP(raw, vd), llvm::ConstantFP::get(vd, maxUnsigned)), vf));
    case NumericFormat::SNorm: {
      // max(c / (2^(b-1) - 1), -1.0): the most negative value clamps to -1.
      llvm::Value* q = B.CreateFDiv(B.CreateSIToFP(raw, vd), llvm::ConstantFP::get(vd, maxSigned));
      q = B.CreateMaxNum(q, llvm::ConstantFP::get(vd, -1.0));
      return asWords(B.CreateFPTrunc(q, vf));
    }
    case NumericFormat::UScaled: return asWords(B.CreateUIToFP(raw, vf));
    case NumericFormat::SScaled: return asWords(B.CreateSIToFP(raw, vf));
    case NumericFormat::UInt: return c.bits == 32 ? raw : B.CreateZExt(raw, vi);
    case NumericFormat::SInt: return c.bits == 32 ? raw : B.CreateSExt(raw, vi);
    case NumericFormat::SFloat: {
      if (c.bits == 32) return raw;
      // Half to float is exact, except that the conversion instruction quiets signalling NaNs:
      // the codec keeps a NaN's payload bits as they are, so NaNs and infinities are built here.
      llvm::Value* h = B.CreateZExt(raw, vi);
      llvm::Value* exponent = B.CreateAnd(B.CreateLShr(h, t.splat(B.getInt32(10))), t.splat(B.getInt32(0x1F)));
      llvm::Value* special = B.CreateICmpEQ(exponent, t.splat(B.getInt32(0x1F)));
      llvm::Value* sign = B.CreateShl(B.CreateAnd(h, t.splat(B.getInt32(0x8000))), t.splat(B.getInt32(16)));
      llvm::Value* mantissa = B.CreateShl(B.CreateAnd(h, t.splat(B.getInt32(0x3FF))), t.splat(B.getInt32(13)));
      llvm::Value* infNan = B.CreateOr(B.CreateOr(sign, t.splat(B.getInt32(0x7F800000))), mantissa);
      llvm::Value* finite = asWords(B.CreateFPExt(B.CreateBitCast(raw, t.laneType(B.getHalfTy())), vf));
      return B.CreateSelect(special, infNan, finite);
    }
    default: return nullptr;  // fetchFormat admits nothing else
  }
}

void Translator::loadVertexInputs(llvm::Value* inputs) {
  auto& B = b();
  llvm::Type* vi = laneType(B.getInt32Ty());
  llvm::Type* v64 = laneType(B.getInt64Ty());
  // Per location: the attribute's format and each lane's element address and liveness,
  // computed once for all the leaves (components) that read it.
  struct Fetch {
    bool compiled = false;
    FetchFormat format;
    llvm::Value* address = nullptr;  // <W x ptr>
    llvm::Value* inRange = nullptr;  // <W x i1>
  };
  Fetch fetch[abi::kMaxInterfaceLocations];
  uint32_t fetched = 0;
  for (const InterfaceLeaf& l : inputLeaves_) {
    if (l.location >= abi::kMaxInterfaceLocations || fetch[l.location].compiled) continue;
    const ShaderInterface::VertexAttributeInput* attribute = nullptr;
    for (const auto& a : interface_.vertexAttributes)
      if (a.location == l.location) attribute = &a;
    FetchFormat format;
    if (!attribute || attribute->binding >= abi::kMaxVertexBuffers || !fetchFormat(attribute->format, &format)) continue;
    const ShaderInterface::VertexBindingInput binding = attribute->binding < interface_.vertexBindings.size()
                                                            ? interface_.vertexBindings[attribute->binding]
                                                            : ShaderInterface::VertexBindingInput{};
    // "Vertex Input Address Calculation": the vertex's index, or for an instance-rate binding
    // firstInstance + (InstanceIndex - firstInstance) / divisor (firstInstance's with divisor 0).
    llvm::Value* buffer = B.CreateConstGEP1_32(B.getInt8Ty(), batchField(offsetof(abi::VertexBatch, buffers), B.getPtrTy()),
                                               attribute->binding * uint32_t(sizeof(abi::VertexBuffer)));
    auto field = [&](size_t offset, llvm::Type* type) {
      return B.CreateLoad(type, B.CreateConstGEP1_32(B.getInt8Ty(), buffer, uint32_t(offset)));
    };
    llvm::Value* base = field(offsetof(abi::VertexBuffer, base), B.getPtrTy());
    llvm::Value* size = field(offsetof(abi::VertexBuffer, size), B.getInt64Ty());
    llvm::Value* stride = B.CreateZExt(field(offsetof(abi::VertexBuffer, stride), B.getInt32Ty()), B.getInt64Ty());
    llvm::Value* index;
    if (!binding.perInstance) {
      llvm::Value* vertexIndex =
          B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::VertexBatch, vertexIndex)), llvm::Align(4));
      index = B.CreateZExt(vertexIndex, v64);
    } else {
      llvm::Value* first = batchField(offsetof(abi::VertexBatch, baseInstance), B.getInt32Ty());
      llvm::Value* element = first;
      if (binding.divisor != 0) {
        llvm::Value* instance = batchField(offsetof(abi::VertexBatch, instanceIndex), B.getInt32Ty());
        element = B.CreateAdd(first, B.CreateUDiv(B.CreateSub(instance, first), B.getInt32(binding.divisor)));
      }
      index = splat(B.CreateZExt(element, B.getInt64Ty()));
    }
    llvm::Value* at = B.CreateAdd(B.CreateMul(index, splat(stride)), splat(B.getInt64(attribute->offset)));
    // In range when the whole element lies in the bound range; otherwise (and from a null
    // vertex buffer) it reads zero with the missing components filled in, as robustBufferAccess2
    // and nullDescriptor say and raster/draw_vertices.cpp's fetch does too.
    llvm::Value* blockSize = B.getInt64(format.blockSize);
    llvm::Value* fits = B.CreateAnd(B.CreateICmpUGE(size, blockSize), B.CreateIsNotNull(base));
    llvm::Value* inRange =
        B.CreateAnd(B.CreateICmpULE(at, splat(B.CreateSub(size, blockSize))), splat(fits));
    Fetch& f = fetch[l.location];
    f.compiled = true;
    f.format = format;
    f.address = B.CreateGEP(B.getInt8Ty(), base, at);
    f.inRange = inRange;
    fetched |= 1u << l.location;
  }
  if (facts_) facts_->fetchedLocations = fetched;
  storeInputLeaves([&](const InterfaceLeaf& l) {
    llvm::Value* words;
    if (l.location < abi::kMaxInterfaceLocations && fetch[l.location].compiled) {
      const Fetch& f = fetch[l.location];
      const uint32_t k = l.component & 3;
      // A missing channel reads as (0, 0, 0, 1) in the format's kind ("Vertex Input
      // Extraction"); a channel the format has reads zero out of range.
      const uint32_t one = f.format.integer ? 1u : 0x3F800000u;
      if (l.component < 4 && f.format.channel[k].present) {
        llvm::Value* live = B.CreateAnd(mask(), f.inRange);
        words = B.CreateSelect(f.inRange, decodeChannel(*this, f.format.channel[k], f.address, live), splat(B.getInt32(0)));
      } else {
        words = splat(B.getInt32(k == 3 ? one : 0u));
      }
    } else {
      llvm::Value* src = B.CreateConstGEP1_32(B.getInt32Ty(), inputs, (l.location * 4 + l.component) * width());
      words = B.CreateAlignedLoad(vi, src, llvm::Align(4));
    }
    return words;
  });
}

}  // namespace tessera::jit
