// Vectors, matrices and buffer layouts: matrix arithmetic (products, transpose, determinant,
// inverse, dynamic indexing), std430 structs with row- and column-major matrices and runtime
// arrays, std140 uniform blocks. Byte offsets in the C++ below are the ones glslang assigns
// (checked with spirv-dis), written out so that the reference does not share the JIT's layout code.
#include <gtest/gtest.h>

#include <array>

#include "compute_harness.h"

namespace tessera_test {
namespace {

using Mat4 = std::array<std::array<float, 4>, 4>;  // [column][row]

struct MatInput {
  Mat4 a, b;
  float v[4];
  int32_t idx[4];
};
static_assert(sizeof(MatInput) == 160);

double det(const std::vector<double>& m, int n) {  // m[c * n + r]
  if (n == 1) return m[0];
  double d = 0;
  for (int c = 0; c < n; ++c) {
    std::vector<double> minor;
    for (int cc = 0; cc < n; ++cc)
      if (cc != c)
        for (int r = 1; r < n; ++r) minor.push_back(m[cc * n + r]);
    d += (c % 2 ? -1 : 1) * m[c * n] * det(minor, n - 1);
  }
  return d;
}

std::vector<double> inverse(const std::vector<double>& m, int n) {
  std::vector<double> out(n * n);
  double d = det(m, n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) {
      std::vector<double> minor;
      for (int cc = 0; cc < n; ++cc)
        if (cc != r)
          for (int rr = 0; rr < n; ++rr)
            if (rr != c) minor.push_back(m[cc * n + rr]);
      out[c * n + r] = ((r + c) % 2 ? -1 : 1) * det(minor, n - 1) / d;
    }
  return out;
}

std::vector<double> sub(const Mat4& a, int n) {
  std::vector<double> m;
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) m.push_back(a[c][r]);
  return m;
}

TEST(Layout, MatrixAndVectorOperations) {
  Rng rng(44);
  std::vector<MatInput> in;
  while (in.size() < 150) {
    MatInput x{};
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) x.a[c][r] = float(rng.range(-3, 3)), x.b[c][r] = float(rng.range(-3, 3));
    for (int k = 0; k < 4; ++k) x.v[k] = float(rng.range(-6, 6)), x.idx[k] = rng.range(0, 1000);
    // Invertible 4x4, 3x3 and 2x2 leading blocks only.
    if (det(sub(x.a, 4), 4) == 0 || det(sub(x.a, 3), 3) == 0 || det(sub(x.a, 2), 2) == 0) continue;
    in.push_back(x);
  }
  const uint32_t n = uint32_t(in.size()), K = 200;
  // (Unoptimized, the put() helpers would stay calls sharing a Private counter; calls and
  // Private variables are covered elsewhere, and this shader is the corpus' slowest compile.)
  for (bool optimize : {true}) {
    ComputeRun run;
    run.shader = "mat_ops";
    run.optimize = optimize;
    run.groups[0] = (n + 15) / 16;
    run.pushConstants = pushBytes(n);
    auto results = runAtEveryWidth(run, {bytesOf(in), zeros<float>(n * K)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<float>(results[w][1]);
      for (uint32_t i = 0; i < n; ++i) {
        const MatInput& x = in[i];
        const auto& a = x.a;
        const auto& m = x.b;
        const float* v = x.v;
        std::vector<double> want;  // exact values, in the shader's output order
        std::vector<double> tolerance;
        auto put = [&](double value, double tol = 0) { want.push_back(value), tolerance.push_back(tol); };
        for (int r = 0; r < 4; ++r) put(a[0][r] * v[0] + a[1][r] * v[1] + a[2][r] * v[2] + a[3][r] * v[3]);
        for (int c = 0; c < 4; ++c) put(a[c][0] * v[0] + a[c][1] * v[1] + a[c][2] * v[2] + a[c][3] * v[3]);
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) put(a[0][r] * m[c][0] + a[1][r] * m[c][1] + a[2][r] * m[c][2] + a[3][r] * m[c][3]);
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) put(a[r][c]);
        for (int size : {4, 3, 2}) {
          put(det(sub(a, size), size));
          for (double e : inverse(sub(a, size), size)) put(e, 2e-6 * (1 + std::fabs(e)));
        }
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 4; ++r) put(double(v[r]) * v[2 - c]);
        // n23 = columns a[0].xyz, a[1].xyz (3 rows, 2 columns); n32 = m[0..2].xy (2 rows, 3 columns).
        auto n23 = [&](int c, int r) { return double(a[c][r]); };
        auto n32 = [&](int c, int r) { return double(m[c][r]); };
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r) put(n23(0, r) * n32(c, 0) + n23(1, r) * n32(c, 1));
        for (int c = 0; c < 2; ++c)
          for (int r = 0; r < 2; ++r) put(n32(0, r) * n23(c, 0) + n32(1, r) * n23(c, 1) + n32(2, r) * n23(c, 2));
        for (int r = 0; r < 3; ++r) put(n23(0, r) * v[0] + n23(1, r) * v[1]);
        for (int c = 0; c < 2; ++c) put(n23(c, 0) * v[0] + n23(c, 1) * v[1] + n23(c, 2) * v[2]);
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) put(double(a[c][r]) * m[c][r]);
        put(v[0] * m[1][0] + v[1] * m[1][1] + v[2] * m[1][2] + v[3] * m[1][3]);
        put(double(v[1]) * m[2][2] - double(v[2]) * m[2][1]);
        put(double(v[2]) * m[2][0] - double(v[0]) * m[2][2]);
        put(double(v[0]) * m[2][1] - double(v[1]) * m[2][0]);
        const float xxyy[4] = {v[0], v[0], v[1], v[1]};
        for (int k = 0; k < 4; ++k) put(v[3 - k] + xxyy[k] * 2.0);
        put(v[x.idx[0] & 3]);
        put(a[x.idx[1] & 3][x.idx[2] & 3]);
        for (int k = 0; k < 4; ++k) put(k == (x.idx[3] & 3) ? 100.0 : v[k]);
        Mat4 am = a;
        for (int r = 0; r < 4; ++r) am[x.idx[0] & 3][r] = v[r];
        am[x.idx[1] & 3][x.idx[2] & 3] = -1.0f;
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) put(am[c][r]);
        for (int c = 0; c < 4; ++c)
          for (int r = 0; r < 4; ++r) put(double(a[c][r]) * 2.0 - m[c][r]);
        for (int k = 0; k < 4; ++k) put(double(v[k] == m[0][k]) + double(v[k] < m[3][k]) * 2.0);
        bool anyGreater = false, allNonZero = true;
        for (int k = 0; k < 4; ++k) anyGreater |= v[k] > 5.0f, allNonZero &= v[k] != 0.0f;
        put(double(anyGreater) + double(allNonZero) * 2.0);
        ASSERT_EQ(want.size(), 169u);
        for (size_t k = 0; k < want.size(); ++k) {
          const float got = o[i * K + k];
          if (tolerance[k] == 0) {
            ASSERT_EQ(got, float(want[k])) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " item " << i << " output " << k;
          } else {
            ASSERT_NEAR(got, want[k], tolerance[k]) << "W=" << kSimdWidths[w] << " item " << i << " output " << k;
          }
        }
      }
    }
    expectSameAtEveryWidth(results);
  }
}

