#version 450
#extension GL_EXT_multiview : require
// vertex_layer_viewport.frag for multiview draws (where Layer may not be written): the
// primitive's tag, the view and the ViewportIndex.
layout(location = 0) flat in uint tag;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(tag, uint(gl_ViewIndex), uint(gl_ViewportIndex), 255u); }
