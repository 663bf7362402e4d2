// The reference draw path (draw.h, RasterPath::Reference): the draw on the calling thread, one
// primitive after another, which is the spec's rasterization order by construction. It is the
// oracle the binned path (draw_binned.cpp) is tested against; TESSERA_RASTER=reference selects
// it for a whole process.
#include <deque>
#include <map>
#include <memory>
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
  GeometryOutput geometry, tessellated;
  const uint32_t layerCount = drawLayerCount(s);
  // "Pipeline Statistics Queries" (the vertex stage runs for every index here).
  countStatistic(s, kInputAssemblyVertices, uint64_t(c.vertexCount) * c.instanceCount);
  if (s.statistics) countStatistic(s, kInputAssemblyPrimitives, inputPrimitives(s, indices.isRestart, c.vertexCount) * c.instanceCount);
  if (s.primitivesGenerated && !hasPrimitiveStages(s))
    countGenerated(s, inputPrimitives(s, indices.isRestart, c.vertexCount) * c.instanceCount);
  countStatistic(s, kVertexShaderInvocations, uint64_t(c.vertexCount) * c.instanceCount);
  std::map<uint32_t, std::unique_ptr<FragmentStage>> layerStages;
  std::deque<DrawState> layerStates;
  std::deque<abi::BoundResources> layerResources;
  for (uint32_t inst = 0; inst < c.instanceCount && !cancelled(s); ++inst) {
    const uint32_t instance = c.firstInstance + inst;
    LineStippleCounter stipple;
    prepareShadedVertices(s, c.vertexCount, shaded);
    shadeVertexRange(s, c, instance, indices.vertexIndex.data(), 0, c.vertexCount, shaded);
    if (hasPrimitiveStages(s)) {  // "Tessellation", "Geometry Shading": their primitives are rasterized instead
      runPrimitiveStages(s, indices.isRestart, c.vertexCount, [](uint32_t p) { return p; }, shaded, geometry, tessellated);
      countGeneratedStreams(s, geometry);
      captureGeometry(s, geometry, geometry.vertices);  // "Transform Feedback": before rasterizer discard
      if (s.rasterizerDiscard) continue;
      const ShadedVertices& v = geometry.vertices;
      for (const GeometryPrimitive& p : geometry.primitives) {
        const uint32_t viewport = p.viewport < s.viewportCount ? p.viewport : 0;
        // "Line Stipple": every line of a strip moves the counter, drawn or not (as the binned
        // path counts them before it sorts them by layer).
        const double stippleCounter = p.vertexCount == 2 && s.raster.lineStippleEnable
                                          ? stipple.next(p.startsStrip, v.position(p.slots[0]), v.position(p.slots[1]),
                                                         viewportRaster(s, viewport))
                                          : 0.0;
        FragmentStage* stage = &fragments;
        if (lastStageWritesLayer(s)) {  // "Layered Rendering": a stage per layer (other memory, any order)
          if (p.layer >= layerCount) continue;  // no such layer: undefined, nothing written
          std::unique_ptr<FragmentStage>& layered = layerStages[p.layer];
          if (!layered) {
            layerStates.push_back(layerState(s, p.layer, &layerResources.emplace_back()));
            layered = std::make_unique<FragmentStage>(layerStates.back());
          }
          stage = layered.get();
        }
        stage->setViewport(viewport);
        if (p.vertexCount == 1) stage->point(v, p.slots[0], v.pointSize[p.slots[0]], p.primitiveId);
        else if (p.vertexCount == 2) stage->line(v, p.slots[0], p.slots[1], p.primitiveId, lineSetups, stippleCounter);
        else stage->triangle(v, p.slots[0], p.slots[1], p.slots[2], p.provoking, p.primitiveId, setups);
      }
      continue;
    }
    captureAssembled(s, indices.isRestart, c.vertexCount, [](uint32_t p) { return p; }, shaded);
    if (s.rasterizerDiscard) continue;
    uint32_t primitiveId = 0;
    assemblePrimitives(
        s.topology, indices.isRestart, c.vertexCount,
        [&](uint32_t a) { fragments.point(shaded, a, shaded.pointSize[a], primitiveId++); },
        [&](uint32_t a, uint32_t b, bool startsStrip) {
          const double counter = stipple.next(startsStrip, shaded.position(a), shaded.position(b), s.raster);
          fragments.line(shaded, a, b, primitiveId++, lineSetups, counter);
        },
        [&](uint32_t a, uint32_t b, uint32_t d, uint32_t provoking) {
          fragments.triangle(shaded, a, b, d, provoking, primitiveId++, setups);
        },
        s.provokingVertexLast);
  }
  fragments.flush();
  for (auto& [layer, stage] : layerStages) stage->flush();
}

}  // namespace tessera::raster
