#version 450
// One step of an all-pairs gravitational n-body simulation (n a multiple of 256): bodies are
// staged through shared memory 256 at a time. pos.w is the mass.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer PosIn { vec4 posIn[]; };
layout(set = 0, binding = 1) readonly buffer VelIn { vec4 velIn[]; };
layout(set = 0, binding = 2) writeonly buffer PosOut { vec4 posOut[]; };
layout(set = 0, binding = 3) writeonly buffer VelOut { vec4 velOut[]; };
layout(push_constant) uniform Push {
  uint n;
  float dt;
  float softening2;
} pc;

shared vec4 tile[256];

void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 pi = posIn[i];
  vec3 acc = vec3(0.0);
  for (uint t = 0u; t < pc.n; t += 256u) {
    tile[gl_LocalInvocationID.x] = posIn[t + gl_LocalInvocationID.x];
    barrier();
    for (uint j = 0u; j < 256u; ++j) {
      vec4 pj = tile[j];
      vec3 d = pj.xyz - pi.xyz;
      float r2 = dot(d, d) + pc.softening2;
      float inv = inversesqrt(r2);
      acc += d * (pj.w * inv * inv * inv);
    }
    barrier();
  }
  vec3 v = velIn[i].xyz + acc * pc.dt;
  posOut[i] = vec4(pi.xyz + v * pc.dt, pi.w);
  velOut[i] = vec4(v, 0.0);
}
