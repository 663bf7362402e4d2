// The draw test's vertex shader (tests/api/draw_test.cpp): position and colour attributes.
#version 450
layout(location = 0) in vec3 inPos;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 color;
void main() {
  gl_Position = vec4(inPos, 1.0);
  gl_PointSize = 1.0;  // point lists must write it
  color = inColor;
}
