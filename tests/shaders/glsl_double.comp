// GLSL.std.450 on doubles (the functions GLSL defines for double), chosen by a push-constant
// opcode as in glsl_float.comp; the table is mirrored in glsl_std450_test.cpp.
#version 450
layout(local_size_x = 64) in;
struct Item { dvec4 a; dvec4 c; };
layout(set = 0, binding = 0) readonly buffer In { Item items[]; };
layout(set = 0, binding = 1) writeonly buffer Out { dvec4 r[]; };
layout(set = 0, binding = 2) writeonly buffer OutU { uvec4 ru[]; };
layout(push_constant) uniform P { uint op; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  dvec4 a = items[i].a, c = items[i].c;
  double x = a.x, y = a.y, z = a.z;
  dvec4 res = dvec4(0.0);
  uvec4 u = uvec4(0u);
  switch (op) {
    case 0: res = dvec4(sqrt(x), inversesqrt(x), abs(y), sign(y)); break;
    case 1: res = dvec4(floor(x), ceil(x), trunc(x), fract(x)); break;
    case 2: res = dvec4(round(x), roundEven(x), min(x, y), max(x, y)); break;
    case 3: res = dvec4(clamp(x, min(y, z), max(y, z)), mix(x, y, z), step(x, y), smoothstep(min(x, y), max(x, y) + 1.0, z)); break;
    case 4: res = dvec4(fma(x, y, z), mod(x, y), ldexp(x, int(z)), 0.0); break;
    case 5: { double w; res.x = modf(x, w); res.y = w; int e; res.z = frexp(x, e); res.w = double(e); break; }
    case 6: res = dvec4(length(a.xyz), distance(a.xyz, c.xyz), dot(a, c), 0.0); break;
    case 7: res.xyz = normalize(a.xyz); break;
    case 8: res.xyz = cross(a.xyz, c.xyz); break;
    case 9: res.xyz = reflect(a.xyz, c.xyz); res.w = faceforward(a.xyz, c.xyz, a.yzx).x; break;
    case 10: res.xyz = refract(a.xyz, c.xyz, a.w); break;
    case 11: { uvec2 parts = unpackDouble2x32(x); u.xy = parts; res.x = packDouble2x32(parts.yx); break; }
    case 12: {
      dmat3 m = dmat3(a.xyz, c.xyz, a.wzy);
      res.x = determinant(m);
      dmat2 m2 = dmat2(a.xy, c.xy);
      dmat2 inv = inverse(m2);
      res.yzw = dvec3(inv[0][0], inv[1][0], inv[1][1]);
      break;
    }
    default: break;
  }
  r[i] = res;
  ru[i] = u;
}
