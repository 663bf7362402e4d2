// The draw test's vertex shader for large points (tests/api/draw_test.cpp): position, colour
// and the point size from the vertex buffer.
#version 450
layout(location = 0) in vec3 inPos;
layout(location = 1) in vec4 inColor;
layout(location = 2) in float inPointSize;
layout(location = 0) out vec4 color;
void main() {
  gl_Position = vec4(inPos, 1.0);
  gl_PointSize = inPointSize;
  color = inColor;
}
