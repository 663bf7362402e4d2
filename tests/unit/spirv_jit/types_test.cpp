// Scalar types and widths: 32- and 64-bit integer arithmetic and bit operations, 8- and 16-bit
// integers and halves through 8/16-bit storage, doubles. Each at W = 4, 8, 16 against C++.
#include <gtest/gtest.h>

#include <bit>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

#include "compute_harness.h"

namespace tessera_test {
namespace {

const int32_t kSpecial32[] = {0, 1, -1, 2, -2, 7, -7, 31, 32, 33, 64, 1000, -1000, 0x12345678, -0x12345678,
                              INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1, 0x55555555, int32_t(0xAAAAAAAA),
                              // divisors whose quotients of large dividends sit just below an integer
                              3, -3, 65535, 65537, -65537, int32_t(0xFFFFFFFE), 0x7FFFFFFD};

std::vector<std::pair<int32_t, int32_t>> pairs32() {
  std::vector<std::pair<int32_t, int32_t>> v;
  for (int32_t a : kSpecial32)
    for (int32_t b : kSpecial32) v.push_back({a, b});
  Rng rng(32);
  for (int i = 0; i < 300; ++i) v.push_back({int32_t(rng.next()), int32_t(rng.next() >> (rng.next() % 32))});
  return v;
}

int32_t extractS(int32_t x, int off, int cnt) {
  if (cnt == 0) return 0;
  return int32_t(uint32_t(x) << (32 - off - cnt)) >> (32 - cnt);
}
uint32_t maskBits(int cnt) { return cnt >= 32 ? ~0u : (1u << cnt) - 1; }
int32_t findMsbS(int32_t x) {
  uint32_t v = x < 0 ? ~uint32_t(x) : uint32_t(x);
  return v == 0 ? -1 : 31 - std::countl_zero(v);
}

TEST(Types, Int32ArithmeticAndBitOperations) {
  auto in = pairs32();
  const uint32_t n = uint32_t(in.size()), K = 40;
  ComputeRun run;
  run.shader = "types_int32";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int32_t>(n * K)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<int32_t>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t x = in[i].first, y = in[i].second;
      const uint32_t ux = uint32_t(x), uy = uint32_t(y);
      const int32_t* r = &o[i * K];
      auto at = [&](int k) { return ::testing::Message() << "W=" << kSimdWidths[w] << " x=" << x << " y=" << y << " output " << k; };
      EXPECT_EQ(r[0], int32_t(ux + uy)) << at(0);
      EXPECT_EQ(r[1], int32_t(ux - uy)) << at(1);
      EXPECT_EQ(r[2], int32_t(ux * uy)) << at(2);
      if (y != 0 && !(x == INT_MIN && y == -1)) { EXPECT_EQ(r[3], x / y) << at(3); }
      // GLSL's % on ints is OpSMod: the remainder with the divisor's sign ("OpSMod"), defined
      // in SPIR-V for every operand pair but y == 0 and INT_MIN / -1.
      if (y != 0 && !(x == INT_MIN && y == -1)) {
        const int32_t rem = x % y;
        EXPECT_EQ(r[4], rem != 0 && (rem < 0) != (y < 0) ? rem + y : rem) << at(4);
      }
      if (uy != 0) { EXPECT_EQ(uint32_t(r[5]), ux / uy) << at(5); }
      if (uy != 0) { EXPECT_EQ(uint32_t(r[6]), ux % uy) << at(6); }
      EXPECT_EQ(r[7], int32_t(ux << (uy & 31))) << at(7);
      EXPECT_EQ(r[8], x >> (uy & 31)) << at(8);
      EXPECT_EQ(uint32_t(r[9]), ux >> (uy & 31)) << at(9);
      if (uy < 32) { EXPECT_EQ(r[10], int32_t(ux << uy)) << at(10); }
      EXPECT_EQ(r[11], x & y) << at(11);
      EXPECT_EQ(r[12], x | y) << at(12);
      EXPECT_EQ(r[13], x ^ y) << at(13);
      EXPECT_EQ(r[14], ~x) << at(14);
      EXPECT_EQ(r[15], int32_t(0u - ux)) << at(15);
      const int off = int(uy % 32), cnt = int((uy >> 5) % uint32_t(33 - off));
      EXPECT_EQ(r[16], extractS(x, off, cnt)) << at(16);
      EXPECT_EQ(uint32_t(r[17]), (ux >> off) & maskBits(cnt)) << at(17);
      const uint32_t m = maskBits(cnt) << off;
      EXPECT_EQ(uint32_t(r[18]), (ux & ~m) | ((uy << off) & m)) << at(18);
      EXPECT_EQ(r[19], std::popcount(ux)) << at(19);
      EXPECT_EQ(r[20], x == 0 ? -1 : std::countr_zero(ux)) << at(20);
      EXPECT_EQ(r[21], findMsbS(x)) << at(21);
      EXPECT_EQ(r[22], ux == 0 ? -1 : 31 - std::countl_zero(ux)) << at(22);
      uint32_t rev = 0;
      for (int bit = 0; bit < 32; ++bit) rev |= ((ux >> bit) & 1) << (31 - bit);
      EXPECT_EQ(uint32_t(r[23]), rev) << at(23);
      const uint64_t sum = uint64_t(ux) + uy;
      EXPECT_EQ(uint32_t(r[24]), uint32_t(sum)) << at(24);
      EXPECT_EQ(r[25], int32_t(sum >> 32)) << at(25);
      EXPECT_EQ(uint32_t(r[26]), ux - uy) << at(26);
      EXPECT_EQ(r[27], ux < uy ? 1 : 0) << at(27);
      const uint64_t up = uint64_t(ux) * uy;
      EXPECT_EQ(uint32_t(r[28]), uint32_t(up >> 32)) << at(28);
      EXPECT_EQ(uint32_t(r[29]), uint32_t(up)) << at(29);
      const int64_t sp = int64_t(x) * y;
      EXPECT_EQ(r[30], int32_t(uint64_t(sp) >> 32)) << at(30);
      EXPECT_EQ(r[31], int32_t(uint32_t(uint64_t(sp)))) << at(31);
      EXPECT_EQ(r[32], x == INT_MIN ? INT_MIN : std::abs(x)) << at(32);
      EXPECT_EQ(r[33], (x > 0) - (x < 0)) << at(33);
      EXPECT_EQ(r[34], int32_t(uint32_t(std::min(x, y)) * 3u + uint32_t(std::max(x, y)))) << at(34);
      EXPECT_EQ(uint32_t(r[35]), std::min(ux, uy) ^ std::max(ux, uy)) << at(35);
      EXPECT_EQ(r[36], std::clamp(x, std::min(y, 7), std::max(y, 7))) << at(36);
      EXPECT_EQ(uint32_t(r[37]), std::clamp(ux, std::min(uy, 1000u), std::max(uy, 1000u))) << at(37);
      const int cmp = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                      (ux < uy) << 6 | (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
      EXPECT_EQ(r[38], cmp) << at(38);
      EXPECT_EQ(r[39], (x & 0xffff) % 7 + (y & 0x7fffffff) % 13 * 100) << at(39);
      if (::testing::Test::HasFailure()) return;
    }
  }
  // Undefined results (x / 0, INT_MIN / -1, oversized shifts) may be anything, but the same
  // anything at every width is not required either; only that nothing crashed to get here.
}

// OpConvertFToS / OpConvertFToU from 32-bit floats to 32-bit integers. Out-of-range values are
// undefined in SPIR-V; Tessera saturates them (llvm.fpto[us]i.sat's rules: NaN gives 0, values
// beyond the range its nearest end) at every width, which this holds, together with the
// truncation toward zero that the spec defines for every value in range.
TEST(Types, Float32ToInt32ConversionsTruncateAndSaturate) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> in = {0.0f, -0.0f, 0.5f, -0.5f, 0.999f, -0.999f, 1.0f, -1.0f, 1.5f, -1.5f, 3.7f, -3.7f,
                           nan, -nan, inf, -inf, 1e10f, -1e10f, 2147483520.0f, 2147483648.0f, -2147483648.0f,
                           -2147483904.0f, 4294967040.0f, 4294967296.0f, 16777217.0f, 123456.789f, 1920.5f, 1079.5f};
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    uint32_t bits = uint32_t(rng.next());
    float f;
    std::memcpy(&f, &bits, 4);
    in.push_back(f);
  }
  const uint32_t n = uint32_t(in.size());
  ComputeRun run;
  run.shader = "types_float_to_int32";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int32_t>(n * 2)});
  ASSERT_EQ(results.size(), 3u);
  auto toInt = [](float f) -> int32_t {
    if (std::isnan(f)) return 0;
    if (f >= 2147483648.0f) return INT_MAX;
    if (f < -2147483648.0f) return INT_MIN;
    return int32_t(f);
  };
  auto toUint = [](float f) -> uint32_t {
    if (!(f > 0.0f)) return 0;
    if (f >= 4294967296.0f) return UINT_MAX;
    return uint32_t(f);
  };
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<int32_t>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(o[2 * i], toInt(in[i])) << "W=" << kSimdWidths[w] << " int(" << in[i] << ")";
      EXPECT_EQ(uint32_t(o[2 * i + 1]), toUint(in[i])) << "W=" << kSimdWidths[w] << " uint(" << in[i] << ")";
    }
  }
}

