// A shared array of structs (mixed member types, a nested array, a bool), written by one
// batch's invocations and read back by other batches' after a barrier, in reverse order.
#version 450
layout(local_size_x = 96) in;
struct Particle { vec3 pos; uint id; bool alive; float w[3]; ivec2 cell; };
shared Particle parts[96];
layout(set = 0, binding = 0) writeonly buffer Out { float o[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  Particle p;
  p.pos = vec3(float(l), float(l) * 0.5, -float(l));
  p.id = l * 7u + gl_WorkGroupID.x;
  p.alive = (l % 3u) != 0u;
  p.w = float[3](1.0, float(l), float(l * l));
  p.cell = ivec2(int(l) - 48, int(l % 5u));
  parts[l] = p;
  barrier();
  Particle q = parts[95u - l];
  uint b = (gl_WorkGroupID.x * 96u + l) * 10u;
  o[b + 0] = q.pos.x + q.pos.y + q.pos.z;
  o[b + 1] = float(q.id);
  o[b + 2] = q.alive ? 1.0 : 0.0;
  o[b + 3] = q.w[0] + q.w[1] + q.w[2];
  o[b + 4] = float(q.cell.x * 10 + q.cell.y);
  // Members written in place by another invocation, read after a second barrier.
  barrier();
  parts[(l + 1u) % 96u].w[2] = -1.0;
  parts[(l + 1u) % 96u].alive = !parts[(l + 1u) % 96u].alive;
  barrier();
  o[b + 5] = parts[l].w[2];
  o[b + 6] = parts[l].alive ? 1.0 : 0.0;
  o[b + 7] = parts[l].pos.y;
  o[b + 8] = float(parts[l].cell.x);
  o[b + 9] = float(parts[l].id);
}
