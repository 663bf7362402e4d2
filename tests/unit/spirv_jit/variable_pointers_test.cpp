// Variable pointers (SPV_KHR_variable_pointers, VK_KHR_variable_pointers: variablePointers and
// variablePointersStorageBuffer) at W = 4, 8 and 16, optimized and not (unoptimized, the function
// returning a pointer is a real call rather than inlined). tests/shaders/var_ptr_mux.spvasm is the
// CTS's spirv_assembly.instruction.compute.variable_pointers.compute.* cases (reads through
// OpSelect / OpPhi / OpFunctionCall / OpCopyObject / OpPtrAccessChain, pointers stored in Private
// and Function variables, Workgroup pointers, writes), with every lane of a batch choosing its own
// buffer, plus a pointer carried round a loop and a negative OpPtrAccessChain Element. The expected values come from the SPIR-V spec's meaning of each instruction, computed
// here; B's and D's descriptors end before the last invocations' elements, so those lanes' pointers
// are out of the range their descriptor binds: robust buffer access (the Vulkan spec,
// "Robust Buffer Access") must still hold through a variable pointer, with Tessera's own
// guarantee (README, "every descriptor access is bounds-checked"): the load reads zero, the store
// is dropped, nothing outside the range changes (the canaries around it).
#include <gtest/gtest.h>

#include <cstring>

#include "compute_harness.h"

namespace tessera_test {
namespace {

constexpr uint32_t kN = 256;          // invocations (4 workgroups of 64)
constexpr uint32_t kBound = 200;      // elements B's and D's descriptors cover
constexpr uint32_t kColumns = 12;     // out words per invocation
constexpr size_t kCanary = 64;        // bytes before and after B's and D's ranges
constexpr uint8_t kCanaryByte = 0x5A;

uint32_t aValue(uint32_t i) { return 0x10000 + i; }
uint32_t bValue(uint32_t i) { return 0x20000 + i; }
uint32_t cValue(uint32_t i) { return 0x30000 + i; }
uint32_t dValue(uint32_t i) { return 0x40000 + i; }
// Lanes of one batch disagree: A in lane 0 and B in lane 1 of every four, a scrambled choice in
// the other two.
bool negative(uint32_t i) { return i % 4 == 0 || (i % 4 != 1 && ((i * 2654435761u) >> 13 & 1)); }

std::vector<uint8_t> words(uint32_t count, uint32_t (*value)(uint32_t), bool guarded) {
  const size_t pad = guarded ? kCanary : 0;
  std::vector<uint8_t> b(pad + 4 * size_t(count) + pad, kCanaryByte);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t v = value(i);
    std::memcpy(b.data() + pad + 4 * i, &v, 4);
  }
  return b;
}

uint32_t wordAt(const std::vector<uint8_t>& b, size_t pad, size_t index) {
  uint32_t v;
  std::memcpy(&v, b.data() + pad + 4 * index, 4);
  return v;
}

TEST(VariablePointers, EveryLaneFollowsItsOwnPointerWithinItsDescriptorRange) {
  Buffers initial;
  initial.push_back(words(kN, aValue, false));
  initial.push_back(words(kBound, bValue, true));
  std::vector<uint32_t> s(kN);
  for (uint32_t i = 0; i < kN; ++i) s[i] = negative(i) ? uint32_t(-1 - int32_t(i)) : i;
  initial.push_back(bytesOf(s));
  initial.push_back(words(kN, cValue, false));
  initial.push_back(words(kBound, dValue, true));
  initial.push_back(bytesOf(std::vector<uint32_t>(kN * kColumns, 0xEEEEEEEEu)));
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "var_ptr_mux";
    run.optimize = optimize;
    run.groups[0] = kN / 64;
    run.views = {{}, {kCanary, 4 * kBound}, {}, {}, {kCanary, 4 * kBound}, {}};
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      const uint32_t W = kSimdWidths[w];
      const Buffers& r = results[w];
      for (const size_t b : {size_t(1), size_t(4)})
        for (size_t k = 0; k < kCanary; ++k) {
          ASSERT_EQ(r[b][k], kCanaryByte) << "binding " << b << " byte " << k << " before the range, W=" << W;
          ASSERT_EQ(r[b][r[b].size() - 1 - k], kCanaryByte) << "binding " << b << " byte after the range, W=" << W;
        }
      auto out = valuesOf<uint32_t>(r[5]);
      for (uint32_t i = 0; i < kN; ++i) {
        const bool neg = negative(i);
        const uint32_t b = i < kBound ? bValue(i) : 0;  // past B's range: a robust load reads 0
        const uint32_t chosen = neg ? aValue(i) : b;
        auto at = [&](int column) {
          return ::testing::Message() << "W=" << W << " optimize=" << optimize << " invocation " << i
                                      << (neg ? " (A)" : " (B)") << " column " << column;
        };
        for (int c : {0, 1, 2, 3, 4, 5, 6, 7, 11}) EXPECT_EQ(out[i * kColumns + c], chosen) << at(c);
        EXPECT_EQ(out[i * kColumns + 8], neg ? 1u : 0u) << at(8);
        EXPECT_EQ(out[i * kColumns + 9], neg ? 1u : 0u) << at(9);
        EXPECT_EQ(out[i * kColumns + 10], (i % 4) % 2 ? b : aValue(i)) << at(10);
        EXPECT_EQ(wordAt(r[3], 0, i), cValue(i) + (neg ? 1000u : 0u)) << at(-1) << " C";
        if (i < kBound) {
          EXPECT_EQ(wordAt(r[4], kCanary, i), dValue(i) + (neg ? 0u : 1000u)) << at(-1) << " D";
        }
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_EQ(r[0], initial[0]) << "A is only read, W=" << W;
      EXPECT_EQ(r[2], initial[2]) << "S is only read, W=" << W;
    }
  }
}

