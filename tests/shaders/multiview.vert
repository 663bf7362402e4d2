// multiview_test.cpp: instance i of a 6-vertex draw is a 16x16-pixel square at (4 + 8i, 4 + 4v)
// in view v (edges on pixel boundaries, so coverage is exact at every sample), at depth 0.25
// when i and v have the same parity, else 0.75; it passes (ViewIndex, InstanceIndex) on.
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat out uvec2 viewInstance;
const vec2 kCorners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(1, 0), vec2(1, 1), vec2(0, 1));
void main() {
  const uint view = uint(gl_ViewIndex), instance = uint(gl_InstanceIndex);
  const vec2 pixel = vec2(4 + 8 * instance, 4 + 4 * view) + kCorners[gl_VertexIndex % 6] * 16.0;
  const float z = (instance & 1u) == (view & 1u) ? 0.25 : 0.75;
  gl_Position = vec4(pixel / 16.0 - 1.0, z, 1.0);
  viewInstance = uvec2(view, instance);
}
