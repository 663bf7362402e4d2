// The vertex attribute divisor test's vertex shader (tests/api/draw_parameters_test.cpp): one
// point per vertex and instance at pixel (VertexIndex % 32, InstanceIndex % 32) holding the
// instance-rate attribute it fetched, with InstanceIndex and VertexIndex: a wrong element
// ("Vertex Input Address Calculation") is a wrong texel.
#version 460
layout(location = 0) in uint element;
layout(location = 0) flat out uvec4 value;
void main() {
  vec2 pixel = vec2(gl_VertexIndex & 31, gl_InstanceIndex & 31) + 0.5;
  gl_Position = vec4(pixel / 16.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
  value = uvec4(element, gl_InstanceIndex, gl_VertexIndex, 7u);
}
