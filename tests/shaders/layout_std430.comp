// std430 structs and arrays in storage buffers: vec3 alignment, arrays, row-major matrices
// inside structs (the block's default), a column-major block member, nested structs, a
// runtime array and its .length(), whole-struct copies.
#version 450
layout(local_size_x = 32) in;
struct Inner { vec2 p; int q; };
struct Item {
  float f;
  vec3 v;
  int i;
  vec2 w;
  uint u[3];
  mat3 m;
  mat2x3 r;
  Inner inner[2];
};
layout(std430, row_major, set = 0, binding = 0) readonly buffer In {
  uint header;
  layout(column_major) mat3 cm;
  Item items[];
};
layout(std430, set = 0, binding = 1) writeonly buffer Out { float o[]; };
layout(std430, row_major, set = 0, binding = 2) buffer Copy { uint copyHeader; mat3 copyCm; Item copies[]; };
void main() {
  uint k = gl_GlobalInvocationID.x;
  uint count = uint(items.length());
  if (k == 0u) o[0] = float(count) + float(copies.length()) * 1000.0;
  if (k >= count) return;
  Item it = items[k];
  uint b = 1u + k * 16u;
  o[b + 0] = it.f + float(it.i);
  vec3 mv = it.m * it.v;               // row-major 3x3 (the block's default)
  o[b + 1] = mv.x; o[b + 2] = mv.y; o[b + 3] = mv.z;
  vec3 rw = it.r * it.w;               // row-major 2x3 times vec2 -> vec3
  o[b + 4] = rw.x; o[b + 5] = rw.y; o[b + 6] = rw.z;
  o[b + 7] = float(it.u[0] + it.u[1] * 10u + it.u[2] * 100u);
  o[b + 8] = it.inner[0].p.x + it.inner[0].p.y * 2.0 + float(it.inner[0].q);
  o[b + 9] = it.inner[1].p.x + it.inner[1].p.y * 2.0 + float(it.inner[1].q);
  o[b + 10] = items[k].r[1][2];        // one element of a row-major matrix through an access chain
  o[b + 11] = items[k].m[2].y;
  o[b + 12] = items[k].inner[1].p.y;
  vec3 cv = cm * it.v;                 // column-major 3x3
  o[b + 13] = cv.x; o[b + 14] = cv.y; o[b + 15] = cv.z;
  // Whole-struct copy through memory, then modify one row-major element in place.
  copies[k] = items[k];
  copies[k].r[0][1] = -5.0;
  copies[k].inner[0].q = int(k);
}
