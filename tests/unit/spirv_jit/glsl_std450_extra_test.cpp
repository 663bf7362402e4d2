// GLSL.std.450 beyond 32-bit GLSL: the double-precision functions (glsl_double.comp; the
// Vulkan spec requires doubles to be at least as precise as floats, so the inherited bounds
// below are float-sized), and, from SPIR-V assembly, the instructions glslang never emits
// (NMin, NMax, NClamp with NaN operands, ModfStruct, the pointer form of Frexp).
#include <gtest/gtest.h>

#include <cmath>

#include "compute_harness.h"

namespace tessera_test {
namespace {

struct DItem {
  double a[4], c[4];
};

constexpr double kFloatEps = 1.0 / (1 << 23);

// |got - want| <= rel * |want| + abs, or both NaN.
bool close(double got, long double want, double rel, double abs = 0) {
  if (std::isnan(got) && std::isnan(double(want))) return true;
  return std::fabs((long double)got - want) <= rel * std::fabs(double(want)) + abs;
}

using Programs = std::vector<std::shared_ptr<const tessera::jit::ComputeProgram>>;

// glsl_double.comp compiled at every width.
Programs compileDouble() {
  Programs programs;
  for (uint32_t w : kSimdWidths) {
    ComputeRun run;
    run.shader = "glsl_double";
    run.simdWidth = w;
    run.buffers.resize(3);
    auto r = compileShader(run);
    EXPECT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    programs.push_back(r.program);
  }
  return programs;
}

// Runs opcode `op` on `in` at every width; returns r and ru per width.
std::vector<std::pair<std::vector<double>, std::vector<uint32_t>>> runDouble(const Programs& programs, uint32_t op,
                                                                             const std::vector<DItem>& in) {
  const uint32_t n = uint32_t(in.size());
  std::vector<std::pair<std::vector<double>, std::vector<uint32_t>>> out;
  for (const auto& program : programs) {
    if (!program) return {};
    auto inBytes = bytesOf(in);
    auto r = zeros<double>(4 * n), ru = zeros<uint32_t>(4 * n);
    ComputeRun run;
    run.groups[0] = (n + 63) / 64;
    run.buffers = {&inBytes, &r, &ru};
    run.pushConstants = pushBytes(op, n);
    dispatch(*program, run);
    out.push_back({valuesOf<double>(r), valuesOf<uint32_t>(ru)});
  }
  // Bitwise (NaNs included) identical at every width.
  for (size_t w = 1; w < out.size(); ++w)
    EXPECT_TRUE(std::memcmp(out[w].first.data(), out[0].first.data(), 8 * out[0].first.size()) == 0 &&
                out[w].second == out[0].second)
        << "opcode " << op << ": W=" << kSimdWidths[w] << " differs from W=" << kSimdWidths[0];
  return out;
}

std::vector<DItem> doubleInputs(uint64_t seed, bool integers) {
  Rng rng(seed);
  std::vector<DItem> in;
  for (int k = 0; k < 200; ++k) {
    DItem it{};
    for (int j = 0; j < 4; ++j) {
      it.a[j] = integers ? double(rng.range(-9, 9)) : double(int64_t(rng.next() % 2000000) - 1000000) / 9973.0;
      it.c[j] = integers ? double(rng.range(-9, 9)) : double(int64_t(rng.next() % 2000000) - 1000000) / 7919.0;
    }
    in.push_back(it);
  }
  for (double s : {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 4503599627370495.5, 1e300, 1.0}) {
    if (integers) break;
    DItem it{};
    it.a[0] = s, it.a[1] = -s, it.a[2] = 0.25, it.a[3] = 1;
    for (double& c : it.c) c = 1;
    in.push_back(it);
  }
  return in;
}

TEST(GlslStd450, DoubleFunctions) {
  auto in = doubleInputs(1, false);
  auto ints = doubleInputs(2, true);
  const Programs programs = compileDouble();
  auto check = [&](uint32_t op, const std::vector<DItem>& inputs, auto fn) {
    auto results = runDouble(programs, op, inputs);
    for (size_t w = 0; w < results.size(); ++w)
      for (size_t i = 0; i < inputs.size(); ++i) {
        const DItem& it = inputs[i];
        const double* r = &results[w].first[4 * i];
        const uint32_t* u = &results[w].second[4 * i];
        std::string why = fn(it, r, u);
        ASSERT_TRUE(why.empty()) << "opcode " << op << " W=" << kSimdWidths[w] << " x=" << it.a[0] << " y=" << it.a[1]
                                 << " z=" << it.a[2] << ": " << why;
      }
  };
  auto expect = [](bool ok, const char* what, double got) { return ok ? std::string() : std::string(what) + " = " + std::to_string(got); };
  check(0, in, [&](const DItem& it, const double* r, const uint32_t*) {
    double y = it.a[1];
    std::string e;
    if (it.a[0] > 0) {
      if (e.empty()) e = expect(close(r[0], sqrtl(it.a[0]), 4 * kFloatEps), "sqrt", r[0]);
      if (e.empty()) e = expect(close(r[1], 1 / sqrtl(it.a[0]), 2 * kFloatEps), "inversesqrt", r[1]);
    }
    if (e.empty()) e = expect(r[2] == std::fabs(y), "abs", r[2]);
    if (e.empty()) e = expect(r[3] == (y > 0 ? 1.0 : y < 0 ? -1.0 : 0.0), "sign", r[3]);
    return e;
  });
  check(1, in, [&](const DItem& it, const double* r, const uint32_t*) {
    double x = it.a[0];
    if (r[0] != std::floor(x)) return expect(false, "floor", r[0]);
    if (r[1] != std::ceil(x)) return expect(false, "ceil", r[1]);
    if (r[2] != std::trunc(x)) return expect(false, "trunc", r[2]);
    return expect(std::isinf(x) || r[3] == x - std::floor(x), "fract", r[3]);
  });
  check(2, in, [&](const DItem& it, const double* r, const uint32_t*) {
    double x = it.a[0], y = it.a[1], f = std::floor(x);
    bool tie = x - f == 0.5;
    if (!(r[0] == std::round(x) || (tie && r[0] == f))) return expect(false, "round", r[0]);
    if (r[1] != std::nearbyint(x)) return expect(false, "roundEven", r[1]);
    if (r[2] != std::min(x, y)) return expect(false, "min", r[2]);
    return expect(r[3] == std::max(x, y), "max", r[3]);
  });
  std::vector<DItem> mixIn = in;
  for (DItem& it : mixIn) it.a[2] = std::fabs(std::fmod(it.a[2], 1.0));
  check(3, mixIn, [&](const DItem& it, const double* r, const uint32_t*) {
    long double x = it.a[0], y = it.a[1], z = it.a[2];
    if (std::fabs(double(x)) > 1e200) return std::string();
    double lo = std::min(it.a[1], it.a[2]), hi = std::max(it.a[1], it.a[2]);
    if (r[0] != std::clamp(it.a[0], lo, hi)) return expect(false, "clamp", r[0]);
    if (!close(r[1], x * (1 - z) + y * z, 0, 4 * kFloatEps * double(std::fabs(x) + std::fabs(y)))) return expect(false, "mix", r[1]);
    if (r[2] != (y < x ? 0.0 : 1.0)) return expect(false, "step", r[2]);
    long double e0 = std::min(x, y), e1 = std::max(x, y) + 1;
    long double t = std::clamp((z - e0) / (e1 - e0), 0.0L, 1.0L);
    return expect(close(r[3], t * t * (3 - 2 * t), 0, 1e-6), "smoothstep", r[3]);
  });
  std::vector<DItem> modIn;
  for (DItem it : in) {
    if (std::fabs(it.a[0]) > 1e6 || std::fabs(it.a[1]) < 0.5) continue;
    double q = it.a[0] / it.a[1];
    if (q - std::floor(q) < 1e-6 || q - std::floor(q) > 1 - 1e-6) continue;
    it.a[2] = std::trunc(std::fmod(it.a[2], 20.0));
    modIn.push_back(it);
  }
  check(4, modIn, [&](const DItem& it, const double* r, const uint32_t*) {
    long double x = it.a[0], y = it.a[1], z = it.a[2];
    if (!close(r[0], x * y + z, 0, 2 * kFloatEps * double(std::fabs(x * y) + std::fabs(z)))) return expect(false, "fma", r[0]);
    if (!close(r[1], x - y * floorl(x / y), 0, 8 * kFloatEps * double(std::fabs(x) + std::fabs(y)))) return expect(false, "mod", r[1]);
    return expect(r[2] == std::ldexp(it.a[0], int(it.a[2])), "ldexp", r[2]);
  });
  check(5, in, [&](const DItem& it, const double* r, const uint32_t*) {
    double x = it.a[0], whole = std::trunc(x);
    int e = 0;
    double m = std::frexp(x, &e);
    if (r[1] != whole) return expect(false, "modf whole", r[1]);
    if (r[0] != x - whole && !std::isinf(x)) return expect(false, "modf fraction", r[0]);
    if (r[2] != m) return expect(false, "frexp mantissa", r[2]);
    return expect(r[3] == e, "frexp exponent", r[3]);
  });
  check(6, ints, [&](const DItem& it, const double* r, const uint32_t*) {
    long double l = 0, d = 0, dot = 0;
    for (int k = 0; k < 3; ++k) l += (long double)it.a[k] * it.a[k], d += ((long double)it.a[k] - it.c[k]) * (it.a[k] - it.c[k]);
    for (int k = 0; k < 4; ++k) dot += (long double)it.a[k] * it.c[k];
    if (!close(r[0], sqrtl(l), 8 * kFloatEps)) return expect(false, "length", r[0]);
    if (!close(r[1], sqrtl(d), 8 * kFloatEps)) return expect(false, "distance", r[1]);
    return expect(r[2] == double(dot), "dot", r[2]);
  });
  check(7, in, [&](const DItem& it, const double* r, const uint32_t*) {
    long double l = 0;
    for (int k = 0; k < 3; ++k) l += (long double)it.a[k] * it.a[k];
    if (l == 0 || l > 1e300) return std::string();
    for (int k = 0; k < 3; ++k)
      if (!close(r[k], it.a[k] / sqrtl(l), 0, 12 * kFloatEps)) return expect(false, "normalize", r[k]);
    return std::string();
  });
  check(8, ints, [&](const DItem& it, const double* r, const uint32_t*) {
    const double *a = it.a, *c = it.c;
    double want[3] = {a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]};
    for (int k = 0; k < 3; ++k)
      if (r[k] != want[k]) return expect(false, "cross", r[k]);
    return std::string();
  });
  check(9, ints, [&](const DItem& it, const double* r, const uint32_t*) {
    double d = 0, ff = 0;
    for (int k = 0; k < 3; ++k) d += it.c[k] * it.a[k], ff += it.a[(k + 1) % 3] * it.c[k];  // dot(Nref = a.yzx, I = c)
    for (int k = 0; k < 3; ++k)
      if (r[k] != it.a[k] - 2 * d * it.c[k]) return expect(false, "reflect", r[k]);
    return expect(r[3] == (ff < 0 ? it.a[0] : -it.a[0]), "faceforward", r[3]);
  });
  std::vector<DItem> refr;
  for (DItem it : in) {
    long double li = 0, ln = 0, d = 0;
    for (int k = 0; k < 3; ++k) li += (long double)it.a[k] * it.a[k], ln += (long double)it.c[k] * it.c[k];
    if (li < 1e-6 || ln < 1e-6 || li > 1e200) continue;
    for (int k = 0; k < 3; ++k) it.a[k] = double(it.a[k] / sqrtl(li)), it.c[k] = double(it.c[k] / sqrtl(ln));
    it.a[3] = 0.5 + std::fabs(std::fmod(it.a[3], 1.0));
    for (int k = 0; k < 3; ++k) d += (long double)it.c[k] * it.a[k];
    if (std::fabs(double(1 - it.a[3] * it.a[3] * (1 - d * d))) < 1e-3) continue;
    refr.push_back(it);
  }
  check(10, refr, [&](const DItem& it, const double* r, const uint32_t*) {
    long double eta = it.a[3], d = 0;
    for (int k = 0; k < 3; ++k) d += (long double)it.c[k] * it.a[k];
    long double k2 = 1 - eta * eta * (1 - d * d);
    for (int k = 0; k < 3; ++k)
      if (!close(r[k], k2 < 0 ? 0 : eta * it.a[k] - (eta * d + sqrtl(k2)) * it.c[k], 0, 1e-5)) return expect(false, "refract", r[k]);
    return std::string();
  });
  check(11, in, [&](const DItem& it, const double* r, const uint32_t* u) {
    uint64_t bits, swapped;
    std::memcpy(&bits, &it.a[0], 8);
    std::memcpy(&swapped, &r[0], 8);
    if (u[0] != uint32_t(bits) || u[1] != uint32_t(bits >> 32)) return std::string("unpackDouble2x32");
    return expect(swapped == ((bits << 32) | (bits >> 32)), "packDouble2x32", r[0]);
  });
  check(12, ints, [&](const DItem& it, const double* r, const uint32_t*) {
    // m = columns a.xyz, c.xyz, a.wzy
    const double m[3][3] = {{it.a[0], it.a[1], it.a[2]}, {it.c[0], it.c[1], it.c[2]}, {it.a[3], it.a[2], it.a[1]}};
    double det = m[0][0] * (m[1][1] * m[2][2] - m[2][1] * m[1][2]) - m[1][0] * (m[0][1] * m[2][2] - m[2][1] * m[0][2]) +
                 m[2][0] * (m[0][1] * m[1][2] - m[1][1] * m[0][2]);
    if (r[0] != det) return expect(false, "determinant", r[0]);
    double d2 = it.a[0] * it.c[1] - it.c[0] * it.a[1];
    if (d2 == 0) return std::string();
    if (!close(r[1], it.c[1] / d2, 2 * kFloatEps)) return expect(false, "inverse[0][0]", r[1]);
    if (!close(r[2], -it.c[0] / d2, 2 * kFloatEps)) return expect(false, "inverse[1][0]", r[2]);
    return expect(close(r[3], it.a[0] / d2, 2 * kFloatEps), "inverse[1][1]", r[3]);
  });
}

TEST(GlslStd450, NMinNMaxNClampModfStructAndFrexpFromAssembly) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> in = {nan, 1, 0, 2.5f,   1, nan, 5, -7.75f, nan, nan, 3, 1e30f,  -inf, nan, 1, 0.0f,
                           nan, -2, 2, 1024, 3, 4, 5, -0.5f,    -1, 2, 3, 1e-30f, 2, 1, 0, -123456.5f};
  const uint32_t n = uint32_t(in.size() / 4);
  ComputeRun run;
  run.shader = "glsl_nminmax";
  run.groups[0] = 1;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<float>(8 * n), zeros<int32_t>(4 * n)});
  ASSERT_EQ(results.size(), 3u);
  expectSameAtEveryWidth(results);
  auto nmin = [](float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); };
  auto nmax = [](float a, float b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); };
  auto same = [](float got, float want) { return got == want || (std::isnan(got) && std::isnan(want)); };
  for (size_t w = 0; w < results.size(); ++w) {
    auto r = valuesOf<float>(results[w][1]);
    auto ri = valuesOf<int32_t>(results[w][2]);
    for (uint32_t i = 0; i < n; ++i) {
      const float x = in[4 * i], y = in[4 * i + 1], z = in[4 * i + 2], v = in[4 * i + 3];
      auto at = [&](const char* what) { return ::testing::Message() << what << " W=" << kSimdWidths[w] << " item " << i; };
      EXPECT_TRUE(same(r[8 * i + 0], nmin(x, y))) << at("NMin") << " got " << r[8 * i];
      EXPECT_TRUE(same(r[8 * i + 1], nmax(x, y))) << at("NMax") << " got " << r[8 * i + 1];
      if (!std::isnan(y) && !std::isnan(z) && y <= z) {
        EXPECT_TRUE(same(r[8 * i + 2], nmin(nmax(x, y), z))) << at("NClamp") << " got " << r[8 * i + 2];
      }
      const float whole = std::trunc(v);
      int e = 0;
      const float m = std::frexp(v, &e);
      EXPECT_EQ(r[8 * i + 3], v - whole) << at("ModfStruct fraction");
      EXPECT_EQ(r[8 * i + 4], whole) << at("ModfStruct whole");
      EXPECT_EQ(r[8 * i + 5], m) << at("Frexp mantissa");
      EXPECT_EQ(ri[4 * i], e) << at("Frexp exponent");
    }
  }
}

