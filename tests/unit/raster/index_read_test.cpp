// Index reading (raster/draw_vertices.cpp: readVertexIndices) for every index type:
// "Programmable Primitive Shading" (VertexIndex = the index + vertexOffset, indices of
// indexType's size from the bound offset and firstIndex) and "Primitive Restart" (the restart
// value is 0xFF for VK_INDEX_TYPE_UINT8_EXT, 0xFFFF for UINT16, 0xFFFFFFFF for UINT32, compared
// before vertexOffset is added).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "draw_internal.h"

namespace tessera::raster {
namespace {

template <typename T>
VertexIndexList readAll(VkIndexType type, const std::vector<T>& indices, uint32_t firstIndex, int32_t vertexOffset,
                        bool restart) {
  DrawState s;
  s.primitiveRestart = restart;
  DrawCall c;
  c.indexed = true;
  c.indices = reinterpret_cast<const uint8_t*>(indices.data());
  c.indexBytes = indices.size() * sizeof(T);
  c.indexType = type;
  c.firstIndex = firstIndex;
  c.vertexOffset = vertexOffset;
  c.vertexCount = uint32_t(indices.size()) - firstIndex;
  VertexIndexList out;
  readVertexIndices(s, c, out);
  return out;
}

TEST(IndexRead, Uint8IndicesAreOneByteAndRestartAt0xFF) {
  const std::vector<uint8_t> indices{9, 0x80, 0xFF, 0xFE, 7, 0xFF};
  const VertexIndexList r = readAll(VK_INDEX_TYPE_UINT8_EXT, indices, 1, 3, true);
  EXPECT_EQ(r.vertexIndex, (std::vector<uint32_t>{0x83, 0x102, 0x101, 10, 0x102}));
  EXPECT_EQ(r.isRestart, (std::vector<uint8_t>{0, 1, 0, 0, 1}));
  // Without restart 0xFF is an ordinary index.
  const VertexIndexList plain = readAll(VK_INDEX_TYPE_UINT8_EXT, indices, 0, 0, false);
  EXPECT_EQ(plain.vertexIndex, (std::vector<uint32_t>{9, 0x80, 0xFF, 0xFE, 7, 0xFF}));
  EXPECT_TRUE(plain.isRestart.empty());
}

TEST(IndexRead, WiderTypesRestartOnlyAtTheirOwnMaximum) {
  const std::vector<uint16_t> i16{0xFF, 0xFFFF, 2};
  const VertexIndexList r16 = readAll(VK_INDEX_TYPE_UINT16, i16, 0, 0, true);
  EXPECT_EQ(r16.isRestart, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(r16.vertexIndex[0], 0xFFu);
  const std::vector<uint32_t> i32{0xFFFF, 0xFFFFFFFFu, 0xFF};
  const VertexIndexList r32 = readAll(VK_INDEX_TYPE_UINT32, i32, 0, 0, true);
  EXPECT_EQ(r32.isRestart, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(r32.vertexIndex[0], 0xFFFFu);
}

}  // namespace
}  // namespace tessera::raster