// Writes a float or int at a byte offset of a byte vector.
template <typename T>
void poke(std::vector<uint8_t>& b, size_t offset, T v) {
  std::memcpy(b.data() + offset, &v, sizeof(T));
}
template <typename T>
T peek(const std::vector<uint8_t>& b, size_t offset) {
  T v;
  std::memcpy(&v, b.data() + offset, sizeof(T));
  return v;
}

// std430 Item (layout_std430.comp, row-major matrices by the block's default):
// f@0 v@16 i@28 w@32 u[3]@40 m(row-major mat3, stride 16)@64 r(row-major mat2x3, stride 8)@112
// inner[2]@136 (stride 16: p@0 q@8); Item stride 176. In: header@0 cm(column-major mat3)@16 items@64.
struct ItemRef {
  float f, v[3], w[2], m[3][3], r[2][3], p[2][2];  // m, r: [column][row]
  int32_t i, q[2];
  uint32_t u[3];
};

void writeItem(std::vector<uint8_t>& b, size_t at, const ItemRef& it) {
  poke(b, at + 0, it.f);
  for (int k = 0; k < 3; ++k) poke(b, at + 16 + 4 * k, it.v[k]);
  poke(b, at + 28, it.i);
  poke(b, at + 32, it.w[0]), poke(b, at + 36, it.w[1]);
  for (int k = 0; k < 3; ++k) poke(b, at + 40 + 4 * k, it.u[k]);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) poke(b, at + 64 + 16 * r + 4 * c, it.m[c][r]);
  for (int c = 0; c < 2; ++c)
    for (int r = 0; r < 3; ++r) poke(b, at + 112 + 8 * r + 4 * c, it.r[c][r]);
  for (int k = 0; k < 2; ++k) {
    poke(b, at + 136 + 16 * k, it.p[k][0]);
    poke(b, at + 140 + 16 * k, it.p[k][1]);
    poke(b, at + 144 + 16 * k, it.q[k]);
  }
}