// 16-bit floats. Bounds from the Vulkan spec's table for 16-bit operations: sin/cos 2^-7
// absolute in [-pi, pi], exp/exp2 (1 + 2|x|) ULP, log/log2 3 ULP outside [0.5, 2] and 2^-7
// absolute inside, inversesqrt 2 ULP, sqrt inherited from 1 / inversesqrt, atan 5 ULP;
// rounding, frexp, ldexp and modf exact.
TEST(GlslStd450, HalfFunctionsIncludingFrexp) {
  std::vector<_Float16> in;
  for (float s : {0.5f, 1.0f, -1.0f, 2.0f, 3.140625f, -3.140625f, 0.099975586f, 7.75f, -0.25f, 1000.0f, 6.1035156e-05f})
    in.push_back(static_cast<_Float16>(s));
  Rng rng(16);
  while (in.size() < 300) {
    float v = rng.uniform(-8, 8);
    if (std::fabs(v) > 1e-2f) in.push_back(static_cast<_Float16>(v));
  }
  const uint32_t n = uint32_t(in.size());
  ComputeRun run;
  run.shader = "glsl_half";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<_Float16>(20 * n)});
  ASSERT_EQ(results.size(), 3u);
  expectSameAtEveryWidth(results);
  auto hulp = [](double x) {  // one half-precision ULP at |x|
    double a = std::fabs(x);
    return a < 6.103515625e-05 ? std::ldexp(1.0, -24) : std::ldexp(1.0, std::ilogb(a) - 10);
  };
  const double kPi = 3.14159265358979323846;
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<_Float16>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      const double x = double(in[i]);
      const _Float16* r = &o[20 * i];
      auto at = [&](int k) {
        return ::testing::Message() << "W=" << kSimdWidths[w] << " x=" << x << " output " << k << " got " << double(r[k]);
      };
      auto near = [&](int k, long double want, double tol) { EXPECT_LE(std::fabs((long double)double(r[k]) - want), tol) << at(k); };
      auto logTol = [&](double v, double res) { return v >= 0.5 && v <= 2 ? std::ldexp(1.0, -7) : 3 * hulp(res); };
      const double ax = std::fabs(x);
      near(0, sqrtl(ax), 4.5 * hulp(std::sqrt(ax)));
      if (ax <= kPi) near(1, sinl(x), std::ldexp(1.0, -7));
      if (x < 11) near(2, expl(x), (1 + 2 * ax) * hulp(std::exp(x)));
      near(3, logl(ax), logTol(ax, std::log(ax)));
      int e = 0;
      const double m = std::frexp(x, &e);
      EXPECT_EQ(double(r[4]), m) << at(4);
      EXPECT_EQ(double(r[5]), double(e)) << at(5);
      if (ax * 8 < 65504) {
        EXPECT_EQ(double(r[6]), x * 8) << at(6);
      }
      EXPECT_EQ(double(r[7]), x - std::trunc(x)) << at(7);
      EXPECT_EQ(double(r[8]), std::trunc(x)) << at(8);
      EXPECT_EQ(double(r[9]), std::nearbyint(x)) << at(9);
      EXPECT_EQ(double(r[10]), std::floor(x)) << at(10);
      EXPECT_EQ(double(r[11]), double(static_cast<_Float16>(x - std::floor(x)))) << at(11);
      near(12, 1 / sqrtl(ax), 2 * hulp(1 / std::sqrt(ax)));
      near(13, atan2l(x, 2), 5 * hulp(std::atan2(x, 2.0)));
      EXPECT_EQ(double(r[14]), std::clamp(x, -1.0, 1.0)) << at(14);
      EXPECT_EQ(double(r[15]), x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0) << at(15);
      EXPECT_EQ(double(r[16]), x < 0.5 ? 0.0 : 1.0) << at(16);
      if (x < 15) near(17, exp2l(x), (1 + 2 * ax) * hulp(std::exp2(x)));
      near(18, log2l(ax), logTol(ax, std::log2(ax)));
      if (ax <= kPi) near(19, cosl(x), std::ldexp(1.0, -7));
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// The exact inverse (long double Gauss-Jordan with partial pivoting) of an n x n column-major matrix.
std::vector<long double> exactInverse(const std::vector<long double>& m, int n) {
  std::vector<long double> a(m), inv(size_t(n) * n, 0);
  auto at = [n](std::vector<long double>& v, int r, int c) -> long double& { return v[size_t(c) * n + r]; };
  for (int i = 0; i < n; ++i) at(inv, i, i) = 1;
  for (int c = 0; c < n; ++c) {
    int pivot = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(at(a, r, c)) > std::fabs(at(a, pivot, c))) pivot = r;
    for (int k = 0; k < n; ++k) std::swap(at(a, c, k), at(a, pivot, k)), std::swap(at(inv, c, k), at(inv, pivot, k));
    const long double p = at(a, c, c);
    for (int k = 0; k < n; ++k) at(a, c, k) /= p, at(inv, c, k) /= p;
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const long double f = at(a, r, c);
      for (int k = 0; k < n; ++k) at(a, r, k) -= f * at(a, c, k), at(inv, r, k) -= f * at(inv, c, k);
    }
  }
  return inv;
}

