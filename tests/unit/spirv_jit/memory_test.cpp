// Memory: robustness of descriptor-bounded accesses (out-of-range loads, stores and atomics
// with canaries around the bound range), physical storage buffer pointers, specialization
// constants. Each at W = 4, 8 and 16.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <set>

#include "compute_harness.h"

namespace tessera_test {
namespace {

constexpr size_t kCanary = 64;   // bytes before and after each bound range
constexpr uint8_t kCanaryByte = 0x5A;

// A buffer of `range` bytes (filled by fill) with canaries on both sides; its view covers the range.
std::vector<uint8_t> guarded(size_t range, const std::function<void(uint8_t*)>& fill) {
  std::vector<uint8_t> b(kCanary + range + kCanary, kCanaryByte);
  fill(b.data() + kCanary);
  return b;
}

void expectCanaries(const std::vector<uint8_t>& b, const char* name, uint32_t w) {
  for (size_t k = 0; k < kCanary; ++k) {
    ASSERT_EQ(b[k], kCanaryByte) << name << ": byte " << k << " before the range changed, W=" << w;
    ASSERT_EQ(b[b.size() - 1 - k], kCanaryByte) << name << ": byte " << k << " from the end changed, W=" << w;
  }
}

uint32_t word(const std::vector<uint8_t>& b, size_t index) {  // index-th uint32 of the range
  uint32_t v;
  std::memcpy(&v, b.data() + kCanary + 4 * index, 4);
  return v;
}

TEST(Memory, OutOfBoundsAccessesStayInsideTheDescriptorRange) {
  const uint32_t n = 256, elements = 200;
  const int32_t oob[] = {-1, -2, -3, -4, -16, -17, INT_MIN, INT_MIN + 1, 200, 201, 202, 1000, INT_MAX, INT_MAX - 1,
                         -1000000, 0x40000000};
  // Every fourth invocation indexes out of range; the others each own one in-range element.
  std::vector<int32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = i % 4 == 0 ? oob[(i / 4) % 16] : int32_t(i - i / 4 - 1);
  auto d0 = guarded(4 * elements, [](uint8_t* p) {
    for (uint32_t k = 0; k < 200; ++k) {
      uint32_t v = 0x1000 + k;
      std::memcpy(p + 4 * k, &v, 4);
    }
  });
  auto v0 = guarded(16 * elements + 8, [](uint8_t* p) {  // a partial 201st uvec4
    for (uint32_t k = 0; k < 802; ++k) {
      uint32_t v = 0x2000 + k;
      std::memcpy(p + 4 * k, &v, 4);
    }
  });
  auto p0 = guarded(8 * elements, [](uint8_t* p) {
    for (uint32_t k = 0; k < 400; ++k) {
      uint32_t v = 0x3000 + k;
      std::memcpy(p + 4 * k, &v, 4);
    }
  });
  // One compile per width, one dispatch per uniform index.
  std::vector<std::shared_ptr<const tessera::jit::ComputeProgram>> programs;
  for (uint32_t w : kSimdWidths) {
    ComputeRun run;
    run.shader = "mem_robust";
    run.simdWidth = w;
    run.buffers.resize(5);
    auto r = compileShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    programs.push_back(r.program);
  }
  for (int32_t uniformIndex : {-1, 200, INT_MIN, 0x3fffffff}) {
    std::vector<Buffers> results;
    for (auto& program : programs) {
      Buffers b{d0, v0, p0, bytesOf(idx), zeros<uint32_t>(8 * n)};
      ComputeRun run;
      run.groups[0] = n / 64;
      run.pushConstants = pushBytes(uniformIndex);
      run.views = {{kCanary, 4 * elements}, {kCanary, 16 * elements + 8}, {kCanary, 8 * elements}, {}, {}};
      for (auto& buffer : b) run.buffers.push_back(&buffer);
      dispatch(*program, run);
      results.push_back(std::move(b));
    }
    for (size_t w = 0; w < results.size(); ++w) {
      const uint32_t W = kSimdWidths[w];
      const auto& d = results[w][0];
      const auto& v = results[w][1];
      const auto& p = results[w][2];
      expectCanaries(d, "d", W);
      expectCanaries(v, "v", W);
      expectCanaries(p, "p", W);
      auto o = valuesOf<uint32_t>(results[w][4]);
      // An out-of-range load gives zero or a value from the bound range: an initial one, or one
      // that another workgroup already stored there (0xC..., 0xD..., 0xE..., 0xF...).
      auto zeroOrIn = [](uint32_t x, uint32_t lo, uint32_t count) {
        return x == 0 || (x >= lo && x < lo + count) || (lo != 0 && (x >> 28) >= 0xC);
      };
      for (uint32_t i = 0; i < n; ++i) {
        const int32_t k = idx[i];
        const bool in = k >= 0 && k < int32_t(elements);
        auto at = [&](int j) { return ::testing::Message() << "W=" << W << " invocation " << i << " index " << k << " output " << j; };
        if (in) {
          EXPECT_EQ(o[8 * i + 0], 0x1000u + k) << at(0);
          EXPECT_EQ(o[8 * i + 1], 0x2000u + 4 * k + 1) << at(1);
          EXPECT_EQ(o[8 * i + 2], (0x2000u + 4 * k) ^ (0x2001u + 4 * k) ^ (0x2002u + 4 * k) ^ (0x2003u + 4 * k)) << at(2);
          EXPECT_EQ(o[8 * i + 3], 0x3000u + 2 * k + 1) << at(3);
        } else {
          EXPECT_TRUE(zeroOrIn(o[8 * i + 0], 0x1000, 200)) << at(0) << ": " << o[8 * i];
          EXPECT_TRUE(zeroOrIn(o[8 * i + 1], 0x2000, 802)) << at(1) << ": " << o[8 * i + 1];
          EXPECT_TRUE(zeroOrIn(o[8 * i + 3], 0x3000, 400)) << at(3) << ": " << o[8 * i + 3];
        }
        EXPECT_TRUE(zeroOrIn(o[8 * i + 4], 0x1000, 200)) << at(4);
        EXPECT_TRUE(zeroOrIn(o[8 * i + 5], 0, 16)) << at(5);
        EXPECT_EQ(o[8 * i + 6], 0xB0B0B0B0u) << at(6) << ": shared memory before the array changed";
        EXPECT_EQ(o[8 * i + 7], 0xAFAFAFAFu) << at(7) << ": shared memory after the array changed";
        if (in) {
          EXPECT_EQ(word(d, k), 0xD0000001u + i) << at(10);
          for (int c = 0; c < 4; ++c) EXPECT_EQ(word(v, 4 * k + c), 0xE0000000u + i) << at(11);
          EXPECT_EQ(word(p, 2 * k), 0xF0000000u + i) << at(12);
          EXPECT_EQ(word(p, 2 * k + 1), 0x3001u + 2 * k) << at(13);
        }
        if (::testing::Test::HasFailure()) return;
      }
      // Elements nobody indexes in range keep their values (out-of-range writes went nowhere
      // or, as the spec allows, somewhere inside the range: here, nowhere).
      for (uint32_t k = 192; k < elements; ++k) {
        EXPECT_EQ(word(d, k), 0x1000 + k) << "W=" << W << " d[" << k << "]";
        EXPECT_EQ(word(p, 2 * k), 0x3000 + 2 * k) << "W=" << W << " p[" << k << "].a";
      }
      for (uint32_t k = 4 * 192; k < 802; ++k) {
        uint32_t x = word(v, k);
        EXPECT_TRUE(x == 0x2000 + k || (x >> 28) == 0xE) << "W=" << W << " v word " << k;
      }
    }
  }
}


// Node of bda.comp's linked list: vec3 pos @0, int value @12, Node next @16; stride 32.
struct alignas(16) NodeC {
  float pos[3];
  int32_t value;
  uint64_t next;
};
static_assert(sizeof(NodeC) == 32);

TEST(Memory, BufferDeviceAddressesListsArithmeticAndAtomics) {
  const uint32_t n = 300;
  std::vector<NodeC> nodes(8);
  for (uint32_t k = 0; k < 8; ++k) nodes[k] = {{float(k), float(10 * k), float(-int(k))}, int32_t(100 + k), 0};
  const int order[] = {0, 3, 5, 1};  // head -> 3 -> 5 -> 1 -> null
  for (int k = 0; k < 3; ++k) nodes[order[k]].next = reinterpret_cast<uint64_t>(&nodes[order[k + 1]]);
  // bda_spvopt: after spirv-opt -O (phis of pointers with OpUndef operands).
  for (std::string shader : {"bda", "bda_spvopt"})
  for (bool optimize : {true, false})
  for (uint32_t w : kSimdWidths) {
    std::vector<uint32_t> counter(1 + n + 1, 0);  // count, slots[n], a guard word
    counter.back() = 0xC0FFEE;
    std::vector<float> floats(n);
    for (uint32_t i = 0; i < n; ++i) floats[i] = float(i) * 0.25f;
    auto out = zeros<float>(4 * n);
    ComputeRun run;
    run.shader = shader;
    run.simdWidth = w;
    run.optimize = optimize;
    run.groups[0] = (n + 63) / 64;
    run.buffers = {&out};
    run.pushConstants = pushBytes(reinterpret_cast<uint64_t>(nodes.data()), reinterpret_cast<uint64_t>(counter.data()),
                                  reinterpret_cast<uint64_t>(floats.data()), n);
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto o = valuesOf<float>(out);
    std::vector<uint32_t> slots(counter.begin() + 1, counter.begin() + 1 + n);
    std::sort(slots.begin(), slots.end());
    EXPECT_EQ(counter[0], n) << "W=" << w;
    EXPECT_EQ(counter.back(), 0xC0FFEEu) << "W=" << w;
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(slots[i], i) << "W=" << w << ": slots written through a reference are not a permutation";
      uint32_t steps = 0;
      const NodeC* p = &nodes[0];
      for (uint32_t k = 0; k < i % 5 && p->next; ++k) p = reinterpret_cast<const NodeC*>(p->next), ++steps;
      const NodeC& q = nodes[i % 8];
      ASSERT_EQ(floats[i], float(i) * 0.25f * 2.0f + float(q.value)) << "W=" << w << " i=" << i;
      ASSERT_EQ(o[4 * i + 0], p->pos[0] + p->pos[1]) << "W=" << w << " i=" << i;
      ASSERT_EQ(o[4 * i + 1], float(p->value)) << "W=" << w << " i=" << i;
      ASSERT_EQ(o[4 * i + 2], q.pos[2]) << "W=" << w << " i=" << i;
      const NodeC* rn = &nodes[0];
      for (uint32_t k = 0; k < i % 3 && rn->next; ++k) rn = reinterpret_cast<const NodeC*>(rn->next);
      if (i & 1) rn = &q;
      ASSERT_EQ(o[4 * i + 3], float(steps) + 1000.0f * float(rn->value)) << shader << " W=" << w << " i=" << i;
    }
  }
}

TEST(Memory, PtrAccessChainStepsByTheArrayStrideOfThePointerType) {
  // psb_ptr_chain.spvasm: nodes[i] through OpPtrAccessChain with ArrayStride 32 on a struct
  // whose members end at 16 bytes.
  const uint32_t n = 100;
  std::vector<NodeC> nodes(n);
  for (uint32_t k = 0; k < n; ++k) nodes[k] = {{0, float(k % 7), 0}, int32_t(k * 3), 0};
  for (uint32_t w : kSimdWidths) {
    auto out = zeros<int32_t>(n);
    ComputeRun run;
    run.shader = "psb_ptr_chain";
    run.simdWidth = w;
    run.groups[0] = (n + 63) / 64;
    run.buffers = {&out};
    run.pushConstants = pushBytes(reinterpret_cast<uint64_t>(nodes.data()), n);
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto o = valuesOf<int32_t>(out);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(o[i], int32_t(i * 3 * 1000 + i % 7)) << "W=" << w << " i=" << i;
  }
}

TEST(Memory, DescriptorArraysNonUniformIndicesAndDynamicOffsets) {
  const uint32_t n = 256, sizes[4] = {40, 48, 56, 64};
  const int32_t oob[] = {-1, -2, -17, INT_MIN, 1000, 0x7fffffff, -1000000, 64};
  std::vector<int32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = i % 8 == 0 ? oob[(i / 8) % 8] : int32_t(16 + i / 4);
  Buffers initial;
  for (uint32_t b = 0; b < 4; ++b)
    initial.push_back(guarded(4 * sizes[b], [&](uint8_t* p) {
      for (uint32_t e = 0; e < sizes[b]; ++e) {
        uint32_t v = (b << 16) | e;
        std::memcpy(p + 4 * e, &v, 4);
      }
    }));
  std::vector<uint32_t> dyn(64);
  for (uint32_t e = 0; e < 64; ++e) dyn[e] = 0x7000 + e;
  initial.push_back(bytesOf(dyn));
  initial.push_back(zeros<uint32_t>(6 * n));
  initial.push_back(bytesOf(idx));
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "desc_arrays";
    run.optimize = optimize;
    run.groups[0] = n / 64;
    run.pushConstants = pushBytes(n, int32_t(2));
    run.arraySizes = {4, 1, 1, 1};
    run.descriptorTypes = {kStorageBuffer, kStorageBufferDynamic, kStorageBuffer, kStorageBuffer};
    run.views = {{kCanary, 4 * sizes[0]}, {kCanary, 4 * sizes[1]}, {kCanary, 4 * sizes[2]}, {kCanary, 4 * sizes[3]}, {0, 128}};
    run.dynamicOffsets = {16};
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      const uint32_t W = kSimdWidths[w];
      for (uint32_t b = 0; b < 4; ++b) expectCanaries(results[w][b], "bufs[b]", W);
      auto o = valuesOf<uint32_t>(results[w][5]);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t b = i % 4;
        const int32_t k = idx[i];
        const bool in = k >= 0 && k < int32_t(sizes[b]);
        auto at = [&](int j) {
          return ::testing::Message() << "W=" << W << " optimize=" << optimize << " invocation " << i << " k=" << k
                                      << " output " << j;
        };
        EXPECT_EQ(o[6 * i + 0], (b << 16) | ((i / 4) % 16)) << at(0);
        EXPECT_EQ(o[6 * i + 1], (2u << 16) | (i % 16)) << at(1);
        EXPECT_EQ(o[6 * i + 2], sizes[b]) << at(2);
        EXPECT_EQ(o[6 * i + 3], 0x7004 + i % 32) << at(3);
        if (in) {
          EXPECT_EQ(o[6 * i + 4], (b << 16) | uint32_t(k)) << at(4);
          EXPECT_EQ(o[6 * i + 5], (b << 16) | uint32_t(k)) << at(5);
          EXPECT_EQ(word(results[w][b], k), 0xA1000000u + i) << at(6);
        } else {
          EXPECT_TRUE(o[6 * i + 4] == 0 || (o[6 * i + 4] >> 16) == b || (o[6 * i + 4] >> 24) == 0xA1) << at(4);
        }
        if (::testing::Test::HasFailure()) return;
      }
      for (uint32_t b = 0; b < 4; ++b)
        for (uint32_t e = 0; e < 16; ++e) EXPECT_EQ(word(results[w][b], e), (b << 16) | e) << "W=" << W << " untouched element";
    }
  }
}

