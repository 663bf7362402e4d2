// distanceOutputUse (spirv_jit/distance_use.h) on glslang's output: every gl_PerVertex block
// declares ClipDistance and CullDistance, and only the shaders that assign them write them.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "distance_use.h"

namespace tessera::jit {
namespace {

std::vector<uint32_t> loadShader(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

DistanceOutputUse useOf(const std::string& name, spv::ExecutionModel model) {
  const std::vector<uint32_t> words = loadShader(name);
  EXPECT_FALSE(words.empty()) << name;
  Module m;
  std::string error;
  EXPECT_TRUE(m.parse(words, &error)) << name << ": " << error;
  const EntryPoint* entry = m.findEntryPoint("main", model);
  EXPECT_NE(entry, nullptr) << name;
  return entry ? distanceOutputUse(m, *entry) : DistanceOutputUse{};
}

TEST(DistanceUse, DeclaredButNeverAssignedIsNotWritten) {
  for (const char* name : {"fullscreen_vert", "draw_basic_vert", "tess_passthrough_vert"}) {
    const DistanceOutputUse u = useOf(name, spv::ExecutionModel::Vertex);
    EXPECT_FALSE(u.clip) << name;
    EXPECT_FALSE(u.cull) << name;
  }
  const DistanceOutputUse g = useOf("gs_quads_geom", spv::ExecutionModel::Geometry);
  EXPECT_FALSE(g.clip);
  EXPECT_FALSE(g.cull);
}

TEST(DistanceUse, AssignedDistancesAreWrittenInEveryStage) {
  const std::pair<const char*, spv::ExecutionModel> cases[] = {
      {"clip_distance_vert", spv::ExecutionModel::Vertex},
      {"clip_distance_geom", spv::ExecutionModel::Geometry},
      {"clip_distance_tesc", spv::ExecutionModel::TessellationControl},  // gl_out[i].gl_ClipDistance
      {"clip_distance_tese", spv::ExecutionModel::TessellationEvaluation}};
  for (const auto& [name, model] : cases) {
    const DistanceOutputUse u = useOf(name, model);
    EXPECT_TRUE(u.clip) << name;
    EXPECT_TRUE(u.cull) << name;
  }
}

}  // namespace
}  // namespace tessera::jit
