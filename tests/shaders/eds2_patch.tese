#version 450
// Dynamic patch control points (tests/api/extended_dynamic_state2_test.cpp): patch k is a
// triangle over cell k of a row of four (NDC x centre -0.75 + 0.5 k), flat-shaded with the
// control stage's record of the patch.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) patch in uvec4 info;
layout(location = 0) flat out uvec4 words;
void main() {
  const float cx = -0.75 + 0.5 * float(info.y);
  const vec2 p = gl_TessCoord.x * vec2(cx - 0.2, -0.8) + gl_TessCoord.y * vec2(cx + 0.2, -0.8) +
                 gl_TessCoord.z * vec2(cx, 0.8);
  gl_Position = vec4(p, 0.0, 1.0);
  words = info;
}
