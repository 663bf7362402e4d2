// "Depth Bias" / "Depth Bias Computation" and the clamping of fragment depth that follows it
// ("Depth Bias", "Depth Clamping and Range Adjustment").
#include <algorithm>
#include <cmath>
#include <limits>

#include "rules.h"

namespace tessera::raster::rules {

double minimumResolvableDifference(VkFormat depthFormat, double maxAbsDepth,
                                   RasterState::DepthBiasRepresentation representation) {
  using Representation = RasterState::DepthBiasRepresentation;
  // "In a pipeline with a depth bias representation of VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT,
  // r ... is defined as r = 1."
  if (representation == Representation::Float) return 1.0;
  // "...or in a pipeline with a depth bias representation of
  // VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT, r is constant":
  // 2^-n with n "the number of mantissa bits plus one when using a floating-point attachment".
  if (representation == Representation::ForceUnorm &&
      (depthFormat == VK_FORMAT_D32_SFLOAT || depthFormat == VK_FORMAT_D32_SFLOAT_S8_UINT))
    return std::ldexp(1.0, -24);
  switch (depthFormat) {
    // Fixed point: r is constant over the whole attachment and "must be at most 2 x 2^-n" for
    // n depth bits; Tessera uses the exact 2^-n (what depthBiasExact would require).
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT:
      return std::ldexp(1.0, -16);
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
      return std::ldexp(1.0, -24);
    // Floating point: "r = 2^(e-n)" with e the maximum exponent of the z values spanned by the
    // primitive and n the number of mantissa bits (23 for a 32-bit float).
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: {
      constexpr int kMantissaBits = 23;
      constexpr int kMinNormalExponent = -126;  // exponent of FLT_MIN; also used for z == 0
      int e = kMinNormalExponent;
      if (maxAbsDepth > 0 && std::isfinite(maxAbsDepth)) {
        int exp2 = 0;
        std::frexp(maxAbsDepth, &exp2);  // maxAbsDepth = f * 2^exp2, f in [0.5, 1)
        e = std::max(exp2 - 1, kMinNormalExponent);
      }
      return std::ldexp(1.0, e - kMantissaBits);
    }
    default:
      return 0.0;  // "If no depth attachment is present, r is undefined."
  }
}

double maximumDepthSlope(double dzdx, double dzdy) {
  // m = sqrt((dz_f/dx_f)^2 + (dz_f/dy_f)^2); the spec allows max(|dz/dx|, |dz/dy|) as an
  // approximation, Tessera uses the definition.
  return std::sqrt(dzdx * dzdx + dzdy * dzdy);
}

double depthBiasValue(double m, double r, float slopeFactor, float constantFactor, float clamp) {
  // o = dbclamp(m x depthBiasSlopeFactor + r x depthBiasConstantFactor), where dbclamp leaves
  // the value alone for a clamp of 0 or NaN, takes min(x, clamp) for clamp > 0 and
  // max(x, clamp) for clamp < 0.
  const double o = m * slopeFactor + r * constantFactor;
  if (clamp > 0) return std::min(o, double{clamp});
  if (clamp < 0) return std::max(o, double{clamp});
  return o;
}

bool isFloatDepthFormat(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

DepthRange fragmentDepthRange(const RasterState& state) {
  DepthRange range{std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
  if (state.depthClampEnable) {
    // "Depth Clamping and Range Adjustment": z_f is clamped to [z_min, z_max] with
    // z_min = min(n, f), z_max = max(n, f) for the viewport's minDepth n and maxDepth f.
    const float n = state.viewport.minDepth, f = state.viewport.maxDepth;
    range = {std::min(n, f), std::max(n, f)};
  }
  // A z_f outside [0, 1] is kept only with VK_EXT_depth_range_unrestricted and a float depth
  // attachment; otherwise it is undefined, and Tessera clamps it to [0, 1] (see rules.h).
  if (!(state.depthRangeUnrestricted && isFloatDepthFormat(state.depthFormat))) {
    range.min = std::clamp(range.min, 0.0f, 1.0f);
    range.max = std::clamp(range.max, 0.0f, 1.0f);
  }
  return range;
}

}  // namespace tessera::raster::rules
