// "Wrapping Operation" and the rounding of the array layer ("(u,v,w,a) to (i,j,k,l,n)
// Transformation and Array Layer Selection").
#include <algorithm>
#include <cmath>

#include "sampler_internal.h"

namespace tessera::sampler_detail {
namespace {

// Mathematical modulus (result in [0, m)), which the spec's "mod" means: -1 mod 4 = 3.
int64_t floorMod(int64_t a, int64_t m) {
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}

// mirror(n) = n for n >= 0, -(1 + n) otherwise.
int64_t mirror(int64_t n) { return n >= 0 ? n : -(1 + n); }

}  // namespace

int32_t wrapCoordinate(int32_t i, int32_t size, uint32_t addressMode) {
  // int64 so that offsets added to extreme coordinates cannot overflow.
  const int64_t n = i, s = size;
  switch (VkSamplerAddressMode(addressMode)) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
      return int32_t(floorMod(n, s));  // i mod size
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT:
      // (size - 1) - mirror((i mod (2 × size)) - size)
      return int32_t((s - 1) - mirror(floorMod(n, 2 * s) - s));
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
      // clamp(i, -1, size): -1 and size then fail coordinate validation and become border
      // texels ("Texel Replacement").
      return int32_t(std::clamp<int64_t>(n, -1, s));
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE:
      return int32_t(std::clamp<int64_t>(mirror(n), 0, s - 1));  // clamp(mirror(i), 0, size - 1)
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
    default:
      return int32_t(std::clamp<int64_t>(n, 0, s - 1));  // clamp(i, 0, size - 1)
  }
}

double roundTiesToEven(double a) {
  const double lower = std::floor(a), diff = a - lower;
  if (diff < 0.5) return lower;
  if (diff > 0.5) return lower + 1;
  return std::fmod(lower, 2.0) == 0 ? lower : lower + 1;
}

uint32_t selectLayer(float a, uint32_t count) {
  // l = clamp(RNE(a), 0, layerCount - 1); baseArrayLayer is already in the view's base
  // address. A NaN layer is undefined; it lands on layer 0.
  const double l = roundTiesToEven(a);
  if (!(l > 0) || count == 0) return 0;
  return l >= double(count - 1) ? count - 1 : uint32_t(l);
}

}  // namespace tessera::sampler_detail
