// GLSL.std.450 for 32-bit floats (glsl_float.comp: one opcode per function) against long-double
// references, within the precision the Vulkan spec allows ("Precision and Operation of SPIR-V
// Instructions", Vulkan 1.3 appendix A): sin/cos 2^-11 absolute in [-pi, pi]; exp/exp2
// (3 + 2|x|) ULP; log/log2 3 ULP outside [0.5, 2], 2^-21 absolute inside; inversesqrt 2 ULP;
// division 2.5 ULP; atan/atan2 4096 ULP; everything else inherited from the formula the spec
// gives it (sqrt = 1 / inversesqrt, pow = exp2(y * log2(x)), tan = sin / cos, sinh = (e^x -
// e^-x) / 2, asinh = log(x + sqrt(x^2 + 1)), ...), with the error bound propagated through
// that formula below. Exact functions (floor, min, frexp, ...) are compared exactly. Every
// result must also be bit-identical at W = 4, 8 and 16.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <functional>

#include "compute_harness.h"

namespace tessera_test {
namespace {

struct Item {
  float a[4], c[4];
  uint32_t bits[4];
};
static_assert(sizeof(Item) == 48);

using LD = long double;
constexpr double kTwoM21 = 1.0 / (1 << 21);
constexpr double kTwoM11 = 1.0 / (1 << 11);
const double kPi = 3.14159265358979323846;

double ulp(double x) { return ulpOf(float(x)); }

struct Result {
  const float* r;
  const uint32_t* u;
};

// One function: its opcode in glsl_float.comp, inputs, and a checker that returns "" when the
// result is acceptable, else a description.
struct Case {
  uint32_t op;
  const char* name;
  std::function<void(Rng&, std::vector<Item>&)> inputs;
  std::function<std::string(const Item&, Result)> check;
};

std::string near(double got, LD want, double tolerance) {
  if ((std::isnan(double(want)) && std::isnan(got)) || LD(got) == want) return "";
  if (std::fabs(LD(got) - want) <= tolerance) return "";
  char text[200];
  std::snprintf(text, sizeof text, "got %.9g, want %.12Lg (error %.3g > tolerance %.3g)", got, want,
                double(std::fabs(LD(got) - want)), tolerance);
  return text;
}
std::string exact(double got, LD want) { return near(got, want, 0); }

Item item(float x, float y = 0, float z = 0, float w = 0) {
  Item it{};
  it.a[0] = x, it.a[1] = y, it.a[2] = z, it.a[3] = w;
  return it;
}

// Unary inputs: the given specials, then n random values in [lo, hi].
std::function<void(Rng&, std::vector<Item>&)> unary(std::vector<float> specials, float lo, float hi, int n = 200) {
  return [=](Rng& rng, std::vector<Item>& out) {
    for (float s : specials) out.push_back(item(s));
    for (int k = 0; k < n; ++k) out.push_back(item(rng.uniform(lo, hi)));
  };
}
std::function<void(Rng&, std::vector<Item>&)> binary(float lo0, float hi0, float lo1, float hi1, int n = 300) {
  return [=](Rng& rng, std::vector<Item>& out) {
    for (int k = 0; k < n; ++k) out.push_back(item(rng.uniform(lo0, hi0), rng.uniform(lo1, hi1)));
  };
}
// Small-integer vectors in a and c (exact dot products, cross products).
void integerVectors(Rng& rng, std::vector<Item>& out) {
  for (int k = 0; k < 200; ++k) {
    Item it{};
    for (int j = 0; j < 4; ++j) it.a[j] = float(rng.range(-9, 9)), it.c[j] = float(rng.range(-9, 9));
    out.push_back(it);
  }
}
void randomVectors(Rng& rng, std::vector<Item>& out) {
  for (int k = 0; k < 200; ++k) {
    Item it{};
    for (int j = 0; j < 4; ++j) it.a[j] = rng.uniform(-50, 50), it.c[j] = rng.uniform(-50, 50);
    out.push_back(it);
  }
}
void randomBits(Rng& rng, std::vector<Item>& out) {
  for (uint32_t s : {0u, 0xffffffffu, 0x80808080u, 0x7f7f7f7fu, 0x81018101u, 0x00ff7fffu, 0x3c00bc00u, 0x7c00fc00u}) {
    Item it{};
    it.bits[0] = s;
    out.push_back(it);
  }
  for (int k = 0; k < 200; ++k) {
    Item it{};
    it.bits[0] = uint32_t(rng.next());
    out.push_back(it);
  }
}

const std::vector<float> kRounding = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49999997f, 1e-3f, 123.456f, -7.999f,
                                      8388607.5f, 3e9f, -1e30f, 1.0f, -1.0f};

// Bound for tan computed as sin/cos with each within 2^-11, then one 2.5-ULP division.
double tanTolerance(double x) {
  double s = std::fabs(std::sin(x)), c = std::fabs(std::cos(x));
  return kTwoM11 * (s + c) / (c * (c - kTwoM11)) + 2.5 * ulp(std::tan(x)) * (1 + kTwoM11 / c);
}
// log/log2 error at argument v (result r).
double logError(double v, double r) { return v >= 0.5 && v <= 2.0 ? kTwoM21 : 3 * ulp(r); }

// Accepts either rounding of the scaled value at a tie (GLSL's round() picks the direction).
bool packedMatches(uint32_t got, const float* c, int count, int bits, bool isSigned) {
  for (int k = 0; k < count; ++k) {
    double scale = isSigned ? double((1 << (bits - 1)) - 1) : double((1 << bits) - 1);
    double v = std::clamp(double(c[k]), isSigned ? -1.0 : 0.0, 1.0) * scale;
    int64_t a = int64_t(std::floor(v)), b = int64_t(std::ceil(v));
    uint32_t field = (got >> (bits * k)) & ((1u << bits) - 1);
    uint32_t mask = (1u << bits) - 1;
    bool ok = field == (uint32_t(a) & mask) || field == (uint32_t(b) & mask);
    // Only the nearest integer qualifies, or either one near a tie (the product c * scale is
    // itself rounded to float before round()).
    if (v - double(a) < 0.499) ok = field == (uint32_t(a) & mask);
    if (double(b) - v < 0.499) ok = field == (uint32_t(b) & mask);
    if (!ok) return false;
  }
  return true;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  auto add = [&](uint32_t op, const char* name, auto inputs, auto check) { v.push_back({op, name, inputs, check}); };
  // Exact: rounding and sign functions.
  add(0, "round", unary(kRounding, -1000, 1000), [](const Item& it, Result r) {
    float x = it.a[0];
    float f = std::floor(x);
    if (x - f == 0.5f) return r.r[0] == f || r.r[0] == f + 1 ? std::string() : exact(r.r[0], f);
    return exact(r.r[0], std::round(x));
  });
  add(1, "roundEven", unary(kRounding, -1000, 1000), [](const Item& it, Result r) { return exact(r.r[0], std::nearbyint(it.a[0])); });
  add(2, "trunc", unary(kRounding, -1000, 1000), [](const Item& it, Result r) { return exact(r.r[0], std::trunc(it.a[0])); });
  add(3, "abs", unary(kRounding, -1000, 1000), [](const Item& it, Result r) { return exact(r.r[0], std::fabs(it.a[0])); });
  add(4, "sign", unary(kRounding, -1000, 1000), [](const Item& it, Result r) {
    float x = it.a[0];
    return exact(r.r[0], x > 0 ? 1.0f : x < 0 ? -1.0f : 0.0f);
  });
  add(5, "floor", unary(kRounding, -1000, 1000), [](const Item& it, Result r) { return exact(r.r[0], std::floor(it.a[0])); });
  add(6, "ceil", unary(kRounding, -1000, 1000), [](const Item& it, Result r) { return exact(r.r[0], std::ceil(it.a[0])); });
  add(7, "fract", unary(kRounding, -1000, 1000), [](const Item& it, Result r) {
    float x = it.a[0];
    return exact(r.r[0], x - std::floor(x));  // defined as x - floor(x), one rounding
  });
  // Inherited from a multiplication by a rounded constant: 2 ULP.
  add(8, "radians", unary({0, 180, -90, 1e30f}, -1000, 1000), [](const Item& it, Result r) {
    LD want = LD(it.a[0]) * (3.14159265358979323846264338327950288L / 180);
    return near(r.r[0], want, 2 * ulp(double(want)));
  });
  add(9, "degrees", unary({0, 3.14159265f, -1, 1e30f}, -100, 100), [](const Item& it, Result r) {
    LD want = LD(it.a[0]) * (180 / 3.14159265358979323846264338327950288L);
    return near(r.r[0], want, 2 * ulp(double(want)));
  });
  // Trigonometry: 2^-11 absolute inside [-pi, pi].
  const float pi = float(kPi);
  add(10, "sin", unary({0, -0.0f, pi, -pi, pi / 2, -pi / 2, 1e-4f, 1e-30f, -1e-40f}, -pi, pi, 2000),
      [](const Item& it, Result r) { return near(r.r[0], sinl(it.a[0]), kTwoM11); });
  add(11, "cos", unary({0, -0.0f, pi, -pi, pi / 2, -pi / 2, 1e-4f}, -pi, pi, 2000),
      [](const Item& it, Result r) { return near(r.r[0], cosl(it.a[0]), kTwoM11); });
  // Beyond [-pi, pi] the spec bounds nothing; Tessera keeps 2^-11 up to |x| = 10^4 (shaders pass
  // angles of a few turns) and sin and cos in [-1, 1] for every finite x, NaN for inf and NaN.
  auto trigBeyond = [](LD (*fn)(LD)) {
    return [fn](const Item& it, Result r) -> std::string {
      const float x = it.a[0];
      if (std::isnan(x) || std::isinf(x)) return std::isnan(r.r[0]) ? "" : "want NaN";
      if (std::fabs(x) <= 1e4f) return near(r.r[0], fn(x), kTwoM11);
      return std::fabs(r.r[0]) <= 1.0f ? "" : "outside [-1, 1]";
    };
  };
  add(10, "sin beyond [-pi, pi]", unary({1e30f, -3e9f, 1e5f, INFINITY, -INFINITY, NAN, 1e4f}, -1e4f, 1e4f, 500),
      trigBeyond([](LD x) { return sinl(x); }));
  add(11, "cos beyond [-pi, pi]", unary({1e30f, -3e9f, 1e5f, INFINITY, -INFINITY, NAN, -1e4f}, -1e4f, 1e4f, 500),
      trigBeyond([](LD x) { return cosl(x); }));
  add(12, "tan", unary({0, 1, -1, 0.7853982f, 1.4f}, -1.45f, 1.45f), [](const Item& it, Result r) {
    return near(r.r[0], tanl(it.a[0]), tanTolerance(it.a[0]));
  });
  // asin/acos: inherited from atan2 (4096 ULP) of a sqrt-based argument.
  add(13, "asin", unary({0, 1, -1, 0.5f, -0.999f}, -1, 1), [](const Item& it, Result r) {
    LD want = asinl(it.a[0]);
    return near(r.r[0], want, 4096 * ulp(double(want)) + 1e-6);
  });
  add(14, "acos", unary({0, 1, -1, 0.5f, 0.999f}, -1, 1), [](const Item& it, Result r) {
    LD want = acosl(it.a[0]);
    return near(r.r[0], want, 4096 * ulp(double(want)) + 1e-6);
  });
  add(15, "atan", unary({0, 1, -1, 1e30f, -1e30f, 1e-20f}, -100, 100), [](const Item& it, Result r) {
    LD want = atanl(it.a[0]);
    return near(r.r[0], want, 4096 * ulp(double(want)));
  });
  // Hyperbolic: inherited from exp ((3 + 2|x|) ULP each) through the textbook formulas.
  auto expRel = [](double x) { return (3 + 2 * std::fabs(x)) * std::ldexp(1.0, -23); };
  add(16, "sinh", unary({0, 1, -1, 10, -10}, -10, 10), [=](const Item& it, Result r) {
    double x = it.a[0];
    return near(r.r[0], sinhl(x), 1.5 * expRel(x) * std::cosh(x) + 2 * ulp(std::sinh(x)));
  });
  add(17, "cosh", unary({0, 1, -1, 10, -10}, -10, 10), [=](const Item& it, Result r) {
    double x = it.a[0];
    return near(r.r[0], coshl(x), 1.5 * expRel(x) * std::cosh(x) + 2 * ulp(std::cosh(x)));
  });
  add(18, "tanh", unary({0, 1, -1, 10, -10}, -10, 10), [=](const Item& it, Result r) {
    double x = it.a[0];
    return near(r.r[0], tanhl(x), 2 * expRel(x) + 3 * ulp(std::tanh(x)));
  });
  // Inverse hyperbolic: inherited from log of an argument computed in float.
  add(19, "asinh", unary({0, 1, -1, 100, -100}, -100, 100), [](const Item& it, Result r) {
    double x = it.a[0];
    double s = std::sqrt(x * x + 1), arg = x + s;
    double argError = 2 * ulp(x * x + 1) / (2 * s) * s + ulp(s) + ulp(arg) + 2 * ulp(std::fabs(x) + s);
    double want = std::asinh(x);
    return near(r.r[0], asinhl(x), argError / arg + logError(arg, want) + ulp(want));
  });
  add(20, "acosh", unary({1, 1.0001f, 2, 100}, 1, 100), [](const Item& it, Result r) {
    double x = it.a[0];
    double u = x * x - 1, s = std::sqrt(u), arg = x + s;
    double sError = u > 0 ? 2 * ulp(x * x) / (2 * s) + ulp(s) : std::sqrt(2 * ulp(x * x));
    double want = std::acosh(x);
    return near(r.r[0], acoshl(x), (sError + ulp(arg)) / arg + logError(arg, want) + ulp(want));
  });
  add(21, "atanh", unary({0, 0.5f, -0.5f, 0.99f, -0.99f}, -0.99f, 0.99f), [](const Item& it, Result r) {
    double x = it.a[0];
    double q = (1 + x) / (1 - x), lq = std::log(q);
    return near(r.r[0], atanhl(x), 0.5 * (4 * std::ldexp(1.0, -24) + logError(q, lq)) + ulp(std::atanh(x)));
  });
  add(22, "atan2", [](Rng& rng, std::vector<Item>& out) {
        for (float y : {1.0f, -1.0f, 0.0f})
          for (float x : {1.0f, -1.0f, 0.0f})
            if (x != 0 || y != 0) out.push_back(item(x, y));
        for (int k = 0; k < 300; ++k) out.push_back(item(rng.uniform(-100, 100), rng.uniform(-100, 100)));
      },
      [](const Item& it, Result r) {
        LD want = atan2l(it.a[1], it.a[0]);
        return near(r.r[0], want, 4096 * ulp(double(want)));
      });
  // pow: inherited from exp2(y * log2(x)).
  add(23, "pow", binary(1e-3f, 100, -4, 4), [](const Item& it, Result r) {
    double x = it.a[0], y = it.a[1];
    double l = std::log2(x), t = y * l, want = std::pow(x, y);
    double tError = std::fabs(y) * logError(x, l) + ulp(t);
    return near(r.r[0], powl(x, y), want * std::log(2.0) * tError * 1.01 + (3 + 2 * std::fabs(t)) * ulp(want));
  });
  // pow with a constant integer exponent (multiplications in the JIT), against the same
  // inherited bound, on x where every result is a normal float, a few specials included.
  auto powConstants = [&](uint32_t op, const char* name, std::array<double, 4> exponents) {
    add(op, name, [](Rng& rng, std::vector<Item>& out) {
          for (float s : {1.0f, 0.5f, 2.0f, 0.0f, 0.999f, 1.001f, 3.9f}) out.push_back(item(s));
          for (int k = 0; k < 300; ++k) out.push_back(item(rng.uniform(0.26f, 3.9f)));
        },
        [exponents](const Item& it, Result r) {
          for (int k = 0; k < 4; ++k) {
            const double x = it.a[0], y = exponents[k];
            if (x == 0) {  // 0^n: 0 for n > 0, +inf for n < 0
              if (auto e = exact(r.r[k], y > 0 ? 0.0 : double(INFINITY)); !e.empty()) return "exponent " + std::to_string(y) + ": " + e;
              continue;
            }
            const double l = std::log2(x), t = y * l, want = std::pow(x, y);
            const double tError = std::fabs(y) * logError(x, l) + ulp(t);
            if (auto e = near(r.r[k], powl(x, y), want * std::log(2.0) * tError * 1.01 + (3 + 2 * std::fabs(t)) * ulp(want));
                !e.empty())
              return "exponent " + std::to_string(y) + ": " + e;
          }
          return std::string();
        });
  };
  powConstants(62, "pow (constant exponents 2, 3, 32, -3)", {2, 3, 32, -3});
  powConstants(63, "pow (constant exponents 5, 64, -1, 17)", {5, 64, -1, 17});
  // exp and exp2: (3 + 2|x|) ULP, overflow to inf, underflow to denormals or 0 (which the
  // tolerance admits: denormal results may be flushed), NaN in NaN out.
  add(24, "exp", unary({0, -0.0f, 1, -1, 80, -80, 88.7f, 88.73f, -87.3f, -100, -104, 1000, -1000, INFINITY, -INFINITY, NAN, 1e-8f},
                       -88, 88, 1000),
      [](const Item& it, Result r) {
    LD want = expl(it.a[0]);
    return near(r.r[0], want, (3 + 2 * std::fabs(it.a[0])) * ulp(double(want)));
  });
  add(25, "log", unary({1, 0.5f, 2, 1e30f, 1e-30f, 2.718281828f}, 1e-3f, 1000), [](const Item& it, Result r) {
    LD want = logl(it.a[0]);
    return near(r.r[0], want, logError(it.a[0], double(want)));
  });
  add(26, "exp2", unary({0, 1, -1, 120, -120, 0.5f, 127.9f, 128, -126, -140, -149, -150, -151, 1000, INFINITY, -INFINITY, NAN},
                        -127, 127, 1000),
      [](const Item& it, Result r) {
    LD want = exp2l(it.a[0]);
    return near(r.r[0], want, (3 + 2 * std::fabs(it.a[0])) * ulp(double(want)));
  });
  add(27, "log2", unary({1, 0.5f, 2, 1024, 1e30f, 1e-30f, 3e38f, 1.5e-38f, 0.70710677f, 0.7071068f, 1.4142135f}, 1e-3f, 1000), [](const Item& it, Result r) {
    LD want = log2l(it.a[0]);
    return near(r.r[0], want, logError(it.a[0], double(want)));
  });
  // sqrt: inherited from 1 / inversesqrt (2 ULP, then a 2.5-ULP division).
  add(28, "sqrt", unary({0, 1, 4, 2, 1e30f, 1e-30f}, 0, 1e6f), [](const Item& it, Result r) {
    LD want = sqrtl(it.a[0]);
    return near(r.r[0], want, 4.5 * ulp(double(want)));
  });
  // (On AVX-512 hosts an estimate and a Newton step: the specials are its edges, the smallest
  // normal's neighbourhood held its largest error, denormals are scaled by the estimate; then
  // values spread over every binade, as well as the usual range.)
  add(29, "inversesqrt",
      [](Rng& rng, std::vector<Item>& out) {
        for (float s : {1.0f, 4.0f, 2.0f, 1e30f, 1e-30f, 1.17549435e-38f, 0x1.0bb7a4p-126f, 1e-40f, 1.4e-45f, 3.4028235e38f, 0.0f,
                        -0.0f, HUGE_VALF, -1.0f, -HUGE_VALF, std::nanf("")})
          out.push_back(item(s));
        for (int k = 0; k < 400; ++k) out.push_back(item(std::ldexp(rng.uniform(1.0f, 2.0f), int(rng.range(-149, 127)))));
        for (int k = 0; k < 200; ++k) out.push_back(item(rng.uniform(1e-6f, 1e6f)));
      },
      [](const Item& it, Result r) {
        LD want = 1 / sqrtl(it.a[0]);
        return near(r.r[0], want, 2 * ulp(double(want)));
      });
  add(30, "modf", unary(kRounding, -1000, 1000), [](const Item& it, Result r) {
    float x = it.a[0], whole = std::trunc(x);
    std::string e = exact(r.r[1], whole);
    return e.empty() ? exact(r.r[0], x - whole) : e;
  });
  add(31, "frexp", unary({0, 1, -1, 0.5f, 3, 1e30f, -1e-30f, 1024}, -1e6f, 1e6f), [](const Item& it, Result r) {
    int e = 0;
    float m = std::frexp(it.a[0], &e);
    std::string s = exact(r.r[0], m);
    return s.empty() ? exact(double(int32_t(r.u[0])), e) : s;
  });
  add(32, "ldexp", [](Rng& rng, std::vector<Item>& out) {
        for (int k = 0; k < 200; ++k) out.push_back(item(rng.uniform(-100, 100), float(rng.range(-20, 20))));
      },
      [](const Item& it, Result r) { return exact(r.r[0], std::ldexp(it.a[0], int(it.a[1]))); });
  add(33, "min", binary(-100, 100, -100, 100), [](const Item& it, Result r) { return exact(r.r[0], std::min(it.a[0], it.a[1])); });
  add(34, "max", binary(-100, 100, -100, 100), [](const Item& it, Result r) { return exact(r.r[0], std::max(it.a[0], it.a[1])); });
  add(35, "clamp", [](Rng& rng, std::vector<Item>& out) {
        for (int k = 0; k < 300; ++k) {
          float lo = rng.uniform(-50, 50), hi = lo + rng.uniform(0, 50);
          out.push_back(item(rng.uniform(-100, 100), lo, hi));
        }
      },
      [](const Item& it, Result r) { return exact(r.r[0], std::clamp(it.a[0], it.a[1], it.a[2])); });
  add(36, "mix", [](Rng& rng, std::vector<Item>& out) {
        for (int k = 0; k < 300; ++k) out.push_back(item(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(0, 1)));
      },
      [](const Item& it, Result r) {
        double x = it.a[0], y = it.a[1], a = it.a[2];
        LD want = LD(x) * (1 - LD(a)) + LD(y) * a;  // inherited from x * (1 - a) + y * a
        return near(r.r[0], want, ulp(x * (1 - a)) + ulp(y * a) + std::fabs(x) * ulp(1 - a) + ulp(double(want)));
      });
  add(37, "step", binary(-10, 10, -10, 10), [](const Item& it, Result r) { return exact(r.r[0], it.a[1] < it.a[0] ? 0.0 : 1.0); });
  add(38, "smoothstep", [](Rng& rng, std::vector<Item>& out) {
        for (int k = 0; k < 300; ++k) {
          float e0 = rng.uniform(-10, 10), e1 = e0 + rng.uniform(0.1f, 10);
          out.push_back(item(e0, e1, rng.uniform(e0 - 2, e1 + 2)));
        }
      },
      [](const Item& it, Result r) {
        LD t = std::clamp((LD(it.a[2]) - it.a[0]) / (LD(it.a[1]) - it.a[0]), 0.0L, 1.0L);
        return near(r.r[0], t * t * (3 - 2 * t), 1e-6);  // inherited: a few roundings of values <= 3
      });
  add(39, "fma", [](Rng& rng, std::vector<Item>& out) {
        for (int k = 0; k < 300; ++k) out.push_back(item(rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(-1e4f, 1e4f)));
      },
      [](const Item& it, Result r) {
        LD want = LD(it.a[0]) * it.a[1] + it.a[2];  // fused or not: inherited from OpFMul + OpFAdd
        return near(r.r[0], want, ulp(double(it.a[0]) * it.a[1]) + ulp(double(want)));
      });
  // Geometric functions: inherited from dot products and sqrt.
  add(40, "length", randomVectors, [](const Item& it, Result r) {
    LD s = 0;
    for (int k = 0; k < 3; ++k) s += LD(it.a[k]) * it.a[k];
    LD want = sqrtl(s);
    return near(r.r[0], want, 8 * ulp(double(want)));
  });
  add(41, "distance", randomVectors, [](const Item& it, Result r) {
    LD s = 0;
    double diffUlps = 0;
    for (int k = 0; k < 3; ++k) {
      LD d = LD(it.a[k]) - it.c[k];
      s += d * d;
      diffUlps += ulp(double(d));
    }
    LD want = sqrtl(s);
    return near(r.r[0], want, 8 * ulp(double(want)) + diffUlps);
  });
  add(42, "normalize", randomVectors, [](const Item& it, Result r) {
    LD s = 0;
    for (int k = 0; k < 3; ++k) s += LD(it.a[k]) * it.a[k];
    for (int k = 0; k < 3; ++k) {
      std::string e = near(r.r[k], it.a[k] / sqrtl(s), 12 * std::ldexp(1.0, -24));
      if (!e.empty()) return "component " + std::to_string(k) + ": " + e;
    }
    return std::string();
  });
  add(43, "cross", integerVectors, [](const Item& it, Result r) {
    const float* a = it.a;
    const float* c = it.c;
    LD want[3] = {LD(a[1]) * c[2] - LD(a[2]) * c[1], LD(a[2]) * c[0] - LD(a[0]) * c[2], LD(a[0]) * c[1] - LD(a[1]) * c[0]};
    for (int k = 0; k < 3; ++k)
      if (auto e = exact(r.r[k], want[k]); !e.empty()) return e;
    return std::string();
  });
  add(44, "dot", integerVectors, [](const Item& it, Result r) {
    LD s = 0;
    for (int k = 0; k < 4; ++k) s += LD(it.a[k]) * it.c[k];
    return exact(r.r[0], s);
  });
  add(45, "faceforward", integerVectors, [](const Item& it, Result r) {
    LD d = LD(it.a[3]) * it.c[0] + LD(it.c[3]) * it.c[1] + 1.0L * it.c[2];  // dot(Nref, I)
    for (int k = 0; k < 3; ++k)
      if (auto e = exact(r.r[k], d < 0 ? it.a[k] : -it.a[k]); !e.empty()) return e;
    return std::string();
  });
  add(46, "reflect", integerVectors, [](const Item& it, Result r) {
    LD d = 0;
    for (int k = 0; k < 3; ++k) d += LD(it.c[k]) * it.a[k];
    for (int k = 0; k < 3; ++k)
      if (auto e = exact(r.r[k], it.a[k] - 2 * d * it.c[k]); !e.empty()) return e;
    return std::string();
  });
  add(47, "refract", [](Rng& rng, std::vector<Item>& out) {
        while (out.size() < 300) {
          Item it{};
          double li = 0, ln = 0;
          for (int j = 0; j < 3; ++j) it.a[j] = rng.uniform(-1, 1), it.c[j] = rng.uniform(-1, 1);
          for (int j = 0; j < 3; ++j) li += double(it.a[j]) * it.a[j], ln += double(it.c[j]) * it.c[j];
          if (li < 0.01 || ln < 0.01) continue;
          for (int j = 0; j < 3; ++j) it.a[j] = float(it.a[j] / std::sqrt(li)), it.c[j] = float(it.c[j] / std::sqrt(ln));
          it.a[3] = rng.uniform(0.5f, 1.5f);
          double d = 0;
          for (int j = 0; j < 3; ++j) d += double(it.c[j]) * it.a[j];
          double k = 1 - double(it.a[3]) * it.a[3] * (1 - d * d);
          if (std::fabs(k) < 1e-3) continue;  // total internal reflection decided by rounding
          out.push_back(it);
        }
      },
      [](const Item& it, Result r) {
        LD eta = it.a[3], d = 0;
        for (int j = 0; j < 3; ++j) d += LD(it.c[j]) * it.a[j];
        LD k = 1 - eta * eta * (1 - d * d);
        for (int j = 0; j < 3; ++j) {
          LD want = k < 0 ? 0 : eta * it.a[j] - (eta * d + sqrtl(k)) * it.c[j];
          if (auto e = near(r.r[j], want, 1e-5); !e.empty()) return e;
        }
        return std::string();
      });
  auto packInputs = [](Rng& rng, std::vector<Item>& out) {
    for (int k = 0; k < 300; ++k) {
      Item it{};
      for (int j = 0; j < 4; ++j) it.a[j] = rng.uniform(-1.5f, 1.5f);
      if (k < 4) it.a[k] = k % 2 ? 1.0f : -1.0f;
      out.push_back(it);
    }
  };
  add(48, "packUnorm4x8", packInputs, [](const Item& it, Result r) {
    return packedMatches(r.u[0], it.a, 4, 8, false) ? "" : "packed " + std::to_string(r.u[0]);
  });
  add(49, "packSnorm4x8", packInputs, [](const Item& it, Result r) {
    return packedMatches(r.u[0], it.a, 4, 8, true) ? "" : "packed " + std::to_string(r.u[0]);
  });
  add(50, "packUnorm2x16", packInputs, [](const Item& it, Result r) {
    return packedMatches(r.u[0], it.a, 2, 16, false) ? "" : "packed " + std::to_string(r.u[0]);
  });
  add(51, "packSnorm2x16", packInputs, [](const Item& it, Result r) {
    return packedMatches(r.u[0], it.a, 2, 16, true) ? "" : "packed " + std::to_string(r.u[0]);
  });
  add(52, "packHalf2x16", binary(-70000, 70000, -2, 2), [](const Item& it, Result r) {
    for (int k = 0; k < 2; ++k) {
      uint16_t bits = uint16_t(r.u[0] >> (16 * k));
      _Float16 h;
      std::memcpy(&h, &bits, 2);
      _Float16 rte = static_cast<_Float16>(it.a[k]);
      // Either neighbour of the exact value (the rounding of this conversion is not fixed).
      double spacing = std::fabs(double(rte)) < 6.1035156e-05 ? std::ldexp(1.0, -24)
                                                              : std::ldexp(1.0, std::ilogb(double(rte)) - 10);
      if (std::isinf(double(rte))) {
        if (!(std::isinf(double(h)) || std::fabs(double(h)) == 65504.0)) return std::string("overflow not to inf/max");
        continue;
      }
      if (std::fabs(double(h) - it.a[k]) > spacing) return "component " + std::to_string(k) + ": " + std::to_string(double(h));
    }
    return std::string();
  });
  auto unpackNorm = [](int bits, int count, bool isSigned) {
    return [=](const Item& it, Result r) {
      for (int k = 0; k < count; ++k) {
        uint32_t field = (it.bits[0] >> (bits * k)) & ((1u << bits) - 1);
        LD want;
        if (isSigned) {
          int32_t s = int32_t(field << (32 - bits)) >> (32 - bits);
          want = std::max(LD(s) / ((1 << (bits - 1)) - 1), -1.0L);
        } else {
          want = LD(field) / ((1 << bits) - 1);
        }
        if (auto e = near(r.r[k], want, 3 * ulp(double(want))); !e.empty()) return e;  // a 2.5-ULP division
      }
      return std::string();
    };
  };
  add(53, "unpackUnorm4x8", randomBits, unpackNorm(8, 4, false));
  add(54, "unpackSnorm4x8", randomBits, unpackNorm(8, 4, true));
  add(55, "unpackUnorm2x16", randomBits, unpackNorm(16, 2, false));
  add(56, "unpackSnorm2x16", randomBits, unpackNorm(16, 2, true));
  add(57, "unpackHalf2x16", randomBits, [](const Item& it, Result r) {
    for (int k = 0; k < 2; ++k) {
      uint16_t bits = uint16_t(it.bits[0] >> (16 * k));
      _Float16 h;
      std::memcpy(&h, &bits, 2);
      if (auto e = exact(r.r[k], double(h)); !e.empty()) return e;
    }
    return std::string();
  });
  add(58, "isnan/isinf", unary({0, 1, -1, INFINITY, -INFINITY, NAN, -NAN, 1e30f, 1e-40f}, -1, 1, 10), [](const Item& it, Result r) {
    uint32_t want = uint32_t(std::isnan(it.a[0])) | uint32_t(std::isinf(it.a[0])) << 1;
    return r.u[0] == want ? "" : "got " + std::to_string(r.u[0]);
  });
  add(59, "mod", [](Rng& rng, std::vector<Item>& out) {
        while (out.size() < 300) {
          float x = rng.uniform(-100, 100), y = rng.uniform(0.5f, 10) * (rng.next() % 2 ? 1 : -1);
          double q = double(x) / y, f = q - std::floor(q);
          if (f < 1e-4 || f > 1 - 1e-4) continue;  // floor(x / y) decided by rounding
          out.push_back(item(x, y));
        }
      },
      [](const Item& it, Result r) {
        LD x = it.a[0], y = it.a[1];
        LD want = x - y * floorl(x / y);
        return near(r.r[0], want, 4 * ulp(std::fabs(double(x)) + std::fabs(double(y))));
      });
  add(60, "length/normalize/distance of scalars", binary(-100, 100, -100, 100), [](const Item& it, Result r) {
    float x = it.a[0], y = it.a[1];
    if (auto e = exact(r.r[0], std::fabs(x)); !e.empty()) return e;
    if (auto e = exact(r.r[1], x > 0 ? 1.0 : -1.0); !e.empty()) return e;
    return exact(r.r[2], std::fabs(x - y));
  });
  add(61, "frexp (vector)", binary(-1e6f, 1e6f, -1e-3f, 1e-3f), [](const Item& it, Result r) {
    for (int k = 0; k < 2; ++k) {
      int e = 0;
      float m = std::frexp(it.a[k], &e);
      if (auto s = exact(r.r[k], m); !s.empty()) return s;
      if (auto s = exact(r.r[2 + k], e); !s.empty()) return s;
    }
    return std::string();
  });
  return v;
}

TEST(GlslStd450, EveryFloatFunctionWithinTheSpecPrecisionAtEveryWidth) {
  std::vector<std::shared_ptr<const tessera::jit::ComputeProgram>> programs;
  for (uint32_t w : kSimdWidths) {
    ComputeRun run;
    run.shader = "glsl_float";
    run.simdWidth = w;
    run.buffers.resize(3);
    auto r = compileShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    programs.push_back(r.program);
  }
  for (const Case& c : cases()) {
    Rng rng(c.op + 1);
    std::vector<Item> in;
    c.inputs(rng, in);
    const uint32_t n = uint32_t(in.size());
    std::vector<std::vector<uint8_t>> outputs;
    for (size_t w = 0; w < programs.size(); ++w) {
      auto inBytes = bytesOf(in);
      std::vector<uint8_t> out(16 * n, 0xEE), outU(16 * n, 0xEE);
      ComputeRun run;
      run.groups[0] = (n + 63) / 64;
      run.buffers = {&inBytes, &out, &outU};
      run.pushConstants = pushBytes(c.op, n);
      dispatch(*programs[w], run);
      auto r = valuesOf<float>(out);
      auto u = valuesOf<uint32_t>(outU);
      int failures = 0;
      for (uint32_t i = 0; i < n && failures < 5; ++i) {
        std::string why = c.check(in[i], Result{&r[4 * i], &u[4 * i]});
        if (!why.empty()) {
          ADD_FAILURE() << c.name << " at W=" << kSimdWidths[w] << ", inputs (" << in[i].a[0] << ", " << in[i].a[1] << ", "
                        << in[i].a[2] << ", " << in[i].a[3] << ") bits " << in[i].bits[0] << ": " << why;
          ++failures;
        }
      }
      out.insert(out.end(), outU.begin(), outU.end());
      outputs.push_back(std::move(out));
    }
    for (size_t w = 1; w < outputs.size(); ++w)
      EXPECT_TRUE(outputs[w] == outputs[0]) << c.name << ": results differ between W=" << kSimdWidths[0] << " and W="
                                            << kSimdWidths[w];
  }
}

}  // namespace
}  // namespace tessera_test
