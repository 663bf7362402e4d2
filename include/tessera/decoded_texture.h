// Compressed images kept decoded: a copy of a BC1-BC7 or ETC2 colour image's texels as R8G8B8A8
// (UNORM, or SRGB for the sRGB formats; R8 / R8G8 UNORM for BC4 / BC5; R16G16B16A16_SFLOAT for
// BC6H), made on the first sample after the image's texels change and sampled instead of the
// blocks (sampling_batch.h viewToSample): "compressed formats decoded once per block and reused,
// not per texel".
//  - BC1 UNORM, wherever the fixed-point routine would read BC1 texels: it decodes each BC1 texel
//    to the same four bytes (sampler/bc1_bytes.h) and then filters exactly as it filters RGBA8,
//    so the copy gives the same bits at the RGBA8 routine's and the fragment kernels' inline
//    sampling's speed, where the blocks cost two gathers and a palette computation per texel.
//  - BC7, BC6H and ETC2's RGB8 / RGB8A1 / RGBA8, wherever a routine takes the copy: their texels
//    are integers the copy holds exactly (BC7 and ETC2: 8-bit RGBA, "These 8-bit values should
//    be interpreted as RGBA 8-bit normalized channels"; BC6H: half floats), which the reference
//    decodes as R8G8B8A8 / R16G16B16A16_SFLOAT texels, so the copy is the texture exactly; the
//    blocks have no routine (every lane decodes a block in the reference), the copy the
//    uncompressed ones: the fixed-point routine for UNORM bytes (as for any R8G8B8A8_UNORM
//    view), the bit-exact routines for SRGB and halves.
//  - BC1 SRGB, BC2 and BC3 (UNORM and SRGB), BC4 and BC5 UNORM, wherever a routine takes the
//    copy (not under TESSERA_SAMPLING_ROUTINES=exact, which asks for the reference's bits):
//    their texels (S3TC colour thirds and halves, alpha and red sevenths and fifths; sRGB colour
//    where it is encoded, before the EOTF) rounded to the nearest byte, halves up, as BC1's
//    routine rounds its own (within 1/510 of the exact decode, as lavapipe's 8-bit decode is;
//    Direct3D allows such a tolerance), then filtered as RGBA8 (UNORM or SRGB), R8 and R8G8 are.
//    Their blocks have no routine; BC4 and BC5 SNORM keep them.
//
// When the copy is current. The image's owner (icd/) makes a copy only for images whose texels
// nothing but a transfer command naming the image can change: optimal tiling (the host cannot
// write them), 2D, one sample, no ALIAS_BIT (another image's writes to the same memory leave
// this one's contents undefined: "Memory Aliasing"), no external or sparse memory, and no usage
// that lets a shader or a render pass write them (STORAGE, attachments: through a view of
// another format, BLOCK_TEXEL_VIEW_COMPATIBLE). Every transfer that writes such an image calls
// written() when its writes are done, before any later command that may sample the image
// runs; the next current() decodes the subresources written since.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "tessera/shader_abi.h"

namespace tessera {

// A device's allowance for decoded copies: the bytes they may take together. A texture whose
// copy would pass it is sampled from its blocks, as without copies.
struct DecodedTextureBudget {
  explicit DecodedTextureBudget(uint64_t limitBytes) : limit(limitBytes) {}
  const uint64_t limit;
  std::atomic<uint64_t> used{0};
  // TESSERA_DECODED_TEXTURE_MIB (default 1024; 0: no copies), in bytes.
  static uint64_t configuredLimit();
};

class DecodedTexture {
 public:
  // Whether an image of `format` can have a copy (BC1 RGB and RGBA, BC2, BC3, BC7, ETC2 RGB8,
  // RGB8A1 and RGBA8, UNORM and SRGB; BC4 and BC5 UNORM; BC6H).
  static bool decodable(uint32_t format);
  // `whole`: a 2D-array view state of the image of its own format covering every level and
  // layer (the blocks the copy is decoded from). Nothing is allocated until the first current().
  DecodedTexture(const abi::ImageViewState& whole, DecodedTextureBudget& budget);
  ~DecodedTexture();
  DecodedTexture(const DecodedTexture&) = delete;
  DecodedTexture& operator=(const DecodedTexture&) = delete;

  // A transfer has written the image's `level`, layers [firstLayer, firstLayer + layerCount)
  // (clamped to the image's); call after its writes.
  void written(uint32_t level, uint32_t firstLayer, uint32_t layerCount);

  // Decodes what changed since the last call; false where there is no copy (over the budget,
  // out of memory). Safe from any thread; callers that find it current pay two atomic loads.
  bool current();

  // The copy's level `level`, layer `layer` as a view level (levels' sizes as the image's).
  abi::ImageLevel level(uint32_t level, uint32_t layer) const;
  uint32_t format() const { return whole_.format; }
  // The copy's VkFormat: R8G8B8A8_UNORM or _SRGB, R8_UNORM (BC4), R8G8_UNORM (BC5), or
  // R16G16B16A16_SFLOAT (BC6H).
  uint32_t copyFormat() const;
  // Whether the copy holds the texels exactly (BC6H, BC7, ETC2), or rounded to the nearest byte
  // (BC1-BC5).
  bool exact() const;

 private:
  bool decodeStale();  // with mutex_ held
  void decodeSubresource(uint32_t level, uint32_t layer);

  abi::ImageViewState whole_;
  DecodedTextureBudget& budget_;
  uint64_t bytes_ = 0;
  std::vector<uint64_t> levelOffset_;  // bytes from data_ to layer 0 of each level
  std::unique_ptr<uint8_t[]> data_;
  // One flag per (level, layer): written since it was last decoded.
  std::unique_ptr<std::atomic<uint8_t>[]> stale_;
  std::atomic<uint64_t> writes_{1};     // written() calls, plus the initial state (all stale)
  std::atomic<uint64_t> decodedAt_{0};  // writes_ as the last completed decode saw it
  std::atomic<bool> unavailable_{false};
  std::mutex mutex_;
};

// What a view of such an image samples instead of its blocks: the view's levels and layers of
// the copy as an R8G8B8A8 UNORM view state (same type, counts, swizzle). Owned by the view; its
// ImageViewState::decoded points at it.
class DecodedView {
 public:
  // `view`: the view's own state; `baseLevel`, `baseLayer`: the image level and layer of its
  // first.
  DecodedView(DecodedTexture& texture, uint32_t baseLevel, uint32_t baseLayer)
      : texture_(texture), baseLevel_(baseLevel), baseLayer_(baseLayer) {}
  // The decoded state of `view` (whose decoded field points here), current; null where the
  // texture has no copy. The state stays valid for the view's life.
  const abi::ImageViewState* current(const abi::ImageViewState& view);
  const DecodedTexture& texture() const { return texture_; }

 private:
  DecodedTexture& texture_;
  const uint32_t baseLevel_, baseLayer_;
  std::once_flag built_;
  abi::ImageViewState state_{};
};

}  // namespace tessera
