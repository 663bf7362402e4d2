#version 450
// Tessellation domain origin (tests/api/extended_dynamic_state3_draws_test.cpp): the patch's
// triangle, barycentrically from its control points, in control point 0's colour (flat). The
// domain origin decides the winding of the generated triangles ("Tessellation Primitive
// Generation"), which back-face culling then shows.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) in vec4 patchColor[];
layout(location = 0) flat out vec4 color;
void main() {
  gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position +
                gl_TessCoord.z * gl_in[2].gl_Position;
  color = patchColor[0];
}
