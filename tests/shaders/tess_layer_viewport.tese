#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Layer and ViewportIndex written by the tessellation evaluation stage: patch t (PrimitiveId)
// takes vertex_layer_viewport.vert's layer and viewport of triangle t.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) flat out uint tag;
void main() {
  gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position +
                gl_TessCoord.z * gl_in[2].gl_Position;
  const uint t = uint(gl_PrimitiveID);
  gl_ViewportIndex = int(t % 4u);
  gl_Layer = int((t / 4u + t) % 4u);
  tag = t + 1u;
}
