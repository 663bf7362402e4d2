// tessera/compressed.h: the block decoder of each compressed format family (block_decoders.h).
#include "block_decoders.h"

namespace tessera {

bool hasBlockDecoder(const FormatInfo& format) {
  return format.compression == Compression::ETC2 || format.compression == Compression::EAC ||
         format.compression == Compression::BC;
}

bool decodeCompressedBlock(const FormatInfo& format, const void* block, TexelValue out[16]) {
  const auto* q = static_cast<const uint8_t*>(block);
  switch (format.compression) {
    case Compression::ETC2:
    case Compression::EAC:
      return decodeEtc2Block(format, q, out);
    case Compression::BC:
      return decodeBcBlock(format, q, out);
    default:
      return false;  // ASTC: copies only
  }
}

}  // namespace tessera
