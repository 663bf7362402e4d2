#version 450
// Tessellation tests (tests/api/tessellation_test.cpp): the vertex stage passes its position
// (binding 0) on as gl_Position and as a location the control stage reads.
layout(location = 0) in vec4 position;
layout(location = 0) out vec4 controlPoint;
void main() {
  gl_Position = position;
  controlPoint = position;
}