TEST(Types, Int64ArithmeticShiftsAndConversions) {
  const int64_t specials[] = {0, 1, -1, 3, -3, 63, 64, 65, 0x100000000ll, -0x100000000ll, 0x123456789abcdefll,
                              -0x123456789abcdefll, INT64_MAX, INT64_MIN, INT32_MAX, INT32_MIN, 0x7fffffffffll};
  std::vector<std::pair<int64_t, int64_t>> in;
  for (int64_t a : specials)
    for (int64_t b : specials) in.push_back({a, b});
  Rng rng(64);
  for (int i = 0; i < 100; ++i) in.push_back({int64_t(rng.next()), int64_t(rng.next() >> (rng.next() % 64))});
  const uint32_t n = uint32_t(in.size()), K = 24;
  ComputeRun run;
  run.shader = "types_int64";
  run.groups[0] = (n + 31) / 32;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int64_t>(n * K)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<int64_t>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t x = in[i].first, y = in[i].second;
      const uint64_t ux = uint64_t(x), uy = uint64_t(y);
      const int64_t* r = &o[i * K];
      auto at = [&](int k) { return ::testing::Message() << "W=" << kSimdWidths[w] << " x=" << x << " y=" << y << " output " << k; };
      EXPECT_EQ(r[0], int64_t(ux + uy)) << at(0);
      EXPECT_EQ(r[1], int64_t(ux - uy)) << at(1);
      EXPECT_EQ(r[2], int64_t(ux * uy)) << at(2);
      if (y != 0 && !(x == INT64_MIN && y == -1)) { EXPECT_EQ(r[3], x / y) << at(3); }
      if (uy != 0) { EXPECT_EQ(uint64_t(r[4]), ux / uy) << at(4); }
      if (uy != 0) { EXPECT_EQ(uint64_t(r[5]), ux % uy) << at(5); }
      EXPECT_EQ(r[6], int64_t(ux << (uy & 63))) << at(6);
      EXPECT_EQ(r[7], x >> (uy & 63)) << at(7);
      EXPECT_EQ(uint64_t(r[8]), ux >> (uy & 63)) << at(8);
      EXPECT_EQ(r[9], (x & y) ^ (x | ~y)) << at(9);
      EXPECT_EQ(r[10], int64_t(0 - ux)) << at(10);
      EXPECT_EQ(r[11], int64_t((x < y) | (ux < uy) << 1 | (x == y) << 2 | (x >= y) << 3)) << at(11);
      EXPECT_EQ(r[12], int64_t(int32_t(uint32_t(ux)))) << at(12);
      EXPECT_EQ(r[13], int64_t(uint32_t(ux))) << at(13);
      EXPECT_EQ(r[14], int64_t(int32_t(uint32_t(uint64_t(y >> 32))))) << at(14);
      EXPECT_EQ(r[15], x >> 11) << at(15);
      EXPECT_EQ(r[16], int64_t(int32_t(uint32_t(ux))) * 1024) << at(16);
      EXPECT_EQ(r[17], x == INT64_MIN ? INT64_MIN : (x < 0 ? -x : x)) << at(17);
      EXPECT_EQ(r[18], std::min(x, y)) << at(18);
      EXPECT_EQ(uint64_t(r[19]), std::max(ux, uy)) << at(19);
      EXPECT_EQ(r[20], std::clamp<int64_t>(x, -1000000000000ll, 1000000000000ll)) << at(20);
      EXPECT_EQ(r[21], int64_t(uint32_t(ux)) * 3 + int64_t(ux >> 32)) << at(21);
      EXPECT_EQ(uint64_t(r[22]), (ux << 32) | (ux >> 32)) << at(22);
      EXPECT_EQ(uint64_t(r[23]), uint64_t(uint32_t(ux)) * uint32_t(uy)) << at(23);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(Types, Int8AndInt16ThroughSmallStorage) {
  std::vector<int8_t> in8;
  std::vector<int16_t> in16;
  const int8_t s8[] = {0, 1, -1, 2, 5, 7, 8, 100, 127, -128, -127, -100, 64, -64};
  const int16_t s16[] = {0, 1, -1, 255, 256, -256, 300, 32767, -32768, 1234, -4321, 15, 16, 17};
  for (int8_t a : s8)
    for (int8_t c : s8) in8.insert(in8.end(), {a, c});
  for (size_t k = 0; k < in8.size() / 2; ++k) {
    in16.push_back(s16[k % 14]);
    in16.push_back(s16[(k / 14 + k) % 14]);
  }
  const uint32_t n = uint32_t(in8.size() / 2);
  ComputeRun run;
  run.shader = "types_small_int";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in8), bytesOf(in16), zeros<int8_t>(8 * n + 4),
                                       zeros<uint16_t>(4 * n + 2), zeros<int32_t>(6 * n)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto o8 = valuesOf<int8_t>(results[w][2]);
    auto o16 = valuesOf<uint16_t>(results[w][3]);
    auto o32 = valuesOf<int32_t>(results[w][4]);
    for (uint32_t i = 0; i < n; ++i) {
      const int8_t a = in8[2 * i], c = in8[2 * i + 1];
      const int16_t s = in16[2 * i], t = in16[2 * i + 1];
      const uint8_t ua = uint8_t(a), uc = uint8_t(c);
      const uint16_t us = uint16_t(s), ut = uint16_t(t);
      auto at = [&](int k) {
        return ::testing::Message() << "W=" << kSimdWidths[w] << " a=" << int(a) << " c=" << int(c) << " s=" << s << " t=" << t
                                    << " output " << k;
      };
      EXPECT_EQ(o8[8 * i + 0], int8_t(ua + uc)) << at(0);
      EXPECT_EQ(o8[8 * i + 1], int8_t(ua * uc)) << at(1);
      EXPECT_EQ(o8[8 * i + 2], int8_t(ua >> (uc & 7))) << at(2);
      EXPECT_EQ(o8[8 * i + 3], int8_t(a >> (uc & 7))) << at(3);
      if (!(a == -128 && c == -1)) { EXPECT_EQ(o8[8 * i + 4], c != 0 ? int8_t(a / c) : int8_t(99)) << at(4); }
      EXPECT_EQ(o8[8 * i + 5], int8_t(ua / std::max<uint8_t>(uc, 1))) << at(5);
      EXPECT_EQ(o8[8 * i + 6], int8_t(s)) << at(6);
      EXPECT_EQ(o8[8 * i + 7], int8_t(0 - ua)) << at(7);
      EXPECT_EQ(o16[4 * i + 0], uint16_t(us + ut)) << at(8);
      EXPECT_EQ(o16[4 * i + 1], uint16_t(uint32_t(us) * ut)) << at(9);
      EXPECT_EQ(o16[4 * i + 2], uint16_t(s >> (ut & 15))) << at(10);
      EXPECT_EQ(o16[4 * i + 3], uint16_t(int16_t(a) * int16_t(c))) << at(11);
      EXPECT_EQ(o32[6 * i + 0], int32_t(a)) << at(12);
      EXPECT_EQ(o32[6 * i + 1], int32_t(ua)) << at(13);
      EXPECT_EQ(o32[6 * i + 2], int32_t(s)) << at(14);
      EXPECT_EQ(o32[6 * i + 3], int32_t(us)) << at(15);
      EXPECT_EQ(o32[6 * i + 4], (a < c) | (ua < uc) << 1 | (s < t) << 2 | (us < ut) << 3 | (a == c) << 4) << at(16);
      EXPECT_EQ(o32[6 * i + 5], int32_t(uint8_t(us)) + (int32_t(int16_t(ua)) << 16)) << at(17);
      if (::testing::Test::HasFailure()) return;
    }
    // The bytes past the last output stay zero: 8- and 16-bit stores write only their own bytes.
    for (size_t k = 8 * n; k < o8.size(); ++k) EXPECT_EQ(o8[k], 0);
    for (size_t k = 4 * n; k < o16.size(); ++k) EXPECT_EQ(o16[k], 0);
  }
  expectSameAtEveryWidth(results);
}