TEST(Memory, WorkgroupPointerArgumentsKeepTheirBoundsInTheCallee) {
  // fn_ptr_params.spvasm: a shared array passed to a function that stores at an index that
  // may be out of range and increments / decrements elements with OpAtomicIIncrement /
  // OpAtomicIDecrement; the shared array after it must stay intact.
  const uint32_t groups = 3;
  std::vector<uint32_t> idx;
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t l = 0; l < 16; ++l)
      idx.push_back(l == 0 ? 16u : l == 1 ? 0xffffffffu : l == 5 ? 0x80000000u : l == 9 ? 1000u : l == 12 ? 17u : l);
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "fn_ptr_params";
    run.groups[0] = groups;
    run.optimize = optimize;
    auto results = runAtEveryWidth(run, {bytesOf(idx), zeros<uint32_t>(2 * 16 * groups)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<uint32_t>(results[w][1]);
      for (uint32_t i = 0; i < 16 * groups; ++i) {
        const uint32_t l = i % 16;
        const uint32_t want = l == 0 ? 16u : l == 1 ? 0u - 16u : (l == 5 || l == 9 || l == 12) ? 0u : l + 100;
        ASSERT_EQ(o[2 * i], want) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " shared[" << l << "]";
        ASSERT_EQ(o[2 * i + 1], 0xA0 + l) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " guard[" << l << "]";
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// mem_contiguous.comp: loads and stores whose lanes are consecutive elements take one masked
// vector access when the whole batch is in range (lane_affine.h) and the per-lane path when it
// straddles an end; either way every lane gets the result robust buffer access defines here:
// an out-of-range load reads 0 (workgroup memory too), an out-of-range store writes nothing,
// and memory outside the bound ranges is untouched. Ranges of 250 and 249 elements are no
// multiple of any W, so batches straddle the ends at W = 4, 8 and 16. Lanes reading a block
// index (i / 4) or all one element take one load and a shuffle when lane 0's index has its low
// bits clear, and the per-lane path otherwise.
TEST(Memory, ContiguousLanesStraddlingTheEndsOfTheirRanges) {
  const uint32_t n = 256, inElements = 250, outElements = 249;
  std::vector<std::shared_ptr<const tessera::jit::ComputeProgram>> programs;
  for (uint32_t w : kSimdWidths) {
    ComputeRun run;
    run.shader = "mem_contiguous";
    run.simdWidth = w;
    run.buffers.resize(4);
    auto r = compileShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    programs.push_back(r.program);
  }
  for (int32_t shift : {0, 3, -5, -70, 13, 245, 1000, INT_MIN, 4, 8, 996})
    for (uint32_t count : {256u, 37u}) {
      for (size_t w = 0; w < programs.size(); ++w) {
        const uint32_t W = kSimdWidths[w];
        auto in = guarded(4 * inElements, [](uint8_t* p) {
          for (uint32_t k = 0; k < 250; ++k) {
            uint32_t v = 0x1000 + k;
            std::memcpy(p + 4 * k, &v, 4);
          }
        });
        auto o1 = guarded(4 * outElements, [](uint8_t* p) { std::memset(p, 0xEE, 4 * 249); });
        auto o2 = zeros<uint32_t>(n);
        auto o3 = zeros<uint32_t>(n);
        ComputeRun run;
        run.groups[0] = n / 64;
        run.buffers = {&in, &o1, &o2, &o3};
        run.views = {{kCanary, 4 * inElements}, {kCanary, 4 * outElements}, {}, {}};
        run.pushConstants = pushBytes(shift, count);
        dispatch(*programs[w], run);
        expectCanaries(in, "in", W);
        expectCanaries(o1, "o1", W);
        auto loaded = [&](uint32_t i) -> uint32_t {
          const uint32_t k = i + uint32_t(shift);
          return k < inElements ? 0x1000 + k : 0;
        };
        auto where = [&](const char* what, uint32_t x) {
          return ::testing::Message() << what << " " << x << ", W=" << W << " shift=" << shift << " count=" << count;
        };
        std::vector<uint32_t> expected1(outElements, 0xEEEEEEEEu);
        for (uint32_t i = 0; i < n && i < count; ++i)
          if (uint32_t k = i + uint32_t(shift); k < outElements) expected1[k] = loaded(i) + 1;
        for (uint32_t k = 0; k < outElements; ++k) ASSERT_EQ(word(o1, k), expected1[k]) << where("o1 element", k);
        auto out2 = valuesOf<uint32_t>(o2);
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t l = i % 64, j = l + 16 + (uint32_t(shift) & 31);  // s[j]: v of lane j - 16
          const uint32_t expected = j < 80 ? loaded(i - l + (j - 16)) : 0;
          ASSERT_EQ(out2[i], expected) << where("invocation", i);
        }
        auto out3 = valuesOf<uint32_t>(o3);
        for (uint32_t i = 0; i < n; ++i) {
          const uint32_t k = (i + uint32_t(shift)) / 4;
          const uint32_t expected = (k < inElements ? 0x1000 + k : 0) + 0x1000 + (uint32_t(shift) & 7);
          ASSERT_EQ(out3[i], expected) << where("o3 of invocation", i);
        }
      }
    }
}

}  // namespace
}  // namespace tessera_test
