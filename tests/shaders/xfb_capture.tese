#version 450
// Transform feedback tests: quads with equal spacing over control points 0..3, capturing
// TessCoord.xy and the position into 24-byte records of buffer 0.
layout(quads, equal_spacing, ccw) in;
layout(location = 0) in vec4 point[];
layout(location = 3, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 24) out vec2 coord;
layout(xfb_buffer = 0) out gl_PerVertex {
  layout(xfb_offset = 8) vec4 gl_Position;
};
void main() {
  const vec2 uv = gl_TessCoord.xy;
  gl_Position = mix(mix(point[0], point[1], uv.x), mix(point[3], point[2], uv.x), uv.y);
  coord = uv;
}