TEST(Layout, Std430StructsRowMajorMatricesAndRuntimeArrays) {
  const uint32_t count = 45;
  Rng rng(430);
  std::vector<ItemRef> items(count);
  float cm[3][3];
  for (auto& col : cm)
    for (float& e : col) e = float(rng.range(-4, 4));
  // The input buffer ends 100 bytes into a 46th item: .length() rounds down.
  std::vector<uint8_t> in(64 + 176 * count + 100, 0xEE);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) poke(in, 16 + 16 * c + 4 * r, cm[c][r]);
  for (uint32_t k = 0; k < count; ++k) {
    ItemRef& it = items[k];
    it.f = float(rng.range(-100, 100)) * 0.25f;
    it.i = rng.range(-50, 50);
    for (float& e : it.v) e = float(rng.range(-8, 8));
    for (float& e : it.w) e = float(rng.range(-8, 8));
    for (auto& col : it.m)
      for (float& e : col) e = float(rng.range(-4, 4));
    for (auto& col : it.r)
      for (float& e : col) e = float(rng.range(-4, 4));
    for (auto& p : it.p) p[0] = float(rng.range(-9, 9)), p[1] = float(rng.range(-9, 9));
    it.q[0] = rng.range(-9, 9), it.q[1] = rng.range(-9, 9);
    for (uint32_t& u : it.u) u = uint32_t(rng.range(0, 9));
    writeItem(in, 64 + 176 * k, it);
  }
  // The copy buffer holds exactly `count` items plus 4 guard bytes that must stay untouched.
  std::vector<uint8_t> copy(64 + 176 * count + 4, 0xCD);
  ComputeRun run;
  run.shader = "layout_std430";
  run.groups[0] = (count + 31) / 32 + 1;  // more invocations than items
  auto results = runAtEveryWidth(run, {in, zeros<float>(1 + 16 * count), copy});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto o = valuesOf<float>(results[w][1]);
    const std::vector<uint8_t>& c = results[w][2];
    EXPECT_EQ(o[0], float(count) + float(count) * 1000.0f) << "W=" << kSimdWidths[w];
    for (uint32_t k = 0; k < count; ++k) {
      const ItemRef& it = items[k];
      const float* r = &o[1 + 16 * k];
      auto at = [&](int j) { return ::testing::Message() << "W=" << kSimdWidths[w] << " item " << k << " output " << j; };
      EXPECT_EQ(r[0], it.f + float(it.i)) << at(0);
      for (int row = 0; row < 3; ++row)
        EXPECT_EQ(r[1 + row], it.m[0][row] * it.v[0] + it.m[1][row] * it.v[1] + it.m[2][row] * it.v[2]) << at(1 + row);
      for (int row = 0; row < 3; ++row) EXPECT_EQ(r[4 + row], it.r[0][row] * it.w[0] + it.r[1][row] * it.w[1]) << at(4 + row);
      EXPECT_EQ(r[7], float(it.u[0] + it.u[1] * 10 + it.u[2] * 100)) << at(7);
      for (int j = 0; j < 2; ++j) EXPECT_EQ(r[8 + j], it.p[j][0] + it.p[j][1] * 2.0f + float(it.q[j])) << at(8 + j);
      EXPECT_EQ(r[10], it.r[1][2]) << at(10);
      EXPECT_EQ(r[11], it.m[2][1]) << at(11);
      EXPECT_EQ(r[12], it.p[1][1]) << at(12);
      for (int row = 0; row < 3; ++row)
        EXPECT_EQ(r[13 + row], cm[0][row] * it.v[0] + cm[1][row] * it.v[1] + cm[2][row] * it.v[2]) << at(13 + row);
      // The copy: the same bytes as the input item at every member, then two members changed.
      ItemRef expect = it;
      expect.r[0][1] = -5.0f;
      expect.q[0] = int32_t(k);
      std::vector<uint8_t> want(c.size(), 0);
      writeItem(want, 64 + 176 * k, expect);
      const size_t base = 64 + 176 * k;
      for (size_t off : {0, 16, 20, 24, 28, 32, 36, 40, 44, 48, 64, 68, 72, 80, 84, 88, 96, 100, 104, 112, 116, 120,
                         124, 128, 132, 136, 140, 144, 152, 156, 160})
        EXPECT_EQ(peek<uint32_t>(c, base + off), peek<uint32_t>(want, base + off)) << at(100) << " copy byte " << off;
      if (::testing::Test::HasFailure()) return;
    }
    for (size_t g = c.size() - 4; g < c.size(); ++g) EXPECT_EQ(c[g], 0xCD) << "copy guard byte " << g;
  }
}

