#version 450
// VK_KHR_shader_subgroup_uniform_control_flow (SPV_KHR_subgroup_uniform_control_flow): with the
// SubgroupUniformControlFlowKHR execution mode, a subgroup operation in subgroup-uniform control
// flow sees every invocation of the subgroup, however they diverged before. Invocation i takes
// a data-dependent path (an if/else, a loop of 0-4 trips with a break, a switch, an early
// continue), and after each construct, back in uniform control flow, records:
//   out[8i + k] = bitCount of subgroupBallot(true)   (k = 0, 1, 2: after the if, loop, switch)
//   out[8i + 3] = subgroupElect() ? 1 : 0 after all of them, plus 2 x the path's value parity
// so that the compiler cannot drop the divergent code;
//   out[8i + 4] = in even workgroups (a branch that is uniform in the subgroup but not taken by
// every invocation of the dispatch), the ballot's count after a divergent if/else inside it
// (a merge only some invocations reach; the branches store, so they stay branches), else 0xFFFF;
//   out[8i + 5] = what that if/else stored: x + 5 or x ^ 9 (untouched in odd workgroups).
#extension GL_KHR_shader_subgroup_ballot : enable
#extension GL_EXT_subgroup_uniform_control_flow : enable
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint outWords[]; };

uint countBallot() {
  uvec4 b = subgroupBallot(true);
  return uint(bitCount(b.x) + bitCount(b.y) + bitCount(b.z) + bitCount(b.w));
}

void main() [[subgroup_uniform_control_flow]] {
  const uint i = gl_GlobalInvocationID.x;
  uint x = data[i];
  if (x % 3u == 0u) {
    x = x * 7u + 1u;
  } else {
    x = x ^ 0x55u;
  }
  outWords[8u * i + 0u] = countBallot();
  for (uint k = 0u; k < x % 5u; ++k) {
    if (((x >> k) & 1u) == 1u) break;
    x += k * 3u;
  }
  outWords[8u * i + 1u] = countBallot();
  switch (x % 4u) {
    case 0u: x += 11u; break;
    case 1u: x *= 3u; break;
    case 2u: x -= 1u; break;
    default: break;
  }
  outWords[8u * i + 2u] = countBallot();
  outWords[8u * i + 3u] = (subgroupElect() ? 1u : 0u) + 2u * (x & 1u);
  uint inner = 0xFFFFu;
  if ((gl_WorkGroupID.x & 1u) == 0u) {
    if ((x & 2u) != 0u) {
      outWords[8u * i + 5u] = x + 5u;
    } else {
      outWords[8u * i + 5u] = x ^ 9u;
    }
    inner = countBallot();
  }
  outWords[8u * i + 4u] = inner;
}
