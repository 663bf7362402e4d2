#version 450
// 64-bit outputs ("Location Assignment": a double takes two components, a dvec3 two locations,
// a dmat2x3 two locations per column), built from bit patterns so every bit can be checked.
layout(location = 0) in uvec4 bitsA;  // (scalar lo, hi, vector.x lo, hi)
layout(location = 1) in uvec4 bitsB;  // (vector.y lo, hi, vector.z lo, hi)
layout(location = 2) in uvec4 bitsC;  // (matrix[1][2] lo, hi, after.x, after.y as float bits)

layout(location = 0) out double outScalar;
layout(location = 1) out dvec3 outVector;    // locations 1 (x, y) and 2 (z)
layout(location = 3) out dmat2x3 outMatrix;  // locations 3-4 (column 0) and 5-6 (column 1)
layout(location = 7) out vec2 outAfter;
layout(location = 8, component = 2) out double outLate;  // location 8, components 2-3

void main() {
  outScalar = packDouble2x32(bitsA.xy) * 2.0;
  outVector = dvec3(packDouble2x32(bitsA.zw), packDouble2x32(bitsB.xy), packDouble2x32(bitsB.zw));
  outMatrix = dmat2x3(dvec3(1.0, 2.0, 3.0), dvec3(4.0, 5.0, packDouble2x32(bitsC.xy)));
  outAfter = uintBitsToFloat(bitsC.zw);
  outLate = -packDouble2x32(bitsA.zw);
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
