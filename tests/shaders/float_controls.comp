#version 450
// What the float-controls properties promise (VkPhysicalDeviceFloatControlsProperties:
// shaderDenormPreserve, shaderSignedZeroInfNanPreserve, shaderRoundingModeRTE for 32 and 64
// bits): denormals survive arithmetic, signed zeros and infinities behave per IEEE 754, and
// additions round to nearest even. Inputs come from a buffer so nothing folds at compile time.
// Expected words: types_test.cpp, FloatControlsTheDeviceReportsHold.
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer In { float f[8]; double d[4]; };
layout(std430, binding = 1) buffer Out { uint o[16]; uvec2 o64[4]; };
void main() {
  const float denorm = f[0], negZero = f[1], inf = f[2], one = f[3], halfUlp = f[4], ulp = f[5];
  o[0] = floatBitsToUint(denorm * one);         // smallest denormal kept, not flushed
  o[1] = floatBitsToUint(denorm + denorm);      // 2 x smallest denormal
  o[2] = floatBitsToUint(negZero * one);        // -0
  o[3] = floatBitsToUint(negZero + negZero);    // -0
  o[4] = floatBitsToUint(inf - inf);            // NaN
  o[5] = floatBitsToUint(one / negZero);        // -inf
  o[6] = floatBitsToUint(one + halfUlp);        // tie: to even, 1.0
  o[7] = floatBitsToUint((one + ulp) + halfUlp);  // tie: to even, 1 + 2 ulp
  o[8] = floatBitsToUint(denorm * f[6]);        // denormal * 0.5 = 0.5 x smallest: tie, to even 0
  const double ddenorm = d[0], done = d[1];
  o64[0] = unpackDouble2x32(ddenorm * done);    // smallest double denormal kept
  o64[1] = unpackDouble2x32(ddenorm + ddenorm);
  o64[2] = unpackDouble2x32(done + d[2]);       // 1 + 2^-53: tie, to even 1.0
}
