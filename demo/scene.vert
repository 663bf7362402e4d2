// The scene demo's vertex shader: one unit cube mesh, placed per instance (scale, then an
// axis-angle rotation, then a translation), so hundreds of cubes cost one draw.
#version 450

layout(set = 0, binding = 0) uniform Scene {
  mat4 viewProj;
  vec4 lightDir;   // xyz: towards the light, normalized
  vec4 cameraPos;  // xyz
  vec4 fogColor;   // rgb: the clear colour, w: fog density
} scene;

layout(location = 0) in vec3 inPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;
// Per instance (input rate instance).
layout(location = 3) in vec4 instPosUvScale;  // xyz: translation, w: texture repeats per face
layout(location = 4) in vec4 instScale;       // xyz: size
layout(location = 5) in vec4 instAxisAngle;   // xyz: unit axis, w: angle in radians
layout(location = 6) in vec4 instTint;        // rgb: colour multiplied into the texture

layout(location = 0) out vec3 outWorldPos;
layout(location = 1) out vec3 outNormal;
layout(location = 2) out vec2 outUv;
layout(location = 3) out vec3 outTint;

// Rodrigues' rotation formula.
vec3 rotate(vec3 v, vec3 k, float a) {
  float c = cos(a), s = sin(a);
  return v * c + cross(k, v) * s + k * dot(k, v) * (1.0 - c);
}

void main() {
  vec3 k = instAxisAngle.xyz;
  float a = instAxisAngle.w;
  vec3 world = rotate(inPos * instScale.xyz, k, a) + instPosUvScale.xyz;
  outWorldPos = world;
  // Inverse-transpose of scale-then-rotate: rotate(n / scale).
  outNormal = rotate(inNormal / instScale.xyz, k, a);
  outUv = inUv * instPosUvScale.w;
  outTint = instTint.rgb;
  gl_Position = scene.viewProj * vec4(world, 1.0);
}