// tests/shaders/var_ptr_null.spvasm: the CTS's variable_pointers.nullptr_compute.* cases (a
// Function pointer variable initialized to OpConstantNull then given a valid pointer; OpSelect
// between a valid pointer and null, only the valid one dereferenced), lanes disagreeing. Lanes
// that do dereference null (undefined in SPIR-V) get Tessera's guarantee that no access leaves
// bound memory: OpConstantNull of a logical pointer has an empty range, so the load reads 0 and
// the store is dropped (and nothing crashes).
TEST(VariablePointers, NullPointersAreValuesAndNeverReachMemory) {
  Buffers initial;
  initial.push_back(words(kN, aValue, false));
  std::vector<uint32_t> s(kN);
  for (uint32_t i = 0; i < kN; ++i) s[i] = negative(i) ? uint32_t(-1 - int32_t(i)) : i;
  initial.push_back(bytesOf(s));
  initial.push_back(words(kN, cValue, false));
  initial.push_back(bytesOf(std::vector<uint32_t>(kN * 4, 0xEEEEEEEEu)));
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "var_ptr_null";
    run.optimize = optimize;
    run.groups[0] = kN / 64;
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto out = valuesOf<uint32_t>(results[w][3]);
      for (uint32_t i = 0; i < kN; ++i) {
        const bool neg = negative(i);
        auto at = [&](int column) {
          return ::testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " invocation " << i
                                      << " column " << column;
        };
        EXPECT_EQ(out[4 * i + 0], aValue(i)) << at(0);
        EXPECT_EQ(out[4 * i + 1], neg ? aValue(i) : 7u) << at(1);
        EXPECT_EQ(out[4 * i + 2], neg ? aValue(i) : 0u) << at(2);
        EXPECT_EQ(out[4 * i + 3], 0xEEEEEEEEu) << at(3);
        EXPECT_EQ(wordAt(results[w][2], 0, i), neg ? 0xBADu : cValue(i)) << at(-1) << " C";
        if (::testing::Test::HasFailure()) return;
      }
      EXPECT_EQ(results[w][0], initial[0]) << "A is only read";
    }
  }
}

