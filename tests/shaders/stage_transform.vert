// Vertex kernel test (graphics_stage_test.cpp): attributes by location (float, vector and
// integer), push constants, gl_VertexIndex / gl_InstanceIndex, gl_Position, gl_PointSize and
// gl_ClipDistance in the gl_PerVertex block, smooth / flat / noperspective outputs.
#version 450
layout(location = 0) in vec3 inPos;
layout(location = 1) in vec4 inColor;
layout(location = 2) in ivec2 inIds;
layout(location = 0) out vec4 outColor;
layout(location = 1) flat out int outId;
layout(location = 2) noperspective out float outNp;
layout(location = 3) out Extra { vec2 pair; float single; } extra;
layout(push_constant) uniform Push { vec4 scale; } pc;
out gl_PerVertex {
  vec4 gl_Position;
  float gl_PointSize;
  float gl_ClipDistance[2];
};
void main() {
  gl_Position = vec4(inPos * pc.scale.xyz, 1.0 + float(gl_VertexIndex));
  gl_PointSize = 3.0;
  gl_ClipDistance[0] = inPos.x;
  gl_ClipDistance[1] = -inPos.y;
  outColor = inColor.bgra;
  outId = inIds.x * 100 + inIds.y + gl_InstanceIndex * 1000;
  outNp = float(gl_VertexIndex) * 0.5;
  extra.pair = inPos.yx;
  extra.single = pc.scale.w;
}
