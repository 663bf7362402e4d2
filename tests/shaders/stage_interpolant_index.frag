// Fragment kernel test (graphics_stage_test.cpp): interpolateAtOffset of an input array element
// chosen per pixel, so the lanes of one quad read different elements. The value at the offset
// must come from that element's own plane (CTS multisample_interpolation
// nonuniform_interpolant_indexing).
#version 450
layout(location = 0) noperspective in float planes[4];
layout(location = 0) out vec4 outColor;
void main() {
  int index = int(gl_FragCoord.x) % 4;
  outColor = vec4(interpolateAtOffset(planes[index], vec2(0.25, -0.375)), float(index), 0.0, 1.0);
}
