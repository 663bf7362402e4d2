#version 450
// The 64-bit inputs of stage_double_varyings.vert (flat, as "Interpolation Decorations"
// requires of 64-bit fragment inputs), written back out as their bit patterns.
layout(location = 0) flat in double inScalar;
layout(location = 1) flat in dvec3 inVector;
layout(location = 3) flat in dmat2x3 inMatrix;
layout(location = 7) in vec2 inAfter;
layout(location = 8, component = 2) flat in double inLate;

layout(location = 0) out uvec4 outA;
layout(location = 1) out uvec4 outB;
layout(location = 2) out uvec4 outC;
layout(location = 3) out uvec4 outD;

void main() {
  outA = uvec4(unpackDouble2x32(inScalar + 1.0), unpackDouble2x32(inVector.x));
  outB = uvec4(unpackDouble2x32(inVector.y), unpackDouble2x32(inVector.z));
  outC = uvec4(unpackDouble2x32(inMatrix[1][2]), unpackDouble2x32(inMatrix[0][1]));
  outD = uvec4(floatBitsToUint(inAfter), unpackDouble2x32(inLate));
}
