#version 450
// Clip and cull distances through tessellation: the corners' positions and distances blended
// by gl_TessCoord (exact at the corners, the only vertices level 1 generates).
layout(triangles, equal_spacing, ccw) in;
in gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[2];
  float gl_CullDistance[1];
} gl_in[gl_MaxPatchVertices];
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[2];
  float gl_CullDistance[1];
};
void main() {
  vec3 t = gl_TessCoord;
  gl_Position = t.x * gl_in[0].gl_Position + t.y * gl_in[1].gl_Position + t.z * gl_in[2].gl_Position;
  for (int d = 0; d < 2; ++d)
    gl_ClipDistance[d] = t.x * gl_in[0].gl_ClipDistance[d] + t.y * gl_in[1].gl_ClipDistance[d] + t.z * gl_in[2].gl_ClipDistance[d];
  gl_CullDistance[0] = t.x * gl_in[0].gl_CullDistance[0] + t.y * gl_in[1].gl_CullDistance[0] + t.z * gl_in[2].gl_CullDistance[0];
}
