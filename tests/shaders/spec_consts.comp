// Specialization constants: the workgroup size (local_size_x_id / local_size_y_id), int, bool,
// float and double constants, a constant derived from them (OpSpecConstantOp), and one that
// sizes a shared array.
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int scale = 1;
layout(constant_id = 3) const bool flip = false;
layout(constant_id = 4) const float bias = 0.5;
layout(constant_id = 5) const uint arrayLen = 4u;
layout(constant_id = 6) const double dbl = 1.0;
const int derived = scale * 3 + 1;
shared uint sh[arrayLen];
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_WorkGroupID.x;
  uint size = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
  if (l < arrayLen) sh[l] = l * 10u;
  barrier();
  uint b = (g * size + l) * 8u;
  o[b + 0] = float(gl_WorkGroupSize.x);
  o[b + 1] = float(gl_WorkGroupSize.y);
  o[b + 2] = float(gl_LocalInvocationID.x + 100u * gl_LocalInvocationID.y);
  o[b + 3] = float(int(l) * scale + derived);
  o[b + 4] = flip ? -bias : bias;
  o[b + 5] = float(sh[l % arrayLen]) + float(arrayLen) * 1000.0;
  o[b + 6] = float(dbl * 3.0);
  o[b + 7] = float(gl_GlobalInvocationID.x);
}
