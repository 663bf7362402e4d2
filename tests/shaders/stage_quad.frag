// Fragment kernel test (graphics_stage_test.cpp): inputs by location, quad derivatives,
// gl_FragCoord, gl_FrontFacing, gl_HelperInvocation, discard, gl_FragDepth, two outputs, and a
// storage-buffer write that helper invocations must not make.
#version 450
layout(location = 0) in vec4 inColor;
layout(location = 1) flat in int inId;
layout(location = 0) out vec4 outColor;
layout(location = 1) out uvec2 outInfo;
layout(std430, set = 0, binding = 0) buffer Writes { uint written[]; };
void main() {
  float dx = dFdx(inColor.x);
  float dy = dFdy(inColor.y);
  float fine = dFdxFine(inColor.z);
  uint pixel = uint(gl_FragCoord.y) * 8u + uint(gl_FragCoord.x);
  written[pixel] = 1u;
  if (inId == 7 && gl_FragCoord.x < 1.0) discard;
  outColor = vec4(dx, dy, fine, gl_FrontFacing ? 1.0 : 0.0);
  outInfo = uvec2(gl_HelperInvocation ? 1u : 0u, uint(inId));
  gl_FragDepth = gl_FragCoord.z * 0.5;
}
