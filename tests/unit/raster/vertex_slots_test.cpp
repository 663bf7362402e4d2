// The binned path's index handling over a thread pool against obvious serial oracles, on
// randomized index lists long enough to span several of the pool's ranges, at 1, 2 and 5
// threads: readVertexIndices (draw_internal.h, "Programmable Primitive Shading" and "Primitive
// Restart"), mapVertexSlots (vertex_slots.h: a vertex shaded once however often it is named),
// and emitRunPrimitives (the "Primitive Topologies" equations for a range of a run) against
// assemblePrimitives.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "draw_internal.h"
#include "tessera/thread_pool.h"
#include "vertex_slots.h"

namespace tessera::raster {
namespace {

struct IndexedDraw {
  DrawState state;
  DrawCall call;
  std::vector<uint32_t> indices;
};

// n 32-bit indices over a window of `spread` values above `base`, 1 in 50 the restart value
// when `restart`; the call reads all but the first `first`.
IndexedDraw randomDraw(std::mt19937& rng, uint32_t n, uint32_t base, uint32_t spread, bool restart, uint32_t first) {
  IndexedDraw d;
  d.indices.resize(n);
  for (uint32_t& i : d.indices) i = restart && rng() % 50 == 0 ? 0xFFFFFFFFu : base + uint32_t(rng() % spread);
  d.state.primitiveRestart = restart;
  d.call.indexed = true;
  d.call.indices = reinterpret_cast<const uint8_t*>(d.indices.data());
  d.call.indexBytes = d.indices.size() * 4;
  d.call.indexType = VK_INDEX_TYPE_UINT32;
  d.call.firstIndex = first;
  d.call.vertexOffset = int32_t(rng() % 7) - 3;
  d.call.vertexCount = n - first;
  return d;
}

TEST(VertexSlots, IndicesReadOverThePoolMatchTheSerialRead) {
  std::mt19937 rng(11);
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  for (int round = 0; round < 12; ++round) {
    IndexedDraw d = randomDraw(rng, 1000 + uint32_t(rng() % 300000), 100, 5000, round % 2, uint32_t(rng() % 5));
    // Some draws name indices past the buffer's end (they read index 0).
    if (round % 3 == 0) d.call.vertexCount += uint32_t(rng() % 100000);
    VertexIndexList serial;
    readVertexIndices(d.state, d.call, serial);
    for (ThreadPool& pool : pools) {
      VertexIndexList parallel;
      readVertexIndices(d.state, d.call, parallel, &pool);
      EXPECT_EQ(parallel.vertexIndex, serial.vertexIndex) << "round " << round;
      EXPECT_EQ(parallel.isRestart, serial.isRestart) << "round " << round;
    }
  }
}

TEST(VertexSlots, EachDistinctIndexIsShadedOnceAtEveryThreadCount) {
  std::mt19937 rng(12);
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::vector<uint32_t> table;
  for (int round = 0; round < 16; ++round) {
    const bool restart = round % 2;
    // Narrow windows (slots shared) and, every fourth round, one too wide to map.
    const uint32_t n = 10 + uint32_t(rng() % 250000);
    const uint32_t spread = round % 4 == 3 ? 100 * n + 100000 : 1 + uint32_t(rng() % (2 * n));
    const IndexedDraw d = randomDraw(rng, n, uint32_t(rng() % 1000000), spread, restart, 0);
    VertexIndexList list;
    readVertexIndices(d.state, d.call, list);
    const VertexIndexList read = list;
    // The oracle: the distinct indices of the positions that are not restarts, in order.
    std::set<uint32_t> distinct;
    for (uint32_t i = 0; i < n; ++i)
      if (read.isRestart.empty() || !read.isRestart[i]) distinct.insert(read.vertexIndex[i]);
    const std::vector<uint32_t> sorted(distinct.begin(), distinct.end());
    const bool mapped = !sorted.empty() && uint64_t(sorted.back()) - sorted.front() < 4ull * n + 4096;
    for (ThreadPool& pool : pools) {
      VertexIndexList copy = read;
      VertexSlots slots;
      mapVertexSlots(d.call, copy, slots, table, pool);
      if (!mapped) {  // every position its own slot
        EXPECT_TRUE(slots.slotOf.empty()) << "round " << round;
        EXPECT_EQ(slots.vertexIndex, read.vertexIndex) << "round " << round;
        continue;
      }
      ASSERT_EQ(slots.vertexIndex, sorted) << "round " << round;
      ASSERT_EQ(slots.slotOf.size(), n);
      for (uint32_t i = 0; i < n; ++i) {
        if (!read.isRestart.empty() && read.isRestart[i]) continue;
        ASSERT_EQ(slots.vertexIndex[slots.slotOf[i]], read.vertexIndex[i]) << "round " << round << " position " << i;
      }
    }
  }
}

TEST(VertexSlots, ADrawWithoutIndicesShadesEveryPosition) {
  ThreadPool pool(2);
  DrawState s;
  DrawCall c;
  c.firstVertex = 70000;
  c.vertexCount = 200000;
  VertexIndexList list;
  readVertexIndices(s, c, list, &pool);
  ASSERT_EQ(list.vertexIndex.size(), c.vertexCount);
  for (uint32_t i = 0; i < c.vertexCount; ++i) ASSERT_EQ(list.vertexIndex[i], c.firstVertex + i);
  VertexSlots slots;
  std::vector<uint32_t> table;
  mapVertexSlots(c, list, slots, table, pool);
  EXPECT_TRUE(slots.slotOf.empty());
  EXPECT_EQ(slots.vertexIndex.size(), c.vertexCount);
  EXPECT_EQ(slots.slot(12345), 12345u);
}

// A primitive as (kind, a, b, c, provoking) in list positions.
using Primitive = std::tuple<int, uint32_t, uint32_t, uint32_t, uint32_t>;

TEST(VertexSlots, ARunAssembledInRangesIsTheWholeRunInOrder) {
  const VkPrimitiveTopology topologies[] = {
      VK_PRIMITIVE_TOPOLOGY_POINT_LIST,         VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
      VK_PRIMITIVE_TOPOLOGY_LINE_STRIP,         VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,     VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN,
      VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY,
      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY};
  std::mt19937 rng(13);
  for (VkPrimitiveTopology t : topologies)
    for (bool last : {false, true})
      for (uint32_t n = 0; n < 40; ++n) {
        std::vector<Primitive> whole;
        assemblePrimitives(
            t, {}, n, [&](uint32_t a) { whole.emplace_back(0, a, a, a, 0); },
            [&](uint32_t a, uint32_t b) { whole.emplace_back(1, a, b, a, 0); },
            [&](uint32_t a, uint32_t b, uint32_t c, uint32_t provoking) { whole.emplace_back(2, a, b, c, provoking); },
            last);
        const uint32_t count = runPrimitiveCount(t, n);
        ASSERT_EQ(count, whole.size()) << "topology " << t << " n " << n;
        // Random ranges; the line's strip flag: only the run's first line of a strip starts one.
        std::vector<Primitive> ranges;
        for (uint32_t first = 0; first < count;) {
          const uint32_t end = std::min(count, first + 1 + uint32_t(rng() % 5));
          emitRunPrimitives(
              t, 0, first, end, [&](uint32_t a) { ranges.emplace_back(0, a, a, a, 0); },
              [&](uint32_t a, uint32_t b, bool starts) {
                const bool strip = t == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP || t == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
                EXPECT_EQ(starts, !strip || ranges.empty());
                ranges.emplace_back(1, a, b, a, 0);
              },
              [&](uint32_t a, uint32_t b, uint32_t c, uint32_t lastAt) { ranges.emplace_back(2, a, b, c, last ? lastAt : 0); });
          first = end;
        }
        EXPECT_EQ(ranges, whole) << "topology " << t << " n " << n;
      }
}

}  // namespace
}  // namespace tessera::raster
