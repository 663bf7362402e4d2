// The reference draw path (draw.h, RasterPath::Reference): the draw on the calling thread, one
// primitive after another, which is the spec's rasterization order by construction. It is the
// oracle the binned path (draw_binned.cpp) is tested against; TESSERA_RASTER=reference selects
// it for a whole process.
#include <vector>

#include "draw_internal.h"

namespace tessera::raster {

void drawReference(const DrawState& s, const DrawCall& c) {
  if (!s.vertexShader || c.vertexCount == 0 || c.instanceCount == 0) return;
  VertexIndexList indices;
  readVertexIndices(s, c, indices);
  FragmentStage fragments(s);
  ShadedVertices shaded;
  std::vector<SetupTriangle> setups;
  std::vector<SetupLine> lineSetups;
  for (uint32_t inst = 0; inst < c.instanceCount; ++inst) {
    const uint32_t instance = c.firstInstance + inst;
    prepareShadedVertices(s, c.vertexCount, shaded);
    shadeVertexRange(s, c, instance, indices.vertexIndex.data(), 0, c.vertexCount, shaded);
    if (s.rasterizerDiscard) continue;
    uint32_t primitiveId = 0;
    assemblePrimitives(
        s.topology, indices.isRestart, c.vertexCount,
        [&](uint32_t a) { fragments.point(shaded, a, shaded.pointSize[a], primitiveId++); },
        [&](uint32_t a, uint32_t b) { fragments.line(shaded, a, b, primitiveId++, lineSetups); },
        [&](uint32_t a, uint32_t b, uint32_t d) { fragments.triangle(shaded, a, b, d, primitiveId++, setups); });
  }
  fragments.flush();
}

}  // namespace tessera::raster
