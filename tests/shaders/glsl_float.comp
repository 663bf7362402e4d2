// Every GLSL.std.450 instruction GLSL can express for 32-bit floats (and packing), chosen by
// a push-constant opcode: one compile per SIMD width, one dispatch per function. The table of
// opcodes is mirrored in glsl_std450_test.cpp, with inputs, references and tolerances.
#version 450
layout(local_size_x = 64) in;
struct Item { vec4 a; vec4 c; uvec4 bits; };
layout(set = 0, binding = 0) readonly buffer In { Item items[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 r[]; };
layout(set = 0, binding = 2) writeonly buffer OutU { uvec4 ru[]; };
layout(push_constant) uniform P { uint op; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 a = items[i].a, c = items[i].c;
  uvec4 bits = items[i].bits;
  float x = a.x, y = a.y, z = a.z;
  vec4 res = vec4(0.0);
  uvec4 u = uvec4(0u);
  ivec2 ie2;
  switch (op) {
    case 0: { res.x = round(x); break; }
    case 1: { res.x = roundEven(x); break; }
    case 2: { res.x = trunc(x); break; }
    case 3: { res.x = abs(x); break; }
    case 4: { res.x = sign(x); break; }
    case 5: { res.x = floor(x); break; }
    case 6: { res.x = ceil(x); break; }
    case 7: { res.x = fract(x); break; }
    case 8: { res.x = radians(x); break; }
    case 9: { res.x = degrees(x); break; }
    case 10: { res.x = sin(x); break; }
    case 11: { res.x = cos(x); break; }
    case 12: { res.x = tan(x); break; }
    case 13: { res.x = asin(x); break; }
    case 14: { res.x = acos(x); break; }
    case 15: { res.x = atan(x); break; }
    case 16: { res.x = sinh(x); break; }
    case 17: { res.x = cosh(x); break; }
    case 18: { res.x = tanh(x); break; }
    case 19: { res.x = asinh(x); break; }
    case 20: { res.x = acosh(x); break; }
    case 21: { res.x = atanh(x); break; }
    case 22: { res.x = atan(y, x); break; }
    case 23: { res.x = pow(x, y); break; }
    case 24: { res.x = exp(x); break; }
    case 25: { res.x = log(x); break; }
    case 26: { res.x = exp2(x); break; }
    case 27: { res.x = log2(x); break; }
    case 28: { res.x = sqrt(x); break; }
    case 29: { res.x = inversesqrt(x); break; }
    case 30: { float whole; res.x = modf(x, whole); res.y = whole; break; }
    case 31: { int e; res.x = frexp(x, e); u.x = uint(e); break; }
    case 32: { res.x = ldexp(x, int(y)); break; }
    case 33: { res.x = min(x, y); break; }
    case 34: { res.x = max(x, y); break; }
    case 35: { res.x = clamp(x, y, z); break; }
    case 36: { res.x = mix(x, y, z); break; }
    case 37: { res.x = step(x, y); break; }
    case 38: { res.x = smoothstep(x, y, z); break; }
    case 39: { res.x = fma(x, y, z); break; }
    case 40: { res.x = length(a.xyz); break; }
    case 41: { res.x = distance(a.xyz, c.xyz); break; }
    case 42: { res.xyz = normalize(a.xyz); break; }
    case 43: { res.xyz = cross(a.xyz, c.xyz); break; }
    case 44: { res.x = dot(a, c); break; }
    case 45: { res.xyz = faceforward(a.xyz, c.xyz, vec3(a.w, c.w, 1.0)); break; }
    case 46: { res.xyz = reflect(a.xyz, c.xyz); break; }
    case 47: { res.xyz = refract(a.xyz, c.xyz, a.w); break; }
    case 48: { u.x = packUnorm4x8(a); break; }
    case 49: { u.x = packSnorm4x8(a); break; }
    case 50: { u.x = packUnorm2x16(a.xy); break; }
    case 51: { u.x = packSnorm2x16(a.xy); break; }
    case 52: { u.x = packHalf2x16(a.xy); break; }
    case 53: { res = unpackUnorm4x8(bits.x); break; }
    case 54: { res = unpackSnorm4x8(bits.x); break; }
    case 55: { res.xy = unpackUnorm2x16(bits.x); break; }
    case 56: { res.xy = unpackSnorm2x16(bits.x); break; }
    case 57: { res.xy = unpackHalf2x16(bits.x); break; }
    case 58: { u.x = uint(isnan(x)) | uint(isinf(x)) << 1; break; }
    case 59: { res.x = mod(x, y); break; }
    case 60: { res.x = length(x); res.y = normalize(x); res.z = distance(x, y); break; }
    case 61: { res.xy = vec2(frexp(a.xy, ie2)); res.zw = vec2(ie2); break; }
    // pow with constant integer exponents (the JIT multiplies instead of calling powf).
    case 62: { res = vec4(pow(x, 2.0), pow(x, 3.0), pow(x, 32.0), pow(x, -3.0)); break; }
    case 63: { res = vec4(pow(x, 5.0), pow(x, 64.0), pow(x, -1.0), pow(x, 17.0)); break; }
    default: break;
  }
  r[i] = res;
  ru[i] = u;
}