// inverse() of f16mat3 and f16mat4 (the CTS's glsl.builtin.precision_fp16_storage16b.inverse
// cases): on well-conditioned random matrices every element within one half-precision ULP of
// the exact inverse. The JIT inverts 16-bit matrices in 32-bit floats and rounds once; the
// cofactor expansion in half precision was 2 ULP off and outside the precision the CTS derives.
TEST(GlslStd450, HalfMatrixInverseIsWithinOneUlp) {
  Rng rng(2611);
  const uint32_t n = 200;
  std::vector<_Float16> in;
  for (uint32_t i = 0; i < n; ++i) {
    for (int size : {3, 4})
      for (int c = 0; c < size; ++c)
        for (int r = 0; r < size; ++r) {
          // Diagonally dominant: well conditioned, so the exact inverse is what any correct
          // float computation rounds to.
          float v = rng.uniform(-1, 1);
          if (r == c) v += (rng.uniform(0, 1) < 0.5f ? -1.0f : 1.0f) * rng.uniform(2.5f, 4);
          in.push_back(static_cast<_Float16>(v));
        }
  }
  ComputeRun run;
  run.shader = "half_inverse";
  run.groups[0] = (n + 15) / 16;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<_Float16>(25 * n)});
  ASSERT_EQ(results.size(), 3u);
  expectSameAtEveryWidth(results);
  auto hulp = [](long double x) {
    const double a = std::fabs(double(x));
    return a < 6.103515625e-05 ? std::ldexp(1.0, -24) : std::ldexp(1.0, std::ilogb(a) - 10);
  };
  const auto o = valuesOf<_Float16>(results[0][1]);
  for (uint32_t i = 0; i < n; ++i) {
    size_t at = 25 * size_t(i);
    for (int size : {3, 4}) {
      std::vector<long double> m;
      for (int k = 0; k < size * size; ++k) m.push_back((long double)double(in[at + k]));
      const std::vector<long double> want = exactInverse(m, size);
      for (int k = 0; k < size * size; ++k)
        EXPECT_LE(std::fabs((long double)double(o[at + k]) - want[k]), hulp(want[k]))
            << "matrix " << i << " (" << size << "x" << size << ") element " << k;
      at += size_t(size) * size;
    }
  }
}

}  // namespace
}  // namespace tessera_test