// std140 block U (layout_std140.comp): a@0 b@16 c[3]@32 (stride 16) m@80 (column-major,
// stride 16) rm@128 (row-major, stride 16) d@176 e@192 s[2]@208 (stride 16: x@0 y@8)
// r23@240 (row-major mat2x3, stride 16); 288 bytes.
TEST(Layout, Std140UniformBlock) {
  std::vector<uint8_t> u(288 + 32, 0xAB);  // bytes between members hold garbage on purpose
  float a = 1.5f, b[3] = {2, 3, 4}, c[3] = {5, 6, 7}, m[3][3], rm[3][3], d[2] = {-1, -2}, r23[2][3];
  int32_t e[4] = {10, -20, 30, -40};
  float sx[2] = {0.25f, 0.75f}, sy[2][2] = {{8, 9}, {11, 12}};
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) m[col][row] = float(10 * col + row), rm[col][row] = float(-10 * col - row - 1);
  for (int col = 0; col < 2; ++col)
    for (int row = 0; row < 3; ++row) r23[col][row] = float(100 + 10 * col + row);
  poke(u, 0, a);
  for (int k = 0; k < 3; ++k) poke(u, 16 + 4 * k, b[k]), poke(u, 32 + 16 * k, c[k]);
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) poke(u, 80 + 16 * col + 4 * row, m[col][row]), poke(u, 128 + 16 * row + 4 * col, rm[col][row]);
  poke(u, 176, d[0]), poke(u, 180, d[1]);
  for (int k = 0; k < 4; ++k) poke(u, 192 + 4 * k, e[k]);
  for (int k = 0; k < 2; ++k) poke(u, 208 + 16 * k, sx[k]), poke(u, 216 + 16 * k, sy[k][0]), poke(u, 220 + 16 * k, sy[k][1]);
  for (int col = 0; col < 2; ++col)
    for (int row = 0; row < 3; ++row) poke(u, 240 + 16 * row + 4 * col, r23[col][row]);
  // Bound as a uniform buffer, then as a dynamic uniform buffer whose data starts 256 bytes
  // into the buffer (the dynamic offset) with garbage before it.
  std::vector<uint8_t> shifted(256 + u.size(), 0x99);
  std::copy(u.begin(), u.end(), shifted.begin() + 256);
  for (bool dynamic : {false, true}) {
    ComputeRun run;
    run.shader = "layout_std140";
    run.descriptorTypes = {dynamic ? 8u /* UNIFORM_BUFFER_DYNAMIC */ : kUniformBuffer, kStorageBuffer};
    if (dynamic) run.dynamicOffsets = {256};
    auto results = runAtEveryWidth(run, {dynamic ? shifted : u, zeros<float>(8 * 48)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<float>(results[w][1]);
      for (uint32_t k = 0; k < 8; ++k) {
        std::vector<float> want{a, b[0], b[1], b[2], c[0], c[1], c[2]};
        for (int col = 0; col < 3; ++col)
          for (int row = 0; row < 3; ++row) want.push_back(m[col][row]);
        for (int col = 0; col < 3; ++col)
          for (int row = 0; row < 3; ++row) want.push_back(rm[col][row]);
        want.insert(want.end(), {d[0], d[1], float(e[0]), float(e[1]), float(e[2]), float(e[3])});
        for (int j = 0; j < 2; ++j) want.insert(want.end(), {sx[j], sy[j][0], sy[j][1]});
        for (int col = 0; col < 2; ++col)
          for (int row = 0; row < 3; ++row) want.push_back(r23[col][row]);
        want.push_back(c[k % 3]);
        want.push_back(rm[k % 3][(k + 1) % 3]);
        for (int row = 0; row < 3; ++row) want.push_back(rm[0][row] * b[0] + rm[1][row] * b[1] + rm[2][row] * b[2]);
        ASSERT_EQ(want.size(), 48u);
        for (size_t j = 0; j < want.size(); ++j)
          ASSERT_EQ(o[k * 48 + j], want[j]) << "W=" << kSimdWidths[w] << " dynamic=" << dynamic << " invocation " << k
                                            << " output " << j;
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
