#version 450
// Transform feedback tests (tests/api/transform_feedback_test.cpp): 64-bit outputs for the
// geometry stage of xfb_doubles.geom, each from one correctly rounded double operation (so that
// every driver computes the same bits): a dvec3 (locations 0-1) and a double (location 2); and
// a point size for the geometry stage to read.
layout(location = 0) in vec4 position;
layout(location = 0) flat out dvec3 scaled;
layout(location = 2) flat out double shifted;
void main() {
  gl_Position = position;
  gl_PointSize = 1.0 + float(gl_VertexIndex);
  scaled = dvec3(position.xyz) * 1.0000000001;
  shifted = double(gl_VertexIndex) + 0.1;
}