// Correctly rounded half arithmetic: one float operation (exact for two halves' sum, difference
// and product; correctly rounded for the quotient) then one rounding to half.
_Float16 h(float f) { return static_cast<_Float16>(f); }

TEST(Types, Float16ArithmeticAndConversions) {
  std::vector<_Float16> in;
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 3.0f, 65504.0f, -65504.0f, 6.1035156e-05f,
                            5.9604645e-08f /* smallest denormal */, 1.0009766f, 2049.0f, 0.1f, -7.25f,
                            std::numeric_limits<float>::infinity(), 1000.0f};
  for (float a : specials)
    for (float b : specials) in.insert(in.end(), {h(a), h(b)});
  Rng rng(16);
  for (int i = 0; i < 200; ++i) in.insert(in.end(), {h(rng.uniform(-300, 300)), h(rng.uniform(-2, 2))});
  const uint32_t n = uint32_t(in.size() / 2);
  ComputeRun run;
  run.shader = "types_float16";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<_Float16>(6 * n), zeros<float>(4 * n)});
  ASSERT_EQ(results.size(), 3u);
  auto same = [](_Float16 got, _Float16 want) {
    uint16_t g, e;
    std::memcpy(&g, &got, 2);
    std::memcpy(&e, &want, 2);
    return g == e || (got != got && want != want);
  };
  for (size_t w = 0; w < results.size(); ++w) {
    auto oh = valuesOf<_Float16>(results[w][1]);
    auto of = valuesOf<float>(results[w][2]);
    for (uint32_t i = 0; i < n; ++i) {
      const float x = float(in[2 * i]), y = float(in[2 * i + 1]);
      auto at = [&](int k) { return ::testing::Message() << "W=" << kSimdWidths[w] << " x=" << x << " y=" << y << " output " << k; };
      const _Float16 want[6] = {h(x + y), h(x - y), h(x * y), h(x / y), h(x * 3.0f), h(-std::fabs(x))};
      for (int k = 0; k < 6; ++k)
        EXPECT_TRUE(same(oh[6 * i + k], want[k])) << at(k) << ": got " << float(oh[6 * i + k]) << " want " << float(want[k]);
      EXPECT_EQ(of[4 * i + 0], x) << at(6);
      EXPECT_EQ(of[4 * i + 1], y) << at(7);
      if (std::fabs(x) < 2e9f) { EXPECT_EQ(of[4 * i + 2], float(int32_t(x))) << at(8); }
      EXPECT_EQ(of[4 * i + 3], float((x < y) | (x == y) << 1 | (x >= y) << 2)) << at(9);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(Types, Float64ArithmeticAndConversions) {
  const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.1, 1e300, -1e-300, 3.0, 2.5, -2.5, 1e9 + 0.5, 4294967295.75,
                             1.0000000000000002, 123456789.123456789, std::numeric_limits<double>::infinity()};
  std::vector<double> in;
  for (double a : specials)
    for (double b : specials) in.insert(in.end(), {a, b});
  Rng rng(1);
  for (int i = 0; i < 200; ++i) in.insert(in.end(), {double(int64_t(rng.next())) * 1e-9, double(rng.next() % 100000) / 7.0});
  const uint32_t n = uint32_t(in.size() / 2);
  ComputeRun run;
  run.shader = "types_float64";
  run.groups[0] = (n + 63) / 64;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<double>(12 * n)});
  ASSERT_EQ(results.size(), 3u);
  auto same = [](double a, double b) { return std::memcmp(&a, &b, 8) == 0 || (a != a && b != b); };
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<double>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      const double x = in[2 * i], y = in[2 * i + 1];
      const double* r = &o[12 * i];
      const double want[12] = {x + y,
                               x - y,
                               x * y,
                               x / y,
                               std::sqrt(std::fabs(x)),
                               std::fma(x, y, 1.0),
                               double(float(x)),
                               double(int32_t(std::clamp(x, -1e9, 1e9))),
                               double(uint32_t(std::clamp(y, 0.0, 4e9))),
                               std::floor(x) - std::ceil(y),
                               std::min(x, y) - std::max(x, y),
                               double((x < y) | (x <= y) << 1 | (x == y) << 2)};
      for (int k = 0; k < 12; ++k)
        EXPECT_TRUE(same(r[k], want[k])) << "W=" << kSimdWidths[w] << " x=" << x << " y=" << y << " output " << k << ": got "
                                         << r[k] << " want " << want[k];
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// The SPIR-V optimizer folds divisions whose operands it knows; SPIRV-Tools does that on the
// host, where INT_MIN / -1 traps. Compiling such a shader (or specializing into it) must not
// crash; the defined results must stay right.
// Division by divisors that become constants only after specialization and optimization (a
// spec constant is guarded against INT_MIN / -1 before the optimizer folds it), and by
// literals, at every W: with the default spec constants (31, 10) and specialized to (-5, 7).
TEST(Types, Int32DivisionByConstantsAndSpecializationConstants) {
  std::vector<int32_t> in(std::begin(kSpecial32), std::end(kSpecial32));
  Rng rng(33);
  for (int i = 0; i < 500; ++i) in.push_back(int32_t(rng.next()) >> (rng.next() % 32));
  const uint32_t n = uint32_t(in.size()), K = 8;
  for (const auto& [divisor, unsignedDivisor] : std::vector<std::pair<int32_t, uint32_t>>{{31, 10u}, {-5, 7u}}) {
    ComputeRun run;
    run.shader = "types_int32_constant_division";
    run.groups[0] = (n + 63) / 64;
    run.pushConstants = pushBytes(n);
    const bool specialized = divisor != 31;
    if (specialized) {
      run.specialization = {{0, 0, 4}, {1, 4, 4}};
      run.specializationData.resize(8);
      std::memcpy(run.specializationData.data(), &divisor, 4);
      std::memcpy(run.specializationData.data() + 4, &unsignedDivisor, 4);
    }
    auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int32_t>(n * K)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<int32_t>(results[w][1]);
      for (uint32_t i = 0; i < n; ++i) {
        const int32_t x = in[i];
        const uint32_t ux = uint32_t(x);
        const int32_t* r = &o[i * K];
        auto at = [&](int k) {
          return ::testing::Message() << "W=" << kSimdWidths[w] << " x=" << x << " divisor " << divisor << " output " << k;
        };
        EXPECT_EQ(r[0], x / divisor) << at(0);
        const int32_t rem = x % divisor;
        EXPECT_EQ(r[1], rem != 0 && (rem < 0) != (divisor < 0) ? rem + divisor : rem) << at(1);
        EXPECT_EQ(uint32_t(r[2]), ux / unsignedDivisor) << at(2);
        EXPECT_EQ(uint32_t(r[3]), ux % unsignedDivisor) << at(3);
        EXPECT_EQ(r[4], x / -7) << at(4);
        if (x != INT_MAX) { EXPECT_EQ(r[5], (x + 1) / 3) << at(5); }
        EXPECT_EQ(uint32_t(r[6]), ux / 3u) << at(6);
        EXPECT_EQ(uint32_t(r[7]), ux % 1000u) << at(7);
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

TEST(Types, ConstantDivisionOverflowDoesNotCrashTheCompiler) {
  struct Spec {
    int32_t a, b;
  };
  for (Spec sp : {Spec{7, 2}, Spec{INT_MIN, -1}, Spec{5, 0}}) {
    for (bool optimize : {true, false}) {
      if (sp.b == 0 && !optimize) continue;  // (division by zero: the optimized path is the risky one)
      ComputeRun run;
      run.shader = "div_fold";
      run.optimize = optimize;
      run.specializationData = pushBytes(sp.a, sp.b);
      run.specialization = {{0, 0, 4}, {1, 4, 4}};
      auto results = runAtEveryWidth(run, {zeros<int32_t>(12 * 8)});
      ASSERT_EQ(results.size(), 3u) << "a=" << sp.a << " b=" << sp.b << " optimize=" << optimize;
      for (size_t w = 0; w < results.size(); ++w) {
        auto o = valuesOf<int32_t>(results[w][0]);
        for (int32_t i = 0; i < 8; ++i) {
          auto at = [&](int k) {
            return ::testing::Message() << "a=" << sp.a << " b=" << sp.b << " optimize=" << optimize << " W="
                                        << kSimdWidths[w] << " invocation " << i << " output " << k;
          };
          EXPECT_EQ(o[12 * i + 3], 3) << at(3);
          EXPECT_EQ(o[12 * i + 4], 1) << at(4);
          if (sp.b == 2) {
            EXPECT_EQ(o[12 * i + 7], 3) << at(7);
            EXPECT_EQ(o[12 * i + 8], 1) << at(8);
            EXPECT_EQ(o[12 * i + 9], 4) << at(9);
            EXPECT_EQ(o[12 * i + 11], i / 2) << at(11);
          }
          EXPECT_EQ(o[12 * i + 10], 1073741820) << at(10);
        }
      }
    }
  }
}

// OpSDot/OpUDot/OpSUDot and the saturating accumulating forms (int_dot.spvasm), packed 4x8-bit
// and on 8-bit vectors.
TEST(Types, IntegerDotProducts) {
  std::vector<uint32_t> in;
  const uint32_t specials[] = {0, 0x7f7f7f7f, 0x80808080, 0xffffffff, 0x01020304, 0x7fffffff, 0x80000000, 0xff7f01fe};
  for (uint32_t a : specials)
    for (uint32_t b : specials)
      for (uint32_t c : {0x7fff0000u, 0x80000100u, 5u, 0xfffffff0u}) in.insert(in.end(), {a, b, c});
  Rng rng(8);
  for (int k = 0; k < 200; ++k) in.insert(in.end(), {uint32_t(rng.next()), uint32_t(rng.next()), uint32_t(rng.next())});
  const uint32_t n = uint32_t(in.size() / 3);
  ComputeRun run;
  run.shader = "int_dot";
  run.groups[0] = (n + 63) / 64;
  std::vector<uint32_t> padded = in;
  padded.resize(3 * run.groups[0] * 64, 0);
  auto results = runAtEveryWidth(run, {bytesOf(padded), zeros<uint32_t>(8 * run.groups[0] * 64)});
  ASSERT_EQ(results.size(), 3u);
  auto sat = [](int64_t v, int64_t lo, int64_t hi) { return std::clamp(v, lo, hi); };
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<uint32_t>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
      int64_t s = 0, u = 0, su = 0;
      for (int k = 0; k < 4; ++k) {
        const uint8_t ua = uint8_t(a >> 8 * k), ub = uint8_t(b >> 8 * k);
        s += int64_t(int8_t(ua)) * int8_t(ub);
        u += int64_t(ua) * ub;
        su += int64_t(int8_t(ua)) * ub;
      }
      const uint32_t want[8] = {uint32_t(int32_t(s)),
                                uint32_t(u),
                                uint32_t(int32_t(su)),
                                uint32_t(int32_t(sat(s + int32_t(c), INT32_MIN, INT32_MAX))),
                                uint32_t(sat(u + int64_t(c), 0, UINT32_MAX)),
                                uint32_t(int32_t(sat(su + int32_t(c), INT32_MIN, INT32_MAX))),
                                uint32_t(int32_t(s)),
                                uint32_t(sat(u + int64_t(c), 0, UINT32_MAX))};
      for (int k = 0; k < 8; ++k)
        ASSERT_EQ(o[8 * i + k], want[k]) << "W=" << kSimdWidths[w] << std::hex << " a=" << a << " b=" << b << " c=" << c
                                         << " output " << std::dec << k;
    }
  }
}

// OpBitcast of narrow vectors to wider scalars packs the components, lowest first (SPIR-V
// spec, OpBitcast: "the first component ... in the lower-order bits"), also when the optimizer
// folds the bitcast of a known value (bitcast_fold.comp). Without keeping SPIRV-Tools'
// folder away from them the pipeline failed to compile (CTS float16.opcompositeconstruct.struct).
TEST(Types, BitcastsOfConstantNarrowVectorsPackTheirComponents) {
  auto half = [](float f) -> uint32_t { return f == 1.0f ? 0x3c00u : 0x4000u; };  // 1.0 and 2.0
  const uint32_t want[5] = {half(1.0f) | half(2.0f) << 16, uint32_t(uint16_t(-2)) | 3u << 16, 1u | 2u << 16,
                            0xfffeu | 4u << 16, uint32_t(uint8_t(-1)) | 2u << 8 | uint32_t(uint8_t(-3)) << 16 | 4u << 24};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "bitcast_fold";
    run.optimize = optimize;
    auto results = runAtEveryWidth(run, {zeros<uint32_t>(5)});
    ASSERT_EQ(results.size(), 3u) << "optimize=" << optimize;
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<uint32_t>(results[w][0]);
      for (int k = 0; k < 5; ++k)
        EXPECT_EQ(o[k], want[k]) << std::hex << "optimize=" << optimize << " W=" << kSimdWidths[w] << " output " << k;
    }
  }
}