// tests/shaders/var_ptr_descriptor_array.spvasm: OpSelect between two bindings' descriptor arrays
// (A and B, two buffers each), then an access chain through the chosen array's element e, a load
// and a store, every lane choosing its own array and element. SPIR-V's meaning, computed here:
// lane i reads data[i] of buffer (useA ? A : B)[e] and writes 0xC0000 + i to its data[256 + i];
// the three other buffers keep their words there.
TEST(VariablePointers, ASelectBetweenDescriptorArraysPicksEachLanesBuffer) {
  auto fill = [](uint32_t tag) {
    std::vector<uint32_t> w(2 * kN);
    for (uint32_t i = 0; i < w.size(); ++i) w[i] = tag + i;
    return bytesOf(w);
  };
  const uint32_t tags[4] = {0x10000, 0x20000, 0x30000, 0x40000};  // A[0], A[1], B[0], B[1]
  std::vector<uint32_t> s(kN);
  for (uint32_t i = 0; i < kN; ++i) s[i] = (i * 2654435761u) >> 7;  // lanes disagree on both bits
  Buffers initial = {fill(tags[0]), fill(tags[1]), fill(tags[2]), fill(tags[3]), bytesOf(s),
                     bytesOf(std::vector<uint32_t>(kN, 0xEEEEEEEEu))};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "var_ptr_descriptor_array";
    run.optimize = optimize;
    run.groups[0] = kN / 64;
    run.arraySizes = {2, 2, 1, 1};
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      const Buffers& r = results[w];
      auto out = valuesOf<uint32_t>(r[5]);
      for (uint32_t i = 0; i < kN; ++i) {
        const bool useA = s[i] & 1;
        const uint32_t e = s[i] >> 1 & 1;
        const uint32_t chosen = (useA ? 0 : 2) + e;
        auto at = ::testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " invocation " << i
                                       << (useA ? " A[" : " B[") << e << "]";
        EXPECT_EQ(out[i], tags[chosen] + i) << at;
        for (uint32_t b = 0; b < 4; ++b)
          EXPECT_EQ(wordAt(r[b], 0, kN + i), b == chosen ? 0xC0000u + i : tags[b] + kN + i) << at << " buffer " << b;
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

// tests/shaders/var_ptr_private_init.spvasm: a Private variable whose initializer is a Workgroup
// variable (a variable pointer starting at that variable's address, as the CTS's
// variable_init.private.*_from_workgroup do). Every invocation reads, through the pointer, what
// its workgroup's first invocation wrote before the barrier: 0x5EED + the workgroup's number.
TEST(VariablePointers, APrivatePointerInitializedWithAWorkgroupVariablePointsAtIt) {
  Buffers initial = {bytesOf(std::vector<uint32_t>(kN, 0xEEEEEEEEu))};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "var_ptr_private_init";
    run.optimize = optimize;
    run.groups[0] = kN / 64;
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto out = valuesOf<uint32_t>(results[w][0]);
      for (uint32_t i = 0; i < kN; ++i)
        ASSERT_EQ(out[i], 0x5EEDu + i / 64) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " invocation " << i;
    }
  }
}

// tests/shaders/ptr_diff.spvasm: OpPtrDiff (SPIR-V 1.4, the CTS's spirv1p4.opptrdiff.*) counts
// elements of the pointee type, signed: buffer elements of 12 bytes laid out 16 apart, Workgroup
// elements of 12 bytes, a pointer stepped back by OpPtrAccessChain, int pointers into struct
// members. Expected values from the instruction's definition (the shader's header comment).
TEST(VariablePointers, PtrDiffCountsElementsOfThePointeeTypeSigned) {
  constexpr uint32_t kInvocations = 128;
  Buffers initial = {std::vector<uint8_t>(16 * 16, 0), bytesOf(std::vector<int32_t>(4 * kInvocations, 0x7EEEEEEE))};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "ptr_diff";
    run.optimize = optimize;
    run.groups[0] = kInvocations / 64;
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto out = valuesOf<int32_t>(results[w][1]);
      for (uint32_t i = 0; i < kInvocations; ++i) {
        const int32_t j = 3 + int32_t(7 * i % 13), k = int32_t(5 * i % 11), l = int32_t(i % 64);
        const int32_t want[4] = {j - k, l - (3 * l) % 64, j - 3 - k, 4 * (j - k) + 2};
        for (uint32_t c = 0; c < 4; ++c)
          ASSERT_EQ(out[4 * i + c], want[c]) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " invocation " << i
                                             << " column " << c;
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
