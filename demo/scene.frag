// The scene demo's fragment shader: textured (trilinear, through a sampler), Lambert diffuse
// plus a Blinn-Phong highlight from one directional light, and distance fog into the sky.
#version 450

layout(set = 0, binding = 0) uniform Scene {
  mat4 viewProj;
  vec4 lightDir;
  vec4 cameraPos;
  vec4 fogColor;
} scene;
layout(set = 0, binding = 1) uniform sampler2D albedo;

layout(location = 0) in vec3 inWorldPos;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;
layout(location = 3) in vec3 inTint;

layout(location = 0) out vec4 outColor;

void main() {
  vec3 n = normalize(inNormal);
  vec3 l = scene.lightDir.xyz;
  vec3 toEye = scene.cameraPos.xyz - inWorldPos;
  vec3 v = normalize(toEye);
  vec3 h = normalize(l + v);
  vec3 base = texture(albedo, inUv).rgb * inTint;
  float diffuse = max(dot(n, l), 0.0);
  float specular = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), 32.0) * 0.35 : 0.0;
  // Sky light from above, a little bounce from below: the shadowed sides are not flat black.
  float ambient = 0.22 + 0.12 * n.y;
  vec3 lit = base * (ambient + 0.85 * diffuse) + vec3(specular);
  float fog = 1.0 - exp(-scene.fogColor.w * dot(toEye, toEye));
  outColor = vec4(mix(lit, scene.fogColor.rgb, fog), 1.0);
}