// The float controls the device reports (shaderDenormPreserve, shaderSignedZeroInfNanPreserve,
// shaderRoundingModeRTE for 32 and 64 bits) hold for code the JIT generates: the expected words
// are IEEE 754 results worked out by hand (round to nearest, ties to even; no flushing).
TEST(Types, FloatControlsTheDeviceReportsHold) {
  auto bits = [](float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; };
  auto fromBits = [](uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; };
  std::vector<float> in = {fromBits(1), -0.0f, INFINITY, 1.0f, std::ldexp(1.0f, -24), std::ldexp(1.0f, -23), 0.5f, 0.0f};
  std::vector<uint8_t> input = bytesOf(in);
  const double din[4] = {std::ldexp(1.0, -1074), 1.0, std::ldexp(1.0, -53), 0.0};
  input.insert(input.end(), reinterpret_cast<const uint8_t*>(din), reinterpret_cast<const uint8_t*>(din) + 32);
  ComputeRun run;
  run.shader = "float_controls";
  auto results = runAtEveryWidth(run, {input, zeros<uint32_t>(24)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<uint32_t>(results[w][1]);
    auto at = [&](int k) { return ::testing::Message() << "W=" << kSimdWidths[w] << " output " << k << std::hex << " got " << o[k]; };
    EXPECT_EQ(o[0], 1u) << at(0);
    EXPECT_EQ(o[1], 2u) << at(1);
    EXPECT_EQ(o[2], 0x80000000u) << at(2);
    EXPECT_EQ(o[3], 0x80000000u) << at(3);
    EXPECT_EQ(o[4] & 0x7f800000u, 0x7f800000u) << at(4);  // NaN: exponent all ones...
    EXPECT_NE(o[4] & 0x007fffffu, 0u) << at(4);           // ...and a non-zero mantissa
    EXPECT_EQ(o[5], 0xff800000u) << at(5);
    EXPECT_EQ(o[6], bits(1.0f)) << at(6);
    EXPECT_EQ(o[7], bits(1.0f) + 2) << at(7);
    EXPECT_EQ(o[8], 0u) << at(8);
    // Doubles, as (low, high) words.
    EXPECT_EQ(o[16], 1u) << at(16);
    EXPECT_EQ(o[17], 0u) << at(17);
    EXPECT_EQ(o[18], 2u) << at(18);
    EXPECT_EQ(o[19], 0u) << at(19);
    EXPECT_EQ(o[20], 0u) << at(20);
    EXPECT_EQ(o[21], 0x3ff00000u) << at(21);
  }
}

}  // namespace
}  // namespace tessera_test
