#version 450
// Tessellation tests: four control points passed through, the levels from push constants, and
// a per-patch word (the patch's PrimitiveId + 1) for the evaluation stage.
layout(vertices = 4) out;
layout(push_constant) uniform Levels {
  vec4 outer;
  vec2 inner;
} levels;
layout(location = 0) in vec4 controlPoint[];
layout(location = 0) out vec4 point[];
layout(location = 1) patch out uint patchWord;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  point[gl_InvocationID] = controlPoint[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = levels.outer.x;
    gl_TessLevelOuter[1] = levels.outer.y;
    gl_TessLevelOuter[2] = levels.outer.z;
    gl_TessLevelOuter[3] = levels.outer.w;
    gl_TessLevelInner[0] = levels.inner.x;
    gl_TessLevelInner[1] = levels.inner.y;
    patchWord = uint(gl_PrimitiveID) + 1u;
  }
}
