#version 450
// Dynamic patch control points (tests/api/extended_dynamic_state2_test.cpp): one output point
// per patch, level 1; the patch records its size (PatchVertices), its PrimitiveId and the sum of
// its control points' VertexIndex values, which shows which vertices made the patch.
layout(vertices = 1) out;
layout(location = 0) in uvec4 id[];
layout(location = 0) patch out uvec4 info;
void main() {
  uint sum = 0u;
  for (int i = 0; i < gl_PatchVerticesIn; ++i) sum += id[i].x;
  info = uvec4(uint(gl_PatchVerticesIn), uint(gl_PrimitiveID), sum, 1u);
  gl_TessLevelOuter[0] = 1.0;
  gl_TessLevelOuter[1] = 1.0;
  gl_TessLevelOuter[2] = 1.0;
  gl_TessLevelInner[0] = 1.0;
  gl_out[gl_InvocationID].gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
